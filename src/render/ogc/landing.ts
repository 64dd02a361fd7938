// The landing page and the conformance declaration of /ogc/.
import { CONTENT_TYPE_JSON, CONTENT_TYPE_OPENAPI_30 } from '../../constants.js';
import { CONFORMANCE_CLASSES, OGC_PATHS, TILING_SCHEMES_REL } from '../../ogc/paths.js';
import { link, type Link } from './links.js';

export const OGC_TITLE = 'heritage-api: OGC API – Features';

export function renderLanding(baseUrl: string): { title: string; description: string; links: Link[] } {
  return {
    title: OGC_TITLE,
    description: 'The catalogue of mapped historic buildings and places, with its images, documents and media, for GIS clients (QGIS, GDAL, ArcGIS): the same records as /api/v1/, as flat, typed GeoJSON features.',
    links: [
      link(`${baseUrl}${OGC_PATHS.landing}`, 'self', CONTENT_TYPE_JSON, 'This document'),
      link(`${baseUrl}${OGC_PATHS.landing}?f=html`, 'alternate', 'text/html', 'This document as a web page'),
      link(`${baseUrl}${OGC_PATHS.api}`, 'service-desc', CONTENT_TYPE_OPENAPI_30, 'The API definition (OpenAPI 3.0)'),
      link(`${baseUrl}${OGC_PATHS.docs}`, 'service-doc', 'text/html', 'The API reference, to read'),
      link(`${baseUrl}${OGC_PATHS.conformance}`, 'conformance', CONTENT_TYPE_JSON, 'The conformance classes this server meets'),
      link(`${baseUrl}${OGC_PATHS.collections}`, 'data', CONTENT_TYPE_JSON, 'The collections'),
      link(`${baseUrl}${OGC_PATHS.tileMatrixSets}`, TILING_SCHEMES_REL, CONTENT_TYPE_JSON, 'The tile matrix sets of the tiles'),
    ],
  };
}

export function renderConformance(): { conformsTo: readonly string[] } {
  return { conformsTo: CONFORMANCE_CLASSES };
}
