// The HTML pages of /ogc/: each made from the resource's JSON body (or, for one record, the
// store's rows), rendered by the templates of templates.ts with escaping on. A feature's item
// page is the building's record page: facts, footprint, pictures, documents, media, JSON-LD.
import { API_PREFIX, CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON } from '../../../constants.js';
import { JsonText } from '../../../json-text.js';
import { OGC_PATHS } from '../../../ogc/paths.js';
import { COLLECTION_TITLES, propertiesOf, propertyOf, type OgcCollection } from '../../../ogc/properties.js';
import type { DocumentRow, FeatureRow, ImageRow, MediaRow, NestedFeatureRow } from '../../../store/store.js';
import { mediaUrl } from '../../media-url.js';
import type { CollectionBody } from '../collections.js';
import type { ItemBody } from '../items.js';
import type { Link } from '../links.js';
import { drawBox, drawFootprints, polygonsOf, type Drawing } from './footprint.js';
import { sanitiseDocument } from './sanitise.js';
import { jsonForScript, renderPage } from './templates.js';

export const PAGE_STYLE_PATH = `${OGC_PATHS.landing}style.css`;
export const MAP_PATH = '/map/';

interface Crumb { href: string; label: string }
interface Alternate { href: string; type: string; title: string }

interface PageContext {
  title: string;
  heading: string;
  description?: string;
  canonical?: string;
  alternates: Alternate[];
  crumbs: Crumb[];
  og?: { title: string; description: string; image: string | null };
  jsonLd?: string;
}

const FEATURE_KINDS: Readonly<Record<string, string>> = {
  WHITECHAPEL_BUILDING: 'Building',
  GREATER_WHITECHAPEL: 'Area',
  PLACE: 'Place',
};

function page(baseUrl: string, context: PageContext) {
  return {
    ...context,
    title: `${context.title} · heritage-api`,
    style: `${baseUrl}${PAGE_STYLE_PATH}`,
    home: `${baseUrl}${OGC_PATHS.landing}`,
    map: `${baseUrl}${MAP_PATH}`,
  };
}

/** The same URL asked as JSON: `f=json` in place of any `f`. */
export function withFormat(url: string, f: string): string {
  const at = url.indexOf('?');
  const params = new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
  params.set('f', f);
  return `${at === -1 ? url : url.slice(0, at)}?${params.toString()}`;
}

const home = (baseUrl: string): Crumb => ({ href: `${baseUrl}${OGC_PATHS.landing}`, label: 'Home' });
const collectionsCrumb = (baseUrl: string): Crumb => ({ href: `${baseUrl}${OGC_PATHS.collections}`, label: 'Collections' });
const collectionCrumb = (baseUrl: string, id: OgcCollection): Crumb => ({ href: `${baseUrl}${OGC_PATHS.collection(id)}`, label: COLLECTION_TITLES[id].title });
const itemsCrumb = (baseUrl: string, id: OgcCollection): Crumb => ({ href: `${baseUrl}${OGC_PATHS.items(id)}`, label: 'Items' });

function jsonAlternate(url: string, title: string, type = CONTENT_TYPE_JSON): Alternate {
  return { href: withFormat(url, 'json'), type, title };
}

export function htmlLanding(baseUrl: string, url: string, body: { title: string; description: string; links: Link[] }): string {
  return renderPage('landing', {
    page: page(baseUrl, { title: 'Home', heading: body.title, description: body.description, canonical: `${baseUrl}${OGC_PATHS.landing}`, alternates: [jsonAlternate(url, 'JSON')], crumbs: [] }),
    description: body.description,
    collections: Object.entries(COLLECTION_TITLES).map(([id, t]) => ({ href: `${baseUrl}${OGC_PATHS.collection(id as OgcCollection)}`, ...t })),
    links: body.links,
  });
}

export function htmlConformance(baseUrl: string, url: string, body: { conformsTo: readonly string[] }): string {
  return renderPage('conformance', {
    page: page(baseUrl, { title: 'Conformance', heading: 'Conformance classes', alternates: [jsonAlternate(url, 'JSON')], crumbs: [home(baseUrl)] }),
    classes: body.conformsTo,
  });
}

function extentText(c: CollectionBody): string {
  const [w, s, e, n] = c.extent.spatial.bbox[0]!;
  return `${w}, ${s} to ${e}, ${n} (longitude, latitude)`;
}

export function htmlCollections(baseUrl: string, url: string, body: { collections: CollectionBody[] }): string {
  return renderPage('collections', {
    page: page(baseUrl, { title: 'Collections', heading: 'Collections', alternates: [jsonAlternate(url, 'JSON')], crumbs: [home(baseUrl)] }),
    collections: body.collections.map((c) => ({
      id: c.id, title: c.title, description: c.description, extentText: extentText(c),
      href: `${baseUrl}${OGC_PATHS.collection(c.id)}`, itemsHref: `${baseUrl}${OGC_PATHS.items(c.id)}`,
    })),
  });
}

export function htmlCollection(baseUrl: string, url: string, body: CollectionBody): string {
  const bbox = body.extent.spatial.bbox[0]!;
  const world = bbox[0] === -180 && bbox[2] === 180;
  const interval = body.extent.temporal?.interval[0];
  return renderPage('collection', {
    page: page(baseUrl, { title: body.title, heading: body.title, description: body.description, alternates: [jsonAlternate(url, 'JSON')], crumbs: [home(baseUrl), collectionsCrumb(baseUrl)] }),
    description: body.description,
    extentText: extentText(body),
    intervalText: interval && (interval[0] !== null || interval[1] !== null) ? `${interval[0] ?? '…'} to ${interval[1] ?? '…'}` : null,
    drawing: world ? null : drawBox(bbox),
    itemsHref: `${baseUrl}${OGC_PATHS.items(body.id)}`,
    properties: propertiesOf(body.id),
    links: body.links,
  });
}

function geometryText(geometry: JsonText | unknown): string | null {
  if (geometry === null || geometry === undefined) return null;
  return geometry instanceof JsonText ? geometry.text : JSON.stringify(geometry);
}

const LABELS: Readonly<Record<OgcCollection, (p: ItemBody['properties']) => string>> = {
  features: (p) => String(p.b_name || p.address || ''),
  images: (p) => String(p.title ?? ''),
  documents: (p) => String(p.title ?? ''),
  media: (p) => String(p.title ?? ''),
};

/** Columns shown in the items table: short values only (no document text). */
const HIDDEN_COLUMNS = new Set(['body_html', 'text', 'api_url', 'page_url', 'thumbnail', 'file_url', 'category_ids', 'description']);

export function htmlItems(
  baseUrl: string, url: string, collection: OgcCollection,
  body: { numberMatched: number; numberReturned: number; links: Link[]; features: ItemBody[] },
): string {
  const itemHref = (id: number) => `${baseUrl}${OGC_PATHS.item(collection, id)}`;
  const first = body.features[0];
  const columns = first === undefined ? [] : Object.keys(first.properties).filter((k) => !HIDDEN_COLUMNS.has(k));
  const drawn = body.features
    .map((f) => ({ f, text: geometryText(f.geometry) }))
    .filter((x): x is { f: ItemBody; text: string } => x.text !== null);
  const drawing = drawFootprints(drawn.map((x) => polygonsOf(x.text)));
  const shapes = drawing?.shapes.map((s, i) => ({ ...s, href: itemHref(drawn[i]!.f.id), title: LABELS[collection](drawn[i]!.f.properties) || `#${drawn[i]!.f.id}` }));
  const link = (rel: string) => body.links.find((l) => l.rel === rel)?.href ?? null;
  const html = (href: string | null) => (href === null ? null : withFormat(href, 'html'));
  const title = COLLECTION_TITLES[collection].title;
  return renderPage('items', {
    page: page(baseUrl, { title: `${title}: items`, heading: `${title}: items`, alternates: [jsonAlternate(url, 'GeoJSON (as JSON)')], crumbs: [home(baseUrl), collectionsCrumb(baseUrl), collectionCrumb(baseUrl, collection)] }),
    summary: `${body.numberReturned} shown of ${body.numberMatched} matching.`,
    drawing: drawing === null ? null : { ...drawing, shapes },
    prevHref: html(link('prev')),
    nextHref: html(link('next')),
    columns: ['', ...columns.map((c) => propertyOf(collection, c)?.title ?? c)],
    rows: body.features.map((f) => ({
      href: itemHref(f.id),
      label: LABELS[collection](f.properties) || `#${f.id}`,
      cells: columns.map((c) => { const v = f.properties[c]; return v === null || v === undefined ? '' : String(v); }),
    })),
  });
}

/** What a building's record page shows: the feature and its published attachments. */
export interface FeatureRecord {
  feature: FeatureRow;
  images: ImageRow[];
  documents: DocumentRow[];
  media: MediaRow[];
}

function featureName(f: Pick<NestedFeatureRow, 'b_name' | 'address'>): string {
  return f.b_name ? f.b_name : f.address;
}

/** The centre of a footprint's box, [lon, lat]. */
function centreOf(drawing: Drawing | null): [number, number] | null {
  if (drawing === null) return null;
  const [w, s, e, n] = drawing.bbox;
  return [(w + e) / 2, (s + n) / 2];
}

export function htmlFeature(baseUrl: string, url: string, record: FeatureRecord): string {
  const f = record.feature;
  const self = `${baseUrl}${OGC_PATHS.item('features', f.id)}`;
  const geometry = geometryText(f.geometry);
  const drawing = geometry === null ? null : drawFootprints([polygonsOf(geometry)]);
  const centre = centreOf(drawing);
  const name = featureName(f);
  const categories = f.categories.map((c) => c.name);
  const images = record.images.map((i) => ({ title: i.title, file: mediaUrl(baseUrl, i.file), href: `${baseUrl}${OGC_PATHS.item('images', i.id)}` }));
  const description = [f.b_name ? f.address : null, categories.join(', ') || null, f.current === null ? null : `Year ${f.current}`, f.site?.name ?? null]
    .filter((x) => x !== null).join(' · ') || f.address;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'LandmarksOrHistoricalBuildings',
    '@id': self,
    url: self,
    name,
    description,
    address: { '@type': 'PostalAddress', streetAddress: f.address, ...(f.postcode ? { postalCode: f.postcode } : {}) },
    ...(centre ? { geo: { '@type': 'GeoCoordinates', latitude: centre[1], longitude: centre[0] } } : {}),
    ...(images.length > 0 ? { image: images.map((i) => i.file) } : {}),
    ...(f.site ? { containedInPlace: { '@type': 'Place', name: f.site.name } } : {}),
    ...(categories.length > 0 ? { keywords: categories.join(', ') } : {}),
  };
  const mapHref = centre === null
    ? `${baseUrl}${MAP_PATH}#feature=${f.id}`
    : `${baseUrl}${MAP_PATH}#map=18/${centre[1].toFixed(6)}/${centre[0].toFixed(6)}&feature=${f.id}`;
  return renderPage('feature', {
    page: page(baseUrl, {
      title: name === f.address ? name : `${name}, ${f.address}`,
      heading: name,
      description,
      canonical: self,
      alternates: [jsonAlternate(url, 'GeoJSON (as JSON)'), { href: `${baseUrl}${API_PREFIX}features/${f.id}/`, type: CONTENT_TYPE_JSON, title: 'JSON (/api/v1/)' }],
      crumbs: [home(baseUrl), collectionCrumb(baseUrl, 'features'), itemsCrumb(baseUrl, 'features')],
      og: { title: name, description, image: images[0]?.file ?? null },
      jsonLd: jsonForScript(jsonLd),
    }),
    f: {
      address: f.address, name: f.b_name || null, categories, year: f.current, site: f.site?.name ?? null,
      kind: FEATURE_KINDS[f.feature_type] ?? f.feature_type,
      mapHref, geojsonHref: withFormat(self, 'json'), apiHref: `${baseUrl}${API_PREFIX}features/${f.id}/`,
    },
    drawing,
    drawingCaption: `The footprint of ${name}.`,
    images,
    documents: record.documents.map((d) => ({
      id: d.id, title: d.title, author: d.author.username, created: d.created,
      href: `${baseUrl}${OGC_PATHS.item('documents', d.id)}`, html: sanitiseDocument(d.body, `d${d.id}`),
    })),
    media: record.media.map((m) => ({ title: m.title, url: safeExternal(m.url), href: `${baseUrl}${OGC_PATHS.item('media', m.id)}` })),
  });
}

/** A media URL as a link: http(s) only (anything else is shown as no link target). */
function safeExternal(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '#';
}

type Attachment = { collection: 'images'; row: ImageRow } | { collection: 'documents'; row: DocumentRow } | { collection: 'media'; row: MediaRow };

export function htmlAttachment(baseUrl: string, url: string, a: Attachment): string {
  const r = a.row;
  const self = `${baseUrl}${OGC_PATHS.item(a.collection, r.id)}`;
  const featureHref = `${baseUrl}${OGC_PATHS.item('features', r.feature.id)}`;
  const featureLabel = featureName(r.feature);
  const facts: { label: string; value: string }[] = [];
  let image = null;
  let html: string | null = null;
  let link: string | null = null;
  if (a.collection === 'images') {
    image = { file: mediaUrl(baseUrl, a.row.file), title: a.row.title, description: a.row.description };
    if (a.row.created) facts.push({ label: 'Made', value: a.row.created });
    facts.push({ label: 'Copyright', value: a.row.copyright ? 'Under copyright' : 'Not under copyright' });
  } else if (a.collection === 'documents') {
    facts.push({ label: 'Written', value: a.row.created }, { label: 'Last edited', value: a.row.last_edited });
    html = sanitiseDocument(a.row.body, `d${a.row.id}`);
  } else {
    link = safeExternal(a.row.url);
  }
  return renderPage('attachment', {
    page: page(baseUrl, {
      title: `${r.title} (${featureLabel})`, heading: r.title, canonical: self,
      alternates: [jsonAlternate(url, 'GeoJSON (as JSON)'), { href: `${baseUrl}${API_PREFIX}${a.collection}/${r.id}/`, type: CONTENT_TYPE_JSON, title: 'JSON (/api/v1/)' }],
      crumbs: [home(baseUrl), collectionCrumb(baseUrl, a.collection), itemsCrumb(baseUrl, a.collection)],
      og: { title: r.title, description: `${COLLECTION_TITLES[a.collection].title} of ${featureLabel}`, image: image?.file ?? null },
    }),
    featureHref, featureLabel, author: r.author.username, image, facts, html, url: link,
  });
}

export const HTML_ALTERNATE_TYPE = 'text/html';
export { CONTENT_TYPE_GEOJSON };
