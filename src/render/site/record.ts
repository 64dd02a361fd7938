// The record pages, the site's canonical pages of each record (site/paths.ts; the OGC items'
// pages are the same page): a building or place with where it is (a small map among its
// neighbours and streets, the buildings nearby), its facts, pictures with credits and
// licences, writing, video links, how to cite it and when it last changed, and its pictures
// side by side and as a IIIF manifest; a picture's page (in a deep-zoom viewer over its IIIF
// image service, the plain picture without scripts), a document's and a video's own page.
// Each with its description and structured data.
import { DOCUMENT_KEYS as D, FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { API_PREFIX, CONTENT_TYPE_IIIF_PRESENTATION, CONTENT_TYPE_JSON } from '../../constants.js';
import { IIIF_PATHS, LINKED_PATHS } from '../../pages/paths.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { CONTRIBUTE_PATHS, SITE_PATHS } from '../../site/paths.js';
import type { DocumentRow, FeatureRow, ImageRow, MediaRow, NestedFeatureRow } from '../../store/store.js';
import type { StreetLabel } from '../map-labels.js';
import { mediaUrl } from '../media-url.js';
import { bboxOf, geometryText, polygonsOf } from '../../pages/footprint.js';
import { jsonAlternate } from '../../pages/links.js';
import { sanitiseDocument } from '../../pages/sanitise.js';
import { jsonForScript } from '../../pages/templates.js';
import { drawContext, nearbyBuildings, type Box, type Neighbour } from './context-map.js';
import { breadcrumbList, graph, licenceOf, postalAddress, schemaTypeOf } from './json-ld.js';
import { homeCrumb, page, searchCrumb, shortened, type Alternate, type Crumb, type PageAt } from '../../pages/shell.js';
import { SITE_PAGES } from './templates.js';
import { viewerAssets } from './viewer-assets.js';

/** What a building's record page shows: the feature, its published attachments and its surroundings. */
export interface FeatureRecord {
  feature: FeatureRow;
  images: ImageRow[];
  documents: DocumentRow[];
  media: MediaRow[];
  /** The ground drawn around it (contextFrame), and what is in it. */
  surroundings: { frame: Box; neighbours: Neighbour[]; streets: StreetLabel[] } | null;
}

const KIND_NAMES: Readonly<Record<string, string>> = {
  WHITECHAPEL_BUILDING: 'Building',
  GREATER_WHITECHAPEL: 'Area',
  PLACE: 'Place',
  OPEN_SPACE: 'Open space',
};

export function featureName(f: Pick<NestedFeatureRow, typeof F.name | typeof F.address>): string {
  const name = f[F.name];
  return name ? name : f.address;
}

export const recordHref = (at: PageAt, collection: CatalogueCollection, id: number) => `${at.baseUrl}${SITE_PATHS.record(collection, id)}`;

/** The footprint as polygons, or null when the record has none. */
export function footprintOf(f: Pick<FeatureRow, 'geometry'>) {
  const text = geometryText(f.geometry);
  return text === null ? null : polygonsOf(text);
}

/** A picture's licence as the page says it. */
function pictureLicence(at: PageAt, image: ImageRow): { text: string; url: string | null } {
  if (image.copyright) return { text: `Under copyright, © ${image.author.username}: ask before reusing it`, url: null };
  return { text: at.site.licence.name, url: at.site.licence.url };
}

/** The latest date among its pictures and writing (the catalogue keeps no other date of a change). */
function lastChanged(record: FeatureRecord): string | null {
  const dates = [...record.documents.flatMap((d) => [d.created, d[D.lastEdited]]), ...record.images.map((i) => i.created)].filter((d): d is string => !!d);
  return dates.length === 0 ? null : dates.reduce((a, b) => (a > b ? a : b));
}

function citationOf(at: PageAt, title: string, href: string, changed: string | null): string {
  return `${at.site.publisher}, “${title}”, ${at.site.title}, ${href}${changed ? ` (last changed ${changed})` : ''}.`;
}

/** A record's IIIF manifest: a link in the head and in the page. */
function manifestAlternate(href: string): Alternate {
  return { href, type: CONTENT_TYPE_IIIF_PRESENTATION, title: 'IIIF manifest' };
}

export function htmlFeature(at: PageAt, url: string, record: FeatureRecord): string {
  const f = record.feature;
  const self = recordHref(at, 'features', f.id);
  const footprint = footprintOf(f);
  const box = footprint === null ? null : bboxOf([footprint]);
  const centre = box === null ? null : [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] as const;
  const name = featureName(f);
  const categories = f.categories.map((c) => ({ name: c.name, href: `${at.baseUrl}${SITE_PATHS.search}?category=${c.id}` }));
  const changed = lastChanged(record);
  const images = record.images.map((i) => ({
    title: i.title, file: mediaUrl(at.baseUrl, i.file), href: recordHref(at, 'images', i.id),
    author: i.author.username, created: i.created, licence: pictureLicence(at, i),
  }));
  const kind = KIND_NAMES[f[F.type]] ?? 'Place';
  const description = shortened([
    `${kind}${f[F.name] ? ` at ${f.address}` : ''}`,
    categories.map((c) => c.name).join(', ') || null,
    f.current === null ? null : `year ${f.current}`,
    f.site?.name ?? null,
    `${images.length} picture${images.length === 1 ? '' : 's'}, ${record.documents.length} piece${record.documents.length === 1 ? '' : 's'} of writing`,
  ].filter((x) => x !== null).join(' · '));
  const crumbs: Crumb[] = [homeCrumb(at), searchCrumb(at)];
  const jsonLd = graph(
    {
      '@type': schemaTypeOf(f[F.type]),
      '@id': self,
      url: self,
      name,
      description,
      address: postalAddress(f, at.site),
      ...(centre ? { geo: { '@type': 'GeoCoordinates', latitude: centre[1], longitude: centre[0] } } : {}),
      ...(images.length > 0 ? { image: images.map((i) => i.file) } : {}),
      ...(f.site ? { containedInPlace: { '@type': 'Place', name: f.site.name } } : {}),
      ...(categories.length > 0 ? { keywords: categories.map((c) => c.name).join(', ') } : {}),
      subjectOf: { '@type': 'WebPage', url: self, license: licenceOf(at.site), publisher: { '@type': 'Organization', name: at.site.publisher }, ...(changed ? { dateModified: changed } : {}) },
    },
    breadcrumbList(crumbs, { href: self, label: name }),
  );
  const mapHref = centre === null
    ? `${at.baseUrl}/#feature=${f.id}`
    : `${at.baseUrl}/#map=18/${centre[1].toFixed(6)}/${centre[0].toFixed(6)}&feature=${f.id}`;
  const around = record.surroundings;
  const ogcSelf = `${at.baseUrl}${LINKED_PATHS.ogcItem('features', f.id)}`;
  // Its pictures as a IIIF manifest, and side by side in Mirador.
  const iiif = images.length === 0 ? null : { manifest: manifestAlternate(`${at.baseUrl}${IIIF_PATHS.placeManifest(f.id)}`), compare: `${at.baseUrl}${IIIF_PATHS.compare(f.id)}` };
  return SITE_PAGES.render('feature', {
    page: page(at, {
      title: name === f.address ? name : `${name}, ${f.address}`,
      heading: name,
      description,
      canonical: self,
      alternates: [
        jsonAlternate(ogcSelf, 'GeoJSON (as JSON)'), { href: `${at.baseUrl}${API_PREFIX}features/${f.id}/`, type: CONTENT_TYPE_JSON, title: 'JSON (/api/v1/)' },
        ...(iiif === null ? [] : [iiif.manifest]),
      ],
      crumbs,
      og: { title: name, description, image: images[0]?.file ?? null },
      jsonLd: jsonForScript(jsonLd),
      kind: 'record',
    }),
    contribute: at.site.contributions
      ? [{ label: 'Add a picture', href: `${at.baseUrl}${CONTRIBUTE_PATHS.contribute(f.id, 'image')}` }, { label: 'Write about it', href: `${at.baseUrl}${CONTRIBUTE_PATHS.contribute(f.id, 'document')}` }, { label: 'Share a video link', href: `${at.baseUrl}${CONTRIBUTE_PATHS.contribute(f.id, 'media')}` }]
      : [],
    f: {
      address: f.address, name: f[F.name] || null, categories, year: f.current, site: f.site?.name ?? null, kind,
      street: f.street ? { name: f.street, href: `${at.baseUrl}${SITE_PATHS.search}?street=${encodeURIComponent(f.street)}` } : null,
      mapHref, geojsonHref: jsonAlternate(ogcSelf, '').href, apiHref: `${at.baseUrl}${API_PREFIX}features/${f.id}/`,
    },
    context: around === null || footprint === null ? null : drawContext(around.frame, footprint, around.neighbours, around.streets),
    contextCaption: `Where ${name} stands (in red) among its neighbours; north is up.`,
    nearby: around === null || footprint === null ? [] : nearbyBuildings(footprint, around.neighbours).map((b) => ({ ...b, href: recordHref(at, 'features', b.id) })),
    images,
    iiif,
    documents: record.documents.map((d) => ({
      id: d.id, title: d.title, author: d.author.username, created: d.created, lastEdited: d[D.lastEdited] !== d.created ? d[D.lastEdited] : null,
      href: recordHref(at, 'documents', d.id), html: sanitiseDocument(d.body, `d${d.id}`),
    })),
    media: record.media.map((m) => ({ title: m.title, author: m.author.username, url: safeExternal(m.url), href: recordHref(at, 'media', m.id) })),
    changed,
    citation: citationOf(at, name, self, changed),
    licence: at.site.licence,
  });
}

/** A media URL as a link: http(s) only (anything else is shown as no link target). */
function safeExternal(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '#';
}

/** A picture's deep zoom: its image service's info.json, the viewer's label and its script; null when the viewer is not built. */
interface Zoom { info: string; label: string; script: string }

function zoomOf(at: PageAt, row: ImageRow): Zoom | null {
  const assets = viewerAssets(at.baseUrl);
  if (assets === null) return null;
  return { info: `${at.baseUrl}${IIIF_PATHS.imageInfo(row.id)}`, label: `${row.title}: the picture to zoom into`, script: assets.picture };
}

export type Attachment = { collection: 'images'; row: ImageRow } | { collection: 'documents'; row: DocumentRow } | { collection: 'media'; row: MediaRow };

const ATTACHMENT_NAMES = { images: 'Picture', documents: 'Writing', media: 'Video' } as const;

/** `moderation`: the editor's panel shown above the page (render/contribute/contributions.ts), on a review only. */
export function htmlAttachment(at: PageAt, url: string, a: Attachment, moderation: { picture?: string | undefined } | null = null): string {
  const r = a.row;
  // A review previews a record not yet given its id: its own links are the review's, and its citation says where the address will go.
  const self = moderation === null ? recordHref(at, a.collection, r.id) : url;
  const featureHref = recordHref(at, 'features', r.feature.id);
  const featureLabel = featureName(r.feature);
  const facts: { label: string; value: string; href?: string | null }[] = [{ label: a.collection === 'images' ? 'Credit' : 'By', value: r.author.username }];
  let image: { file: string; title: string; description: string; zoom: Zoom | null } | null = null;
  let html: string | null = null;
  let link: string | null = null;
  let thing: Record<string, unknown>;
  let summary: string;
  const about = { '@type': schemaTypeOf(r.feature[F.type]), '@id': featureHref, name: featureLabel };
  if (a.collection === 'images') {
    const licence = pictureLicence(at, a.row);
    // A review's preview shows the upload plainly: it has no image service until it is published.
    const zoom = moderation === null ? zoomOf(at, a.row) : null;
    image = { file: moderation?.picture ?? mediaUrl(at.baseUrl, a.row.file), title: a.row.title, description: a.row.description, zoom };
    facts.push({ label: 'Made', value: a.row.created ?? 'Date not known' }, { label: 'Licence', value: licence.text, href: licence.url });
    summary = a.row.description || `A picture of ${featureLabel}, by ${r.author.username}${a.row.created ? `, ${a.row.created}` : ''}.`;
    thing = {
      '@type': 'ImageObject', contentUrl: image.file, name: r.title, ...(a.row.description ? { description: a.row.description } : {}),
      creator: { '@type': 'Person', name: r.author.username }, creditText: r.author.username, ...(a.row.created ? { dateCreated: a.row.created } : {}),
      ...(a.row.copyright ? { copyrightNotice: `© ${r.author.username}` } : { license: licenceOf(at.site) }), about,
    };
  } else if (a.collection === 'documents') {
    facts.push({ label: 'Written', value: a.row.created }, { label: 'Last edited', value: a.row[D.lastEdited] }, { label: 'Licence', value: at.site.licence.name, href: at.site.licence.url });
    html = sanitiseDocument(a.row.body, `d${a.row.id}`);
    summary = `${r.title}: writing about ${featureLabel} by ${r.author.username}, ${a.row.created}.`;
    thing = {
      '@type': 'Article', headline: r.title, author: { '@type': 'Person', name: r.author.username },
      dateCreated: a.row.created, datePublished: a.row.created, dateModified: a.row[D.lastEdited], license: licenceOf(at.site), about,
    };
  } else {
    link = safeExternal(a.row.url);
    summary = `${r.title}: a video of ${featureLabel}, shared by ${r.author.username}.`;
    thing = { '@type': 'VideoObject', name: r.title, url: link === '#' ? undefined : link, author: { '@type': 'Person', name: r.author.username }, about };
  }
  const crumbs: Crumb[] = [homeCrumb(at), searchCrumb(at), { href: featureHref, label: featureLabel }];
  const kindName = ATTACHMENT_NAMES[a.collection];
  const manifest = moderation === null && a.collection === 'images' ? manifestAlternate(`${at.baseUrl}${IIIF_PATHS.pictureManifest(r.id)}`) : null;
  return SITE_PAGES.render('attachment', {
    page: page(at, {
      title: `${r.title} (${featureLabel})`, heading: r.title, canonical: self, description: shortened(summary),
      alternates: moderation !== null ? [] : [
        jsonAlternate(`${at.baseUrl}${LINKED_PATHS.ogcItem(a.collection, r.id)}`, 'GeoJSON (as JSON)'), { href: `${at.baseUrl}${API_PREFIX}${a.collection}/${r.id}/`, type: CONTENT_TYPE_JSON, title: 'JSON (/api/v1/)' },
        ...(manifest === null ? [] : [manifest]),
      ],
      crumbs,
      og: { title: r.title, description: shortened(summary), image: image?.file ?? null },
      jsonLd: jsonForScript(graph({ '@id': self, url: self, ...thing }, breadcrumbList(crumbs, { href: self, label: r.title }))),
      kind: 'record',
    }),
    kindName, featureHref, featureLabel, image, facts, html, url: link, moderation,
    manifest,
    citation: citationOf(at, `${r.title} (${featureLabel})`, moderation === null ? self : '[its address, given when it is published]', a.collection === 'documents' ? a.row[D.lastEdited] : null),
  });
}
