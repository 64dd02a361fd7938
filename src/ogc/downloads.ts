// The whole-result downloads of the OGC face, declared once: the items path answers them
// for `f=` (http/ogc/downloads.ts), each collection links them as `rel=enclosure`
// (render/ogc/collections.ts), and `export --format` writes the same files (cli/export.ts).
import type { CatalogueCollection } from '../catalogue/collections.js';

export const DOWNLOAD_FORMATS = ['geojson', 'csv', 'fgb', 'gpkg'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export interface DownloadFormatInfo {
  /** The Content-Type of the answer. */
  readonly type: string;
  /** The file name's extension (Content-Disposition: `<collection>.<extension>`). */
  readonly extension: string;
  readonly title: string;
}

export const DOWNLOAD_FORMAT_INFO: Readonly<Record<DownloadFormat, DownloadFormatInfo>> = {
  geojson: { type: 'application/geo+json', extension: 'geojson', title: 'GeoJSON (one FeatureCollection)' },
  csv: { type: 'text/csv; charset=utf-8', extension: 'csv', title: 'CSV (the properties, the footprint as WKT, and lon and lat of a point inside it)' },
  fgb: { type: 'application/flatgeobuf', extension: 'fgb', title: 'FlatGeobuf' },
  gpkg: { type: 'application/geopackage+sqlite3', extension: 'gpkg', title: 'GeoPackage' },
};

export function isDownloadFormat(value: string): value is DownloadFormat {
  return (DOWNLOAD_FORMATS as readonly string[]).includes(value);
}

export function downloadFileName(collection: CatalogueCollection, format: DownloadFormat): string {
  return `${collection}.${DOWNLOAD_FORMAT_INFO[format].extension}`;
}
