// /ogc/collections and /ogc/collections/{id}: each collection's title, extent and links
// (items as GeoJSON, the whole collection as one download per format (`enclosure`), queryables, the item schema as `describedby`, and the schema of an item
// as a GeoJSON Feature as `describedBy`, the one GDAL 3.6 reads).
import { CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON, CONTENT_TYPE_SCHEMA } from '../../constants.js';
import { DOWNLOAD_FORMATS, DOWNLOAD_FORMAT_INFO } from '../../ogc/downloads.js';
import { OFFERED_CRS_URIS } from '../../ogc/crs.js';
import { CRS84, OGC_PATHS, QUERYABLES_REL, TILED_COLLECTION, TILESETS_VECTOR_REL } from '../../ogc/paths.js';
import { CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../catalogue/collections.js';
import { COLLECTION_TITLES, TEMPORAL_PROPERTY } from '../../ogc/properties.js';
import type { CollectionExtent } from '../../store/ogc-plans.js';
import { link, type Link } from './links.js';

/** The whole world, for a collection with no records yet (an extent is required). */
type Bbox = [number, number, number, number];
const WORLD: Bbox = [-180, -90, 180, 90];

export interface CollectionBody {
  id: CatalogueCollection;
  title: string;
  description: string;
  links: Link[];
  extent: { spatial: { bbox: [Bbox, ...Bbox[]]; crs: string }; temporal?: { interval: [string | null, string | null][]; trs: string } };
  itemType: 'feature';
  crs: string[];
  storageCrs: string;
}

export function renderCollection(baseUrl: string, id: CatalogueCollection, extent: CollectionExtent): CollectionBody {
  const url = (path: string) => `${baseUrl}${path}`;
  const body: CollectionBody = {
    id,
    ...COLLECTION_TITLES[id],
    links: [
      link(url(OGC_PATHS.collection(id)), 'self', CONTENT_TYPE_JSON, 'This collection'),
      link(`${url(OGC_PATHS.collection(id))}?f=html`, 'alternate', 'text/html', 'This collection as a web page'),
      link(url(OGC_PATHS.items(id)), 'items', CONTENT_TYPE_GEOJSON, 'Its items as GeoJSON'),
      link(url(OGC_PATHS.queryables(id)), QUERYABLES_REL, CONTENT_TYPE_SCHEMA, 'What its items can be filtered by'),
      link(url(OGC_PATHS.schema(id)), 'describedby', CONTENT_TYPE_SCHEMA, 'The schema of its items'),
      // GDAL 3.6 follows only rel `describedBy` spelt so, and reads only a GeoJSON Feature's schema.
      link(url(OGC_PATHS.featureSchema(id)), 'describedBy', CONTENT_TYPE_SCHEMA, 'Its items as GeoJSON Features (for GDAL)'),
      link(url(OGC_PATHS.collections), 'collection', CONTENT_TYPE_JSON, 'Every collection'),
      // The whole collection as one file per format (the items path with f=…).
      ...DOWNLOAD_FORMATS.map((f) => link(`${url(OGC_PATHS.items(id))}?f=${f}`, 'enclosure', DOWNLOAD_FORMAT_INFO[f].type, `Every item, one download: ${DOWNLOAD_FORMAT_INFO[f].title}`)),
      ...(id === TILED_COLLECTION ? [link(url(OGC_PATHS.tilesets(id)), TILESETS_VECTOR_REL, CONTENT_TYPE_JSON, 'Its footprints as vector tiles (OGC API – Tiles)')] : []),
    ],
    extent: { spatial: { bbox: [extent.bbox ?? WORLD], crs: CRS84 } },
    itemType: 'feature',
    // OGC API – Features Part 2: every CRS offered (crs.ts), and the one footprints are stored in.
    crs: [...OFFERED_CRS_URIS],
    storageCrs: CRS84,
  };
  if (TEMPORAL_PROPERTY[id] !== null) {
    body.extent.temporal = { interval: [extent.interval ?? [null, null]], trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian' };
  }
  return body;
}

export function renderCollections(baseUrl: string, extents: Readonly<Record<CatalogueCollection, CollectionExtent>>): { links: Link[]; collections: CollectionBody[] } {
  return {
    links: [
      link(`${baseUrl}${OGC_PATHS.collections}`, 'self', CONTENT_TYPE_JSON, 'This document'),
      link(`${baseUrl}${OGC_PATHS.collections}?f=html`, 'alternate', 'text/html', 'This document as a web page'),
      link(`${baseUrl}${OGC_PATHS.landing}`, 'root', CONTENT_TYPE_JSON, 'The landing page'),
    ],
    collections: CATALOGUE_COLLECTIONS.map((id) => renderCollection(baseUrl, id, extents[id])),
  };
}
