// The HTML pages of /ogc/ for GIS people: each made from the resource's JSON body, rendered
// by the templates of templates.ts with escaping on, in the page layer's shell (pages/shell.ts).
// An item's page is its record page, the site's (given to the routes by the app).
import { FEATURE_KEYS as F } from '../../../catalogue/fields.js';
import { OGC_PATHS } from '../../../ogc/paths.js';
import { CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../../catalogue/collections.js';
import { COLLECTION_TITLES, propertiesOf, propertyOf } from '../../../ogc/properties.js';
import type { CollectionBody } from '../collections.js';
import type { ItemBody } from '../items.js';
import type { Link } from '../links.js';
import { drawBox, drawFootprints, geometryText, polygonsOf } from '../../../pages/footprint.js';
import { jsonAlternate, withFormat } from '../../../pages/links.js';
import { homeCrumb, page, type Crumb, type PageAt } from '../../../pages/shell.js';
import { OGC_PAGES } from './templates.js';

const ogcCrumb = (at: PageAt): Crumb => ({ href: `${at.baseUrl}${OGC_PATHS.landing}`, label: 'OGC API' });
const collectionsCrumb = (at: PageAt): Crumb => ({ href: `${at.baseUrl}${OGC_PATHS.collections}`, label: 'Collections' });
const collectionCrumb = (at: PageAt, id: CatalogueCollection): Crumb => ({ href: `${at.baseUrl}${OGC_PATHS.collection(id)}`, label: COLLECTION_TITLES[id].title });
/** Above every page of the OGC face: the site's home, then the face's own landing page. */
const ogcCrumbs = (at: PageAt, ...more: Crumb[]): Crumb[] => [homeCrumb(at), ogcCrumb(at), ...more];

export function htmlLanding(at: PageAt, url: string, body: { title: string; description: string; links: Link[] }): string {
  return OGC_PAGES.render('landing', {
    page: page(at, { title: 'OGC API – Features', heading: body.title, description: body.description, canonical: `${at.baseUrl}${OGC_PATHS.landing}`, alternates: [jsonAlternate(url, 'JSON')], crumbs: [homeCrumb(at)] }),
    description: body.description,
    collections: CATALOGUE_COLLECTIONS.map((id) => ({ href: `${at.baseUrl}${OGC_PATHS.collection(id)}`, ...COLLECTION_TITLES[id] })),
    links: body.links,
  });
}

export function htmlConformance(at: PageAt, url: string, body: { conformsTo: readonly string[] }): string {
  return OGC_PAGES.render('conformance', {
    page: page(at, { title: 'Conformance', heading: 'Conformance classes', description: 'The conformance classes of the OGC API standards that this server meets.', alternates: [jsonAlternate(url, 'JSON')], crumbs: ogcCrumbs(at) }),
    classes: body.conformsTo,
  });
}

function extentText(c: CollectionBody): string {
  const [w, s, e, n] = c.extent.spatial.bbox[0];
  return `${w}, ${s} to ${e}, ${n} (longitude, latitude)`;
}

export function htmlCollections(at: PageAt, url: string, body: { collections: CollectionBody[] }): string {
  return OGC_PAGES.render('collections', {
    page: page(at, { title: 'Collections', heading: 'Collections', description: 'The collections of the OGC API – Features face: buildings and places, images, documents and media.', alternates: [jsonAlternate(url, 'JSON')], crumbs: ogcCrumbs(at) }),
    collections: body.collections.map((c) => ({
      id: c.id, title: c.title, description: c.description, extentText: extentText(c),
      href: `${at.baseUrl}${OGC_PATHS.collection(c.id)}`, itemsHref: `${at.baseUrl}${OGC_PATHS.items(c.id)}`,
    })),
  });
}

export function htmlCollection(at: PageAt, url: string, body: CollectionBody): string {
  const bbox = body.extent.spatial.bbox[0];
  const world = bbox[0] === -180 && bbox[2] === 180;
  const interval = body.extent.temporal?.interval[0];
  return OGC_PAGES.render('collection', {
    page: page(at, { title: body.title, heading: body.title, description: body.description, alternates: [jsonAlternate(url, 'JSON')], crumbs: ogcCrumbs(at, collectionsCrumb(at)) }),
    description: body.description,
    extentText: extentText(body),
    intervalText: interval && (interval[0] !== null || interval[1] !== null) ? `${interval[0] ?? '…'} to ${interval[1] ?? '…'}` : null,
    drawing: world ? null : drawBox(bbox),
    itemsHref: `${at.baseUrl}${OGC_PATHS.items(body.id)}`,
    properties: propertiesOf(body.id),
    links: body.links,
  });
}

const LABELS: Readonly<Record<CatalogueCollection, (p: ItemBody['properties']) => string>> = {
  features: (p) => String(p[F.name] || p[F.address] || ''),
  images: (p) => String(p.title ?? ''),
  documents: (p) => String(p.title ?? ''),
  media: (p) => String(p.title ?? ''),
};

/** Columns shown in the items table: short values only (no document text). */
const HIDDEN_COLUMNS = new Set(['body_html', 'text', 'api_url', 'page_url', 'thumbnail', 'file_url', 'category_ids', 'description']);

export function htmlItems(
  at: PageAt, url: string, collection: CatalogueCollection,
  body: { numberMatched: number; numberReturned: number; links: Link[]; features: ItemBody[] },
): string {
  const itemHref = (id: number) => `${at.baseUrl}${OGC_PATHS.item(collection, id)}`;
  const first = body.features[0];
  const columns = first === undefined ? [] : Object.keys(first.properties).filter((k) => !HIDDEN_COLUMNS.has(k));
  const drawn = body.features
    .map((f) => ({ f, text: geometryText(f.geometry) }))
    .filter((x): x is { f: ItemBody; text: string } => x.text !== null);
  const drawing = drawFootprints(drawn.map((x) => polygonsOf(x.text)));
  // The shapes are not links: a picture (role img) holding links is nested interaction; the table links each item.
  const link = (rel: string) => body.links.find((l) => l.rel === rel)?.href ?? null;
  const html = (href: string | null) => (href === null ? null : withFormat(href, 'html'));
  const title = COLLECTION_TITLES[collection].title;
  return OGC_PAGES.render('items', {
    page: page(at, {
      title: `${title}: items`, heading: `${title}: items`, description: `${COLLECTION_TITLES[collection].description} This page: ${body.numberReturned} of ${body.numberMatched} items.`,
      alternates: [jsonAlternate(url, 'GeoJSON (as JSON)')], crumbs: ogcCrumbs(at, collectionsCrumb(at), collectionCrumb(at, collection)),
    }),
    summary: `${body.numberReturned} shown of ${body.numberMatched} matching.`,
    drawing,
    prevHref: html(link('prev')),
    nextHref: html(link('next')),
    columns: ['Item', ...columns.map((c) => propertyOf(collection, c)?.title ?? c)],
    rows: body.features.map((f) => ({
      href: itemHref(f.id),
      label: LABELS[collection](f.properties) || `#${f.id}`,
      cells: columns.map((c) => { const v = f.properties[c]; return v === null || v === undefined ? '' : String(v); }),
    })),
  });
}
