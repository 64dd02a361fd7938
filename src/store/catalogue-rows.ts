// Records → table rows, one record at a time, for both stores' streaming loads. What needs
// the whole catalogue (positions when ids are out of order, item counts, the text a record
// is found by) is finished in SQL once every row is in (catalogue-finish.ts), from the
// folded pieces of text staged here, so no store ever holds the catalogue as JS objects.
import type { Document, Feature, Image, Media } from '../catalogue/format.js';
import type { CatalogueRecord, CatalogueSink, ListName } from '../catalogue/lists.js';
import { boundingBox } from '../search/box.js';
import { foldText, htmlText, searchText } from '../search/text.js';

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
    switch (list) {
      case 'features': return this.feature(record as Feature);
      case 'images':
      case 'documents':
      case 'media': return this.attached(list as AttachedList, record as Image | Document | Media);
      case 'categories': {
        const { id, name } = record as CatalogueRecord<'categories'>;
        this.emit('stage_category_names', { id, text: searchText([name]) });
        return this.emit(list, { ...record });
      }
      default: return this.emit(list, { ...record });
    }
  }

  private position(list: 'features' | AttachedList, id: number, next: number): number {
    if (id <= this.lastId[list]) this.summary.inOrder[list] = false;
    this.lastId[list] = id;
    return next;
  }

  private feature(f: Feature): void {
    const position = this.position('features', f.id, this.summary.counts.features++);
    const { categories, site, tags, geometry, ...fields } = f;
    this.emit('features', {
      ...fields, position, site_id: site, tags: JSON.stringify(tags), geometry: JSON.stringify(geometry), item_count: 0,
      street_key: f.street === null ? null : foldText(f.street), postcode_key: foldText(f.postcode),
    });
    const [min_x, min_y, max_x, max_y] = boundingBox(geometry);
    this.emit('feature_boxes', { id: f.id, min_x, max_x, min_y, max_y });
    categories.forEach((category_id, i) => this.emit('feature_categories', { feature_id: f.id, position: i, category_id }));
    for (const tag of new Set(tags.map(foldText))) this.emit('feature_tags', { feature_id: f.id, tag });
    this.emit('stage_feature_text', {
      id: f.id,
      own: searchText([f.b_number, f.b_name, f.street, f.address, f.postcode, f.search_str, ...tags]),
      names: searchText([f.address, f.b_name]),
    });
  }

  private attached(list: AttachedList, record: Image | Document | Media): void {
    const { feature, author, published, ...rest } = record;
    const position = published ? this.position(list, record.id, this.summary.counts[list]++) : null;
    this.emit(list, { ...rest, feature_id: feature, author_id: author, published, position });
    if (published) this.emit('stage_attached', { kind: KIND[list], seq: this.stageSeq++, id: record.id, feature_id: feature, text: attachedText(list, record) });
  }
}

/** The words a published record is found by, and adds to its feature's. */
function attachedText(list: AttachedList, record: Image | Document | Media): string {
  if (list === 'images') return searchText([record.title, (record as Image).description]);
  if (list === 'documents') return searchText([record.title, htmlText((record as Document).body)]);
  return searchText([record.title]);
}
