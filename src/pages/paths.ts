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
