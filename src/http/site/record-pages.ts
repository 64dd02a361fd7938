// A record's page from the store: a feature's with its published attachments and its
// surroundings (the footprints in the ground around it, the streets' names), an image's,
// a document's or a media record's alone. Both the site's canonical record URLs and the
// OGC items' pages (f=html) are made here.
import { MAX_PAGE_SIZE } from '../../constants.js';
import { ERRORS } from '../../errors.js';
import type { OgcCollection } from '../../ogc/properties.js';
import { CONTEXT_MARGIN_METRES, CONTEXT_NEIGHBOURS, type Box, type Neighbour } from '../../render/site/context-map.js';
import { featureName, htmlAttachment, htmlFeature, surroundingsFrame, type Attachment } from '../../render/site/record.js';
import type { PageAt } from '../../render/site/shell.js';
import { polygonsOf } from '../../render/ogc/html/footprint.js';
import type { CatalogueReader, DocumentRow, FeatureRow, ImageRow, MediaRow } from '../../store/store.js';
import type { StreetLabel } from '../../render/map-labels.js';
import type { StreetLabels } from './street-labels.js';

export interface RecordPageDeps {
  store: CatalogueReader;
  streets: StreetLabels;
}

/** The page and the oldest catalogue version it was read from (`itemVersion`: a read made before, or Infinity). */
export async function recordPage(deps: RecordPageDeps, at: PageAt, url: string, collection: OgcCollection, id: number, itemVersion = Number.POSITIVE_INFINITY): Promise<{ version: number; html: string }> {
  const { store } = deps;
  if (collection === 'features') {
    const attached = { page: 1, pageSize: MAX_PAGE_SIZE };
    const [feature, images, documents, media] = await Promise.all([
      store.get('features', id),
      store.list('images', attached, { feature: id }),
      store.list('documents', attached, { feature: id }),
      store.list('media', attached, { feature: id }),
    ]);
    if (feature.row === null) throw ERRORS.notFound();
    const around = await surroundings(deps, feature.row);
    const version = Math.min(itemVersion, feature.version, images.version, documents.version, media.version, around?.version ?? Number.POSITIVE_INFINITY);
    const record = { feature: feature.row, images: images.page?.rows ?? [], documents: documents.page?.rows ?? [], media: media.page?.rows ?? [], surroundings: around };
    return { version, html: htmlFeature(at, url, record) };
  }
  const detail = await store.get(collection, id);
  if (detail.row === null) throw ERRORS.notFound();
  const version = Math.min(itemVersion, detail.version);
  const attachment: Attachment = collection === 'images' ? { collection, row: detail.row as ImageRow }
    : collection === 'documents' ? { collection, row: detail.row as DocumentRow } : { collection, row: detail.row as MediaRow };
  return { version, html: htmlAttachment(at, url, attachment) };
}

/**
 * The footprints around a feature: a frame of ground around it, narrowed where so many
 * footprints meet it that they would not fit one small page (CONTEXT_NEIGHBOURS, which keeps
 * the read a map view's: bounded, inline), and the streets' labels.
 */
async function surroundings(deps: RecordPageDeps, feature: FeatureRow): Promise<{ version: number; frame: Box; neighbours: Neighbour[]; streets: StreetLabel[] } | null> {
  let frame: Box | null = null;
  for (const margin of [CONTEXT_MARGIN_METRES, CONTEXT_MARGIN_METRES / 2, CONTEXT_MARGIN_METRES / 4]) {
    frame = surroundingsFrame(feature, margin);
    if (frame === null) return null;
    if (await deps.store.boxCandidates(frame, CONTEXT_NEIGHBOURS + 1) <= CONTEXT_NEIGHBOURS) break;
  }
  const page = await deps.store.items('features', {
    filter: { kind: 'intersects', left: { kind: 'property', name: 'geometry' }, right: { kind: 'bbox', value: frame! } },
    words: null, sortBy: [], cursor: null, limit: CONTEXT_NEIGHBOURS,
  });
  const neighbours = page.rows.filter((r) => r.id !== feature.id).map((r) => ({
    id: r.id,
    label: featureName({ b_name: String(r.values.b_name ?? ''), address: String(r.values.address ?? '') }),
    footprint: polygonsOf(r.geometry.text),
  }));
  const { labels } = await deps.streets.index(page.version);
  return { version: page.version, frame: frame!, neighbours, streets: labels };
}
