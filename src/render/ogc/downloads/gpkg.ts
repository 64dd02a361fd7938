// GeoPackage 1.3 written with better-sqlite3 into a temporary file as the batches arrive
// (memory stays bounded: rows go to disk), then streamed and deleted. The required tables
// (gpkg_spatial_ref_sys with the CRS asked for (ogc/crs.ts: EPSG:4326 for CRS84), gpkg_contents, gpkg_geometry_columns), one feature
// table named after the collection: `fid` (the catalogue id), `geom` (a GeoPackage
// geometry blob: the GP header with its envelope, then little-endian ISO WKB), and one
// column per property. No R-tree index (optional; GDAL and QGIS read the file without it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { MultiPolygon } from '../../../catalogue/format.js';
import { COLLECTION_TITLES, type PropertyType } from '../../../ogc/properties.js';
import { downloadProperties, writtenItem, type DownloadSource } from './encode.js';
import { multiPolygonWkb } from '../../../catalogue/wkb.js';
import { envelopeOf } from './geometry.js';
import { widened } from '../../../search/box.js';


const SQL_TYPES: Readonly<Record<PropertyType, string>> = { integer: 'INTEGER', boolean: 'BOOLEAN', date: 'DATE', string: 'TEXT' };

/** A GeoPackage geometry blob: `GP`, version 0, flags (little-endian, xy envelope), srs_id, envelope, WKB. */
export function geoPackageGeometry(geometry: MultiPolygon, srsId: number): Buffer {
  const envelope = envelopeOf(geometry);
  const head = Buffer.alloc(envelope === null ? 8 : 40);
  head.write('GP', 0, 'latin1');
  head.writeUInt8(0, 2);
  // bit 0: little-endian; bits 1-3: envelope [minx, maxx, miny, maxy] (1) or none (0); bit 4: empty.
  head.writeUInt8(envelope === null ? 0b10001 : 0b00011, 3);
  head.writeInt32LE(srsId, 4);
  if (envelope !== null) {
    const [minX, minY, maxX, maxY] = envelope;
    [minX, maxX, minY, maxY].forEach((v, i) => head.writeDoubleLE(v, 8 + 8 * i));
  }
  return Buffer.concat([head, multiPolygonWkb(geometry)]);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Writes the whole file at `file` (a new name: the caller removes it, or gives it its place). */
export async function writeGeoPackage(source: DownloadSource, file: string): Promise<void> {
  const db = new Database(file);
  try {
    // A new file nobody reads until it is whole: the journal in memory (OFF, which would be
    // less, is refused in better-sqlite3's defensive mode, which kept a journal file on disk).
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    // Rows are appended, never read back: better-sqlite3's 16 MB page cache would only hold memory.
    db.pragma('cache_size = -2000');
    db.pragma('application_id = 1196444487'); // 'GPKG'
    db.pragma('user_version = 10300');
    const table = source.collection;
    const properties = downloadProperties(source.collection, source.options);
    db.exec(`
      CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
        organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
        description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
        CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
      CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
        srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
        CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
        CONSTRAINT uk_gc_table_name UNIQUE (table_name),
        CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
        CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
      CREATE TABLE ${quote(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom MULTIPOLYGON${properties
        .map((p) => `, ${quote(p.name)} ${SQL_TYPES[p.type]}${p.nullable ? '' : ' NOT NULL'}`)
        .join('')});
    `);
    const srs = db.prepare('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
    srs.run('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system');
    srs.run('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system');
    const { crs } = source.options;
    srs.run(crs.srsName, crs.epsg, 'EPSG', crs.epsg, crs.definition, crs.description);
    const { title, description } = COLLECTION_TITLES[source.collection];
    db.prepare('INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?, ?, ?, ?, ?)').run(table, 'features', title, description, crs.epsg);
    db.prepare('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, 0, 0)').run(table, 'geom', 'MULTIPOLYGON', crs.epsg);
    const columns = ['fid', 'geom', ...properties.map((p) => p.name)];
    const insert = db.prepare(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    // Each batch's envelope, widened batch by batch into the table's.
    const insertBatch = db.transaction((items: ReturnType<typeof writtenItem>[]): Envelope | null => {
      let box: Envelope | null = null;
      for (const item of items) {
        const values = properties.map((p) => {
          const value = item.properties[p.name] ?? null;
          return typeof value === 'boolean' ? (value ? 1 : 0) : value;
        });
        insert.run(item.id, item.geometry === null ? null : geoPackageGeometry(item.geometry, crs.epsg), ...values);
        const e = item.geometry === null ? null : envelopeOf(item.geometry);
        box = widened(box, e);
      }
      return box;
    });
    let extent: Envelope | null = null;
    for await (const rows of source.batches) extent = widened(extent, insertBatch(rows.map((row) => writtenItem(row, source))));
    if (extent !== null) db.prepare('UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?').run(...extent, table);
  } finally {
    db.close();
  }
}

type Envelope = [number, number, number, number];

/** The file's bytes once it is written (nothing leaves before), its folder removed afterwards. */
export async function* geoPackageChunks(source: DownloadSource): AsyncGenerator<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-gpkg-'));
  try {
    const file = path.join(dir, `${source.collection}.gpkg`);
    await writeGeoPackage(source, file);
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
