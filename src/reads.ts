// The work registry: every declared read and job a worker thread may be asked to run, by
// name, and the errors that cross back as themselves. The composition root's (beside
// app.ts): it imports the faces, so that the executor (src/work/) imports none; a worker
// thread imports this module by the URL given to it (WORK_REGISTRY.module).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CQL2_CROSSING, downloadJob, geoPackageJob } from './http/ogc/worker-jobs.js';
import { PACKAGE_ROOT } from './package-files.js';
import { getReads, linkedPicturesRead, listReads } from './store/api/api-reads.js';
import { publicPictureRead } from './store/contributions/picture-reads.js';
import { picturedBuildingsRead } from './store/iiif/iiif-reads.js';
import { boxCandidatesRead, buildingLabelsRead, viewMatchesRead, overviewRead, streetLabelsRead } from './store/map/map-reads.js';
import { boxIndexJob } from './store/map-view-reads.js';
import { collectionExtentRead, itemIdsRead, itemRead, itemsRead } from './store/ogc/ogc-reads.js';
import { searchCardsRead, yearCountsRead } from './store/site/site-reads.js';
import { tileRead } from './store/tiles/tile-reads.js';
import type { WorkRegistry } from './work/reads.js';

/**
 * This module as a worker imports it: from source (tsx), this file; compiled, dist/'s (the
 * tests' bundle in dist-test/ is beside it), as pool.ts finds the worker's own module.
 */
function registryModule(): string {
  if (import.meta.url.endsWith('.ts')) return import.meta.url;
  return pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'reads.js')).href;
}

export const WORK_REGISTRY: WorkRegistry = {
  module: registryModule(),
  reads: [
    ...Object.values(listReads),
    ...Object.values(getReads),
    linkedPicturesRead,
    itemsRead,
    itemRead,
    itemIdsRead,
    collectionExtentRead,
    viewMatchesRead,
    streetLabelsRead,
    buildingLabelsRead,
    overviewRead,
    boxCandidatesRead,
    yearCountsRead,
    searchCardsRead,
    tileRead,
    publicPictureRead,
    picturedBuildingsRead,
  ],
  jobs: [downloadJob, geoPackageJob, boxIndexJob],
  errors: [CQL2_CROSSING],
};
