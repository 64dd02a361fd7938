// FlatGeobuf through the flatgeobuf package's own builders: the magic bytes and a header
// (the collection's name, the CRS's EPSG code, one column per property, the feature count, no spatial
// index, so that it can be written as rows arrive), then each feature size-prefixed.
// `flatbuffers` is flatgeobuf's own dependency (the header is built with its Builder).
import * as flatbuffers from 'flatbuffers';
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js';
import type { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js';
import { Column } from 'flatgeobuf/lib/mjs/flat-geobuf/column.js';
import { Crs } from 'flatgeobuf/lib/mjs/flat-geobuf/crs.js';
import { Header } from 'flatgeobuf/lib/mjs/flat-geobuf/header.js';
import { buildFeature, type IProperties } from 'flatgeobuf/lib/mjs/generic/feature.js';
import { parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import type { OgcProperty, PropertyType } from '../../../ogc/properties.js';
import type { WrittenItem } from './encode.js';

const MAGIC = Buffer.from([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00]);

const COLUMN_TYPES: Readonly<Record<PropertyType, ColumnType>> = {
  integer: ColumnType.Long,
  boolean: ColumnType.Bool,
  // FlatGeobuf has no date type: an ISO 8601 date in a DateTime column.
  date: ColumnType.DateTime,
  string: ColumnType.String,
};

export function flatGeobufHeader(name: string, properties: readonly OgcProperty[], count: number, geometryType: GeometryType, epsg: number): { bytes: Buffer; meta: HeaderMeta } {
  const columns: ColumnMeta[] = properties.map((p) => ({
    name: p.name, type: COLUMN_TYPES[p.type], title: p.title, description: null, width: -1, precision: -1, scale: -1,
    nullable: p.nullable, unique: p.name === 'id', primary_key: p.name === 'id',
  }));
  const builder = new flatbuffers.Builder(1024);
  const columnOffsets = columns.map((c) => {
    const nameOffset = builder.createString(c.name);
    const titleOffset = c.title === null ? 0 : builder.createString(c.title);
    Column.startColumn(builder);
    Column.addName(builder, nameOffset);
    Column.addType(builder, c.type);
    if (titleOffset) Column.addTitle(builder, titleOffset);
    Column.addNullable(builder, c.nullable);
    Column.addUnique(builder, c.unique);
    Column.addPrimaryKey(builder, c.primary_key);
    return Column.endColumn(builder);
  });
  const columnsVector = Header.createColumnsVector(builder, columnOffsets);
  const nameOffset = builder.createString(name);
  Crs.startCrs(builder);
  Crs.addCode(builder, epsg);
  const crsOffset = Crs.endCrs(builder);
  Header.startHeader(builder);
  Header.addName(builder, nameOffset);
  Header.addGeometryType(builder, geometryType);
  Header.addColumns(builder, columnsVector);
  Header.addFeaturesCount(builder, BigInt(Math.max(count, 0)));
  Header.addIndexNodeSize(builder, 0);
  Header.addCrs(builder, crsOffset);
  builder.finishSizePrefixed(Header.endHeader(builder));
  const meta: HeaderMeta = {
    geometryType, columns, envelope: null, featuresCount: count, indexNodeSize: 0, crs: null, title: null, description: null, metadata: null,
  };
  return { bytes: Buffer.concat([MAGIC, builder.asUint8Array()]), meta };
}

export function flatGeobufFeature(item: WrittenItem, meta: HeaderMeta): Buffer {
  const geometry = parseGeometry(item.geometry ?? { type: 'MultiPolygon', coordinates: [] });
  const properties: IProperties = {};
  for (const column of meta.columns ?? []) properties[column.name] = item.properties[column.name] ?? null;
  const bytes = buildFeature(geometry, properties, meta);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
