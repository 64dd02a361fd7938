// The whole result of an items query as a file, written batch by batch as the store reads
// them (bounded memory): GeoJSON and CSV as text, FlatGeobuf as size-prefixed features
// after its header. GeoPackage is a SQLite file: gpkg.ts builds it in a temporary file.
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import type { MultiPolygon } from '../../../catalogue/format.js';
import type { DownloadFormat } from '../../../ogc/downloads.js';
import type { CatalogueCollection } from '../../../catalogue/collections.js';
import { propertiesOf, type OgcProperty } from '../../../ogc/properties.js';
import { footprintIn, rounder } from '../../../ogc/crs.js';
import type { ItemRow, KeyValue } from '../../../store/ogc-plans.js';
import { itemText, renderItem, type ItemOptions } from '../items.js';
import { flatGeobufFeature, flatGeobufHeader } from './fgb.js';
import { multiPolygonWkt, representativePoint } from './geometry.js';
import { geoPackageChunks } from './gpkg.js';

export interface DownloadSource {
  readonly collection: CatalogueCollection;
  /** Absolute base of the URL properties (api_url, file_url, thumbnail). */
  readonly baseUrl: string;
  readonly options: ItemOptions;
  /** How many items the batches hold (FlatGeobuf's header says it). */
  readonly numberMatched: number;
  readonly batches: AsyncIterable<readonly ItemRow[]>;
}

/** The properties written, in declaration order. */
export function downloadProperties(collection: CatalogueCollection, options: ItemOptions): readonly OgcProperty[] {
  return propertiesOf(collection).filter((p) => options.properties === null || options.properties.includes(p.name));
}

export function encodeDownload(format: DownloadFormat, source: DownloadSource): AsyncGenerator<Buffer> {
  switch (format) {
    case 'geojson': return geoJsonChunks(source);
    case 'csv': return csvChunks(source);
    case 'fgb': return flatGeobufChunks(source);
    case 'gpkg': return geoPackageChunks(source);
  }
}

/** A row as written: its properties (made ones filled in) and its footprint, parsed, in the CRS asked for, x east and y north (as files hold them). */
export interface WrittenItem {
  readonly id: number;
  readonly properties: Readonly<Record<string, KeyValue>>;
  readonly geometry: MultiPolygon | null;
}

export function writtenItem(row: ItemRow, source: DownloadSource): WrittenItem {
  const { options } = source;
  const item = renderItem(row, source.baseUrl, source.collection, { ...options, skipGeometry: true });
  const geometry = options.skipGeometry || row.geometry === null ? null : (footprintIn(options.crs, row.geometry.text, 'east-north') as MultiPolygon);
  return { id: row.id, properties: item.properties, geometry };
}

async function* geoJsonChunks(source: DownloadSource): AsyncGenerator<Buffer> {
  yield Buffer.from(`{"type":"FeatureCollection","name":${JSON.stringify(source.collection)},"numberMatched":${source.numberMatched},"features":[`);
  let first = true;
  for await (const rows of source.batches) {
    const features = rows.map((row) => itemText(renderItem(row, source.baseUrl, source.collection, source.options))).join(',');
    yield Buffer.from(`${first ? '' : ','}${features}`);
    first = false;
  }
  yield Buffer.from(']}\n');
}

/**
 * Text a spreadsheet would read as a formula (OWASP's CSV injection list): a leading =, +, -,
 * @, tab or carriage return. Numbers are not text: a negative number stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * RFC 4180: quoted when it holds a comma, a quote or a line break (quotes doubled); null is
 * empty. Text that would start a formula gets a leading `'` and is quoted, as OWASP advises,
 * so that a spreadsheet reads it as text rather than running it.
 */
export function csvField(value: KeyValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && FORMULA_START.test(value)) return quoted(`'${value}`);
  const text = String(value);
  return /[",\r\n]/.test(text) ? quoted(text) : text;
}

async function* csvChunks(source: DownloadSource): AsyncGenerator<Buffer> {
  const properties = downloadProperties(source.collection, source.options);
  const geometry = !source.options.skipGeometry;
  const { crs } = source.options;
  const header = [...properties.map((p) => p.name), ...(geometry ? ['wkt', ...crs.pointColumns] : [])];
  const round = rounder(crs.decimals);
  yield Buffer.from(`${header.join(',')}\r\n`);
  for await (const rows of source.batches) {
    const lines = rows.map((row) => {
      const item = writtenItem(row, source);
      const fields = properties.map((p) => csvField(item.properties[p.name]));
      if (geometry) {
        const point = item.geometry === null ? null : representativePoint(item.geometry);
        const [x, y] = point === null ? [null, null] : point.map(round);
        fields.push(item.geometry === null ? '' : csvField(multiPolygonWkt(item.geometry)), csvField(x), csvField(y));
      }
      return `${fields.join(',')}\r\n`;
    });
    yield Buffer.from(lines.join(''));
  }
}

async function* flatGeobufChunks(source: DownloadSource): AsyncGenerator<Buffer> {
  const properties = downloadProperties(source.collection, source.options);
  const header = flatGeobufHeader(source.collection, properties, source.numberMatched, GeometryType.MultiPolygon, source.options.crs.epsg);
  yield header.bytes;
  for await (const rows of source.batches) {
    yield Buffer.concat(rows.map((row) => flatGeobufFeature(writtenItem(row, source), header.meta)));
  }
}
