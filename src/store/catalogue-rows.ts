// Records → table rows, one record at a time, for both stores' streaming loads. What needs
// the whole catalogue (positions when ids are out of order, item counts, the text a record
// is found by) is finished in SQL once every row is in (catalogue-finish.ts), from the
// folded pieces of text staged here, so no store ever holds the catalogue as JS objects.
import { FEATURE_KEYS as F, fieldsOf, type Search } from '../catalogue/fields.js';
import type { Document, Feature, Image, Media } from '../catalogue/format.js';
import type { CatalogueRecord, CatalogueSink, ListName } from '../catalogue/lists.js';
import { boundingBox } from '../search/box.js';
import { foldText, htmlText, searchText } from '../search/text.js';
import { recordColumns } from './record-columns.js';

/** Where rows go: a table name (catalogue or staging) and one row. */
export type EmitRow = (table: string, row: Record<string, unknown>) => void;

export type AttachedList = 'images' | 'documents' | 'media';
export const ATTACHED_LISTS: readonly AttachedList[] = ['images', 'documents', 'media'];
/** `stage_attached.kind`: the order attachments' text joins a feature's. */
const KIND: Record<AttachedList, number> = { images: 0, documents: 1, media: 2 };

/** What the finishing SQL needs to know about what went in. */
export interface LoadSummary {
  counts: Record<'features' | AttachedList, number>;
  /** Lists whose ids came in ascending order, so the positions given on insert are final. */
  inOrder: Record<'features' | AttachedList, boolean>;
}

/** A sink turning each record into rows the moment it passes its checks. */
export class CatalogueRowBuilder implements CatalogueSink {
  readonly summary: LoadSummary = {
    counts: { features: 0, images: 0, documents: 0, media: 0 },
    inOrder: { features: true, images: true, documents: true, media: true },
  };
  private readonly lastId = { features: 0, images: 0, documents: 0, media: 0 };
  private stageSeq = 0;

  constructor(private readonly emit: EmitRow) {}

  add<L extends ListName>(list: L, record: CatalogueRecord<L>): void {
    const row = recordColumns(list, record);
    if (isFeature(list, record)) return this.feature(record, row);
    const attached = ATTACHED_LISTS.find((l) => l === list);
    if (attached && isAttached(list, record)) return this.attached(attached, record, row);
    // A category's name is found in the features in it (catalogue-finish.ts).
    if (list === 'categories') this.emit('stage_category_names', { id: record.id, text: recordText(list, record, OWN) });
    this.emit(list, row);
  }

  private position(list: 'features' | AttachedList, id: number, next: number): number {
    if (id <= this.lastId[list]) this.summary.inOrder[list] = false;
    this.lastId[list] = id;
    return next;
  }

  private feature(f: Feature, row: Record<string, unknown>): void {
    const position = this.position('features', f.id, this.summary.counts.features++);
    this.emit('features', {
      ...row, position, item_count: 0,
      street_key: f.street === null ? null : foldText(f.street), postcode_key: foldText(f[F.postalCode]),
    });
    const [min_x, min_y, max_x, max_y] = boundingBox(f.geometry);
    const positions = f.geometry.coordinates.reduce((sum, polygon) => sum + polygon.reduce((n, ring) => n + ring.length, 0), 0);
    this.emit('feature_boxes', { id: f.id, min_x, max_x, min_y, max_y, positions });
    f.categories.forEach((category_id, i) => this.emit('feature_categories', { feature_id: f.id, position: i, category_id }));
    for (const tag of new Set(f.tags.map(foldText))) this.emit('feature_tags', { feature_id: f.id, tag });
    this.emit('stage_feature_text', { id: f.id, own: recordText('features', f, OWN), names: recordText('features', f, NAMES) });
  }

  private attached(list: AttachedList, record: Image | Document | Media, row: Record<string, unknown>): void {
    const { published } = record;
    const position = published ? this.position(list, record.id, this.summary.counts[list]++) : null;
    this.emit(list, { ...row, position });
    if (!published) return;
    const text = recordText(list, record, OWN);
    this.emit('stage_attached', { kind: KIND[list], seq: this.stageSeq++, id: record.id, feature_id: record.feature, text });
  }
}

const OWN: readonly Search[] = ['text', 'name', 'html'];
const NAMES: readonly Search[] = ['name'];

/** The words of a record's searched fields of those kinds (fields.ts), in field order. */
function recordText(list: ListName, record: CatalogueRecord, kinds: readonly Search[]): string {
  const given: Readonly<Record<string, unknown>> = record;
  const parts: string[] = [];
  for (const { key, search } of fieldsOf(list)) {
    if (search === null || !kinds.includes(search)) continue;
    const value = given[key];
    if (typeof value === 'string') parts.push(search === 'html' ? htmlText(value) : value);
    else if (Array.isArray(value)) parts.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return searchText(parts);
}

// What a record is follows from its list.
function isFeature(list: ListName, _record: CatalogueRecord): _record is Feature {
  return list === 'features';
}

function isAttached(list: ListName, _record: CatalogueRecord): _record is Image | Document | Media {
  return ATTACHED_LISTS.some((l) => l === list);
}
