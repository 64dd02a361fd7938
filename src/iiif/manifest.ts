// IIIF Presentation API 3.0 documents (https://iiif.io/api/presentation/3.0/): a building's
// manifest (its published pictures as canvases, in the record's order), a picture's own, and
// the catalogue as a Collection of pages of buildings' manifests. Each canvas paints its
// picture's Image API service (info.ts) at `full/max`, and carries the picture's credit, date
// and licence as the record page shows them. Pure: rows and sizes in, JSON out.
import { API_PREFIX, CONTENT_TYPE_IIIF_PRESENTATION } from '../constants.js';
import { IIIF_PATHS } from '../pages/paths.js';
import type { Site } from '../pages/site.js';
import { SITE_PATHS } from '../site/paths.js';
import { maxSize, type ImageLimits, type PixelSize } from './image-request.js';
import { listedSizes } from './info.js';

export const PRESENTATION_CONTEXT = 'http://iiif.io/api/presentation/3/context.json';
export const PRESENTATION_JSON_LD = CONTENT_TYPE_IIIF_PRESENTATION;
/** Buildings' manifests listed per page of the catalogue's collection. */
export const COLLECTION_PAGE_SIZE = 1000;

export interface ManifestPicture {
  id: number;
  title: string;
  description: string;
  author: string;
  created: string | null;
  copyright: boolean;
  size: PixelSize;
}

export interface ManifestBuilding {
  id: number;
  /** Its name, or its address when it has none. */
  label: string;
  address: string;
}

export interface ManifestContext {
  baseUrl: string;
  site: Site;
  limits: ImageLimits;
}

type Json = Record<string, unknown>;
const en = (text: string) => ({ en: [text] });
/** RightsStatements.org's In Copyright: a picture marked as under copyright. */
export const IN_COPYRIGHT = 'http://rightsstatements.org/vocab/InC/1.0/';

/**
 * A `rights` value: a Creative Commons or RightsStatements.org URI, written with http: as the
 * specification's validator requires; null when the licence is neither (it is then said in the
 * requiredStatement alone).
 */
export function rightsUri(url: string | null): string | null {
  if (url === null) return null;
  const match = /^https?:\/\/(creativecommons\.org\/(?:licenses|publicdomain)\/|rightsstatements\.org\/vocab\/)(.*)$/.exec(url);
  return match === null ? null : `http://${match[1]}${match[2]}`;
}

/** The licence a picture is under, in words and as a URI, as its record page says it. */
function licenceOf(site: Site, picture: ManifestPicture): { text: string; rights: string | null } {
  if (picture.copyright) return { text: `Under copyright, © ${picture.author}: ask before reusing it`, rights: IN_COPYRIGHT };
  return { text: site.licence.name, rights: rightsUri(site.licence.url) };
}

function canvasOf(at: ManifestContext, picture: ManifestPicture): Json {
  // A canvas's id has no fragment (the specification's rule: #xywh= points into it).
  const canvasId = `${at.baseUrl}${IIIF_PATHS.pictureCanvas(picture.id)}`;
  const service = `${at.baseUrl}${IIIF_PATHS.imageService(picture.id)}`;
  const served = maxSize(picture.size, at.limits);
  const licence = licenceOf(at.site, picture);
  const credit = `${picture.author}${picture.created ? `, ${picture.created}` : ''}. ${licence.text}.`;
  return {
    id: canvasId,
    type: 'Canvas',
    label: en(picture.title),
    width: picture.size.width,
    height: picture.size.height,
    ...(picture.description ? { summary: en(picture.description) } : {}),
    metadata: [
      { label: en('Credit'), value: en(picture.author) },
      { label: en('Made'), value: en(picture.created ?? 'Date not known') },
      { label: en('Licence'), value: en(licence.text) },
    ],
    requiredStatement: { label: en('Credit'), value: en(credit) },
    ...(licence.rights === null ? {} : { rights: licence.rights }),
    homepage: [{ id: `${at.baseUrl}${SITE_PATHS.record('images', picture.id)}`, type: 'Text', label: en(picture.title), format: 'text/html' }],
    seeAlso: [{ id: `${at.baseUrl}${API_PREFIX}images/${picture.id}/`, type: 'Dataset', label: en('The picture\'s record (JSON)'), format: 'application/json' }],
    items: [{
      id: `${canvasId}/page`,
      type: 'AnnotationPage',
      items: [{
        id: `${canvasId}/painting`,
        type: 'Annotation',
        motivation: 'painting',
        target: canvasId,
        body: {
          id: `${service}/full/max/0/default.jpg`, type: 'Image', label: en(picture.title), format: 'image/jpeg', width: served.width, height: served.height,
          service: [{ id: service, type: 'ImageService3', profile: 'level2' }],
        },
      }],
    }],
  };
}

/** The side a thumbnail fits in: a collection's grid, a viewer's strip. */
const THUMBNAIL_SIDE = 400;

/** A picture small, at one of the sizes its info.json lists (so any level-0 client may ask for it too). */
function thumbnailOf(at: ManifestContext, picture: ManifestPicture): Json[] {
  const service = `${at.baseUrl}${IIIF_PATHS.imageService(picture.id)}`;
  const sizes = listedSizes(picture.size, at.limits);
  const size = sizes.filter((s) => s.width <= THUMBNAIL_SIDE && s.height <= THUMBNAIL_SIDE).at(-1) ?? sizes[0];
  if (size === undefined) return [];
  return [{
    id: `${service}/full/${size.width},${size.height}/0/default.jpg`, type: 'Image', format: 'image/jpeg', width: size.width, height: size.height,
    service: [{ id: service, type: 'ImageService3', profile: 'level2' }],
  }];
}

function attribution(site: Site): Json {
  return { label: en('Attribution'), value: en(`${site.title}, published by ${site.publisher}. ${site.licence.name}.`) };
}

function provider(at: ManifestContext): Json[] {
  return [{ id: `${at.baseUrl}${SITE_PATHS.about}`, type: 'Agent', label: en(at.site.publisher), homepage: [{ id: `${at.baseUrl}${SITE_PATHS.about}`, type: 'Text', label: en(at.site.title), format: 'text/html' }] }];
}

/** A building's pictures, in its record's order, as one manifest. */
export function buildingManifest(at: ManifestContext, building: ManifestBuilding, pictures: readonly ManifestPicture[]): Json {
  const rights = rightsUri(at.site.licence.url);
  const count = `${pictures.length} picture${pictures.length === 1 ? '' : 's'}`;
  return {
    '@context': PRESENTATION_CONTEXT,
    id: `${at.baseUrl}${IIIF_PATHS.placeManifest(building.id)}`,
    type: 'Manifest',
    label: en(building.label),
    summary: en(`${building.label === building.address ? '' : `${building.address}. `}${count} from ${at.site.title}.`),
    ...(pictures[0] === undefined ? {} : { thumbnail: thumbnailOf(at, pictures[0]) }),
    metadata: [{ label: en('Address'), value: en(building.address) }],
    requiredStatement: attribution(at.site),
    ...(rights === null ? {} : { rights }),
    provider: provider(at),
    homepage: [{ id: `${at.baseUrl}${SITE_PATHS.record('features', building.id)}`, type: 'Text', label: en(building.label), format: 'text/html' }],
    seeAlso: [{ id: `${at.baseUrl}${API_PREFIX}features/${building.id}/`, type: 'Dataset', label: en('The building\'s record (JSON)'), format: 'application/json' }],
    partOf: [{ id: `${at.baseUrl}${IIIF_PATHS.collection}`, type: 'Collection', label: en(at.site.title) }],
    items: pictures.map((p) => canvasOf(at, p)),
  };
}

/** One picture as a manifest of one canvas, part of its building's. */
export function pictureManifest(at: ManifestContext, building: ManifestBuilding, picture: ManifestPicture): Json {
  const canvas = canvasOf(at, picture);
  const { id: _canvasId, type: _type, items: _items, width: _w, height: _h, ...described } = canvas;
  return {
    '@context': PRESENTATION_CONTEXT,
    id: `${at.baseUrl}${IIIF_PATHS.pictureManifest(picture.id)}`,
    type: 'Manifest',
    ...described,
    summary: en(picture.description || `A picture of ${building.label}, by ${picture.author}${picture.created ? `, ${picture.created}` : ''}.`),
    thumbnail: thumbnailOf(at, picture),
    provider: provider(at),
    items: [canvas],
  };
}

/** The catalogue's collection: a page of buildings' manifests per COLLECTION_PAGE_SIZE buildings with pictures. */
export function catalogueCollection(at: ManifestContext, buildings: number): Json {
  const pages = Math.ceil(buildings / COLLECTION_PAGE_SIZE);
  return {
    '@context': PRESENTATION_CONTEXT,
    id: `${at.baseUrl}${IIIF_PATHS.collection}`,
    type: 'Collection',
    label: en(at.site.title),
    summary: en(`The pictures of ${buildings} building${buildings === 1 ? '' : 's'} and places of ${at.site.title}, a manifest each, ${COLLECTION_PAGE_SIZE} to a page.`),
    requiredStatement: attribution(at.site),
    provider: provider(at),
    homepage: [{ id: `${at.baseUrl}${SITE_PATHS.about}`, type: 'Text', label: en(at.site.title), format: 'text/html' }],
    items: Array.from({ length: pages }, (_, i) => ({ id: `${at.baseUrl}${IIIF_PATHS.collectionPage(i + 1)}`, type: 'Collection', label: en(pageLabel(i + 1, buildings)) })),
  };
}

function pageLabel(page: number, buildings: number): string {
  const from = (page - 1) * COLLECTION_PAGE_SIZE + 1;
  return `Buildings ${from} to ${Math.min(buildings, page * COLLECTION_PAGE_SIZE)} of ${buildings}`;
}

/** A page of the catalogue's collection: its buildings' manifests, in id order. */
export function collectionPage(at: ManifestContext, page: number, buildings: number, listed: readonly ManifestBuilding[]): Json {
  return {
    '@context': PRESENTATION_CONTEXT,
    id: `${at.baseUrl}${IIIF_PATHS.collectionPage(page)}`,
    type: 'Collection',
    label: en(pageLabel(page, buildings)),
    summary: en(`${pageLabel(page, buildings)} with pictures in ${at.site.title}, a manifest each, in the order of their ids.`),
    provider: provider(at),
    partOf: [{ id: `${at.baseUrl}${IIIF_PATHS.collection}`, type: 'Collection', label: en(at.site.title) }],
    items: listed.map((b) => ({ id: `${at.baseUrl}${IIIF_PATHS.placeManifest(b.id)}`, type: 'Manifest', label: en(b.label) })),
  };
}
