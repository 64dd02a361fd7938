// A record's page from the store: a feature's with its published attachments and its
// surroundings (the footprints in the ground around it, the streets' names), an image's,
// a document's or a media record's alone. Both the site's canonical record URLs and the
// OGC items' pages (f=html) are made here.
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { MAX_PAGE_SIZE } from '../../constants.js';
import { ERRORS } from '../../errors.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { CONTEXT_BYTES, CONTEXT_MARGINS, CONTEXT_NEIGHBOURS, contextFrame, type Box, type Neighbour } from '../../render/site/context-map.js';
import { featureName, footprintOf, htmlAttachment, htmlFeature, type Attachment } from '../../render/site/record.js';
import { polygonsOf } from '../../pages/footprint.js';
import type { PageAt } from '../../pages/shell.js';
import type { FeatureRow } from '../../store/store.js';
import type { StreetLabel } from '../../render/map-labels.js';
import type { ServedStore } from '../../work/reads.js';
import { getReads, listReads } from '../../store/api/api-reads.js';
import type { StreetLabels } from './street-labels.js';
import { boxCandidatesRead } from '../../store/map/map-reads.js';

/**
 * A page of the features whose footprints meet a box, cut at `maxBytes` of footprints: OGC's
 * items read, handed in by the app (app.ts), so that the site's pages import no OGC module.
 * `fewCandidates`: the box was counted already and holds few, so the read need not count it.
 */
export type FeaturesInBox = (box: Box, limit: number, maxBytes: number, fewCandidates: boolean) => Promise<FeaturesPage>;

export interface FeaturesPage {
  readonly version: number;
  readonly numberMatched: number;
  /** Null when the box holds no more than this page. */
  readonly next: unknown;
  readonly rows: readonly { readonly id: number; readonly geometry: { readonly text: string }; readonly values: Readonly<Record<string, unknown>> }[];
}

export interface RecordPageDeps {
  store: ServedStore;
  streets: StreetLabels;
  featuresInBox: FeaturesInBox;
}

/** The page and the oldest catalogue version it was read from (`itemVersion`: a read made before, or Infinity). */
export async function recordPage(deps: RecordPageDeps, at: PageAt, url: string, collection: CatalogueCollection, id: number, itemVersion = Number.POSITIVE_INFINITY): Promise<{ version: number; html: string }> {
  const { store } = deps;
  if (collection === 'features') {
    const attached = { page: 1, pageSize: MAX_PAGE_SIZE };
    // The surroundings are read while the attachments are: each read waits its turn for a core
    // on a busy machine, so the page takes the longest chain of reads, not their sum.
    const lists = Promise.all([
      store.ask(listReads.images, attached, { feature: id }),
      store.ask(listReads.documents, attached, { feature: id }),
      store.ask(listReads.media, attached, { feature: id }),
    ]);
    lists.catch(() => undefined); // awaited below, unless the feature is not found
    const feature = await store.ask(getReads.features, id);
    if (feature.row === null) throw ERRORS.notFound();
    const [around, [images, documents, media]] = await Promise.all([surroundings(deps, feature.row), lists]);
    const version = Math.min(itemVersion, feature.version, images.version, documents.version, media.version, around?.version ?? Number.POSITIVE_INFINITY);
    const record = { feature: feature.row, images: images.page?.rows ?? [], documents: documents.page?.rows ?? [], media: media.page?.rows ?? [], surroundings: around };
    return { version, html: htmlFeature(at, url, record) };
  }
  const { version: read, attachment } = await attachmentOf(store, collection, id);
  return { version: Math.min(itemVersion, read), html: htmlAttachment(at, url, attachment) };
}

/** A picture, a document or a video link, read as its own collection's row. */
async function attachmentOf(store: ServedStore, collection: Attachment['collection'], id: number): Promise<{ version: number; attachment: Attachment }> {
  if (collection === 'images') {
    const { version, row } = await store.ask(getReads[collection], id);
    if (row !== null) return { version, attachment: { collection, row } };
  } else if (collection === 'documents') {
    const { version, row } = await store.ask(getReads[collection], id);
    if (row !== null) return { version, attachment: { collection, row } };
  } else {
    const { version, row } = await store.ask(getReads[collection], id);
    if (row !== null) return { version, attachment: { collection, row } };
  }
  throw ERRORS.notFound();
}

/**
 * The footprints around a feature: a frame of ground around it, narrowed where so many
 * footprints meet it that they would not fit one small page (CONTEXT_NEIGHBOURS, which keeps
 * the read a map view's: bounded, inline) or their text would pass CONTEXT_BYTES (each is
 * parsed on the event loop to be drawn: a hundred detailed neighbours are 6 MB), and the
 * streets' labels. A page cut by its bytes tells how densely the ground is built, so the next
 * frame read is the widest that should fit, not the next narrower; the narrowest frame's
 * page is drawn as far as the bytes allow.
 */
async function surroundings(deps: RecordPageDeps, feature: FeatureRow): Promise<{ version: number; frame: Box; neighbours: Neighbour[]; streets: StreetLabel[] } | null> {
  const footprint = footprintOf(feature);
  const frames = footprint === null ? [] : CONTEXT_MARGINS.map((margin) => contextFrame(footprint, margin)).filter((f) => f !== null);
  const last = frames.length - 1;
  let page: FeaturesPage | null = null;
  let frame: Box | null = null;
  for (let i = 0; i <= last; i++) {
    const here = frames[i];
    if (here === undefined) break;
    // A frame counted is one of few candidates (CONTEXT_NEIGHBOURS, within a map view's), which the read need not count again.
    const counted = i < last;
    if (counted && await deps.store.ask(boxCandidatesRead, here, CONTEXT_NEIGHBOURS + 1) > CONTEXT_NEIGHBOURS) continue;
    page = await deps.featuresInBox(here, CONTEXT_NEIGHBOURS, CONTEXT_BYTES, counted);
    frame = here;
    if (page.next === null || page.rows.length === CONTEXT_NEIGHBOURS || i === last) break;
    const density = page.numberMatched / area(here);
    let next = i + 1;
    while (next < last && density * areaAt(frames, next) > page.rows.length) next++;
    i = next - 1;
  }
  if (page === null || frame === null) return null;
  const neighbours = page.rows.filter((r) => r.id !== feature.id).map((r) => ({
    id: r.id,
    label: featureName({ [F.name]: String(r.values[F.name] ?? ''), [F.address]: String(r.values[F.address] ?? '') }),
    footprint: polygonsOf(r.geometry.text),
  }));
  const { labels } = await deps.streets.index(page.version);
  return { version: page.version, frame, neighbours, streets: labels };
}

const area = ([w, s, e, n]: Box) => (e - w) * (n - s);
const areaAt = (frames: readonly Box[], k: number) => { const frame = frames[k]; return frame === undefined ? 0 : area(frame); };
