// A record's page from the store: a feature's with its published attachments and its
// surroundings (the footprints in the ground around it, the streets' names), an image's,
// a document's or a media record's alone. Both the site's canonical record URLs and the
// OGC items' pages (f=html) are made here.
import { MAX_PAGE_SIZE } from '../../constants.js';
import { ERRORS } from '../../errors.js';
import type { OgcCollection } from '../../ogc/properties.js';
import { CONTEXT_BYTES, CONTEXT_MARGINS, CONTEXT_NEIGHBOURS, contextFrame, type Box, type Neighbour } from '../../render/site/context-map.js';
import { featureName, footprintOf, htmlAttachment, htmlFeature, type Attachment } from '../../render/site/record.js';
import type { PageAt } from '../../render/site/shell.js';
import { polygonsOf } from '../../render/ogc/html/footprint.js';
import type { DocumentRow, FeatureRow, ImageRow, MediaRow } from '../../store/store.js';
import type { ServedStore } from '../../work/reads.js';
import { askRecord, getReads, listReads } from '../../store/api/api-reads.js';
import type { StreetLabel } from '../../render/map-labels.js';
import type { ItemsPage } from '../../store/ogc/ogc-plans.js';
import type { StreetLabels } from './street-labels.js';
import { boxCandidatesRead } from '../../store/map/map-reads.js';
import { itemsRead } from '../../store/ogc/ogc-reads.js';

export interface RecordPageDeps {
  store: ServedStore;
  streets: StreetLabels;
}

/** The page and the oldest catalogue version it was read from (`itemVersion`: a read made before, or Infinity). */
export async function recordPage(deps: RecordPageDeps, at: PageAt, url: string, collection: OgcCollection, id: number, itemVersion = Number.POSITIVE_INFINITY): Promise<{ version: number; html: string }> {
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
  const detail = await askRecord(store, collection, id);
  if (detail.row === null) throw ERRORS.notFound();
  const version = Math.min(itemVersion, detail.version);
  const attachment: Attachment = collection === 'images' ? { collection, row: detail.row as ImageRow }
    : collection === 'documents' ? { collection, row: detail.row as DocumentRow } : { collection, row: detail.row as MediaRow };
  return { version, html: htmlAttachment(at, url, attachment) };
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
  let page: ItemsPage | null = null;
  let i = 0;
  for (; i <= last; i++) {
    // A frame counted is one of few candidates (CONTEXT_NEIGHBOURS, within a map view's), which the read need not count again.
    const counted = i < last;
    if (counted && await deps.store.ask(boxCandidatesRead, frames[i]!, CONTEXT_NEIGHBOURS + 1) > CONTEXT_NEIGHBOURS) continue;
    page = await deps.store.ask(itemsRead, 'features', {
      filter: { kind: 'intersects', left: { kind: 'property', name: 'geometry' }, right: { kind: 'bbox', value: frames[i]! } },
      words: null, sortBy: [], cursor: null, limit: CONTEXT_NEIGHBOURS, maxBytes: CONTEXT_BYTES, fewCandidates: counted,
    });
    if (page.next === null || page.rows.length === CONTEXT_NEIGHBOURS || i === last) break;
    const density = page.numberMatched / area(frames[i]!);
    let next = i + 1;
    while (next < last && density * area(frames[next]!) > page.rows.length) next++;
    i = next - 1;
  }
  if (page === null) return null;
  const neighbours = page.rows.filter((r) => r.id !== feature.id).map((r) => ({
    id: r.id,
    label: featureName({ b_name: String(r.values.b_name ?? ''), address: String(r.values.address ?? '') }),
    footprint: polygonsOf(r.geometry.text),
  }));
  const { labels } = await deps.streets.index(page.version);
  return { version: page.version, frame: frames[i]!, neighbours, streets: labels };
}

const area = ([w, s, e, n]: Box) => (e - w) * (n - s);
