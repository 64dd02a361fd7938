// The paths a page of one face links to in another's, declared in the layer every face's
// pages read, so a link needs no import of another face: the site's pages link to the OGC
// items here, and the OGC face's own path table (ogc/paths.ts) takes these entries from here.
// The site's paths (site/paths.ts) are a table any face's pages may read.
import type { CatalogueCollection } from '../catalogue/collections.js';
import { OGC_PREFIX } from '../constants.js';

export const LINKED_PATHS = {
  /** The style sheet of every page for people, under /ogc/, where the first pages were. */
  style: `${OGC_PREFIX}style.css`,
  ogcLanding: OGC_PREFIX,
  ogcDocs: `${OGC_PREFIX}docs/`,
  ogcItems: (id: CatalogueCollection | ':collection') => `${OGC_PREFIX}collections/${id}/items`,
  ogcItem: (id: CatalogueCollection | ':collection', fid: number | ':featureId') => `${OGC_PREFIX}collections/${id}/items/${fid}`,
} as const;

/**
 * The IIIF face (issue 49): each picture's Image API service (its identifier the image
 * record's id), the Presentation manifests of a building and of a picture, the catalogue's
 * collection (a page of buildings each), and the viewers' files and pages. The site's pages
 * link here; the IIIF routes take their patterns from here.
 */
export const IIIF_PATHS = {
  prefix: '/iiif/',
  /** The Image API's prefix: every picture's service and renders are under it. */
  imagePrefix: '/iiif/3/',
  imageService: (id: number | ':id') => `/iiif/3/${id}`,
  imageInfo: (id: number | ':id') => `/iiif/3/${id}/info.json`,
  placeManifest: (id: number | ':id') => `/iiif/places/${id}/manifest.json`,
  pictureManifest: (id: number | ':id') => `/iiif/pictures/${id}/manifest.json`,
  /** A picture's canvas: an identifier within the manifests, not an address that answers. */
  pictureCanvas: (id: number) => `/iiif/pictures/${id}/canvas`,
  collection: '/iiif/collection.json',
  collectionPage: (page: number | ':page') => `/iiif/collection/${page}.json`,
  /** A building's pictures side by side in Mirador. */
  compare: (id: number | ':id') => `/iiif/places/${id}/compare/`,
  /** The viewers' scripts and style, served from node_modules and the web build. */
  viewerAsset: (file: string) => `/iiif/viewer/${file}`,
} as const;
