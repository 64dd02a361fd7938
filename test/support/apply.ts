// What the apply tests share: a change file applied to a database in process, a store's
// catalogue read back, and the expected catalogue computed by editing the old one's JSON.
import { sqlOn } from './sql-on.js';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { CATALOGUE_LISTS, type ListName } from '../../src/catalogue/lists.js';
import { ChangeValidator } from '../../src/changes/validate.js';
import { loadConfig, type RawSettings } from '../../src/config.js';
import type { ApplyOptions, ApplyOutcome } from '../../src/store/apply/apply-changes.js';
import { openStore } from '../../src/store/open.js';

/** A change file as a test writes it: any JSON value. */
export type ChangeFileValue = Record<string, unknown>;

/** One for every apply of a test file, as the command line has one: compiling its schema costs about 0.1 s. */
const changeValidator = new ChangeValidator();

export async function applyTo(settings: RawSettings, file: ChangeFileValue, options: ApplyOptions = {}): Promise<ApplyOutcome> {
  const check = changeValidator.parseBytes(Buffer.from(JSON.stringify(file)));
  if (!check.ok) return check;
  const store = await openStore(loadConfig(settings, {}));
  try {
    return await store.applyChanges(check.changes, options);
  } finally {
    await store.close();
  }
}

export async function storedCatalogue(settings: RawSettings): Promise<Catalogue> {
  const store = await openStore(loadConfig(settings, {}));
  const catalogue: Record<string, unknown[]> = Object.fromEntries(CATALOGUE_LISTS.map((list) => [list, []]));
  try {
    for await (const batch of store.exportCatalogue()) catalogue[batch.list]!.push(...batch.records);
  } finally {
    await store.close();
  }
  return { format: 'heritage-catalogue/1', ...catalogue } as unknown as Catalogue;
}

export async function storedVersion(settings: RawSettings): Promise<number> {
  const store = await openStore(loadConfig(settings, {}));
  try {
    return await store.catalogueVersion();
  } finally {
    await store.close();
  }
}

type AnyRecord = { id: number } & Record<string, unknown>;

/**
 * The old catalogue with a change applied by hand: a record put replaces the one with its id
 * or joins the list, an id removed leaves it; lists in id order, as export writes them.
 * `published` and `search_str` are filled in as the format says when a record leaves them out.
 */
export function editedCatalogue(old: Catalogue, file: ChangeFileValue): Catalogue {
  const copy = structuredClone(old) as unknown as Record<ListName, AnyRecord[]>;
  for (const list of CATALOGUE_LISTS) {
    const changes = file[list] as { put?: AnyRecord[]; remove?: number[] } | undefined;
    if (!changes) continue;
    const removed = new Set([...(changes.remove ?? []), ...(changes.put ?? []).map((r) => r.id)]);
    const kept = copy[list].filter((r) => !removed.has(r.id));
    copy[list] = [...kept, ...(changes.put ?? []).map((r) => filledIn(list, r))].sort((a, b) => a.id - b.id);
  }
  return { format: 'heritage-catalogue/1', ...copy } as unknown as Catalogue;
}

function filledIn(list: ListName, record: AnyRecord): AnyRecord {
  if (list === 'images' || list === 'documents' || list === 'media') return { ...record, published: record['published'] ?? true };
  return structuredClone(record);
}

/** Record by record, so that a difference names its record. */
export function assertSameCatalogue(actual: Catalogue, expected: Catalogue): void {
  for (const list of CATALOGUE_LISTS) {
    const ids = (c: Catalogue) => (c[list] as { id: number }[]).map((r) => r.id);
    assert.deepEqual(ids(actual), ids(expected), `${list}: the ids`);
    (actual[list] as AnyRecord[]).forEach((record, i) => assert.deepEqual(record, expected[list][i], `${list} ${record.id}`));
  }
}

/**
 * Every stored (crowded) tile, in address order, straight from the database: a digest of its
 * bytes (an apply must store the bytes an import makes), and its features decoded (id,
 * properties, geometry) per layer, so that a difference says where.
 */
export async function storedTiles(settings: RawSettings): Promise<string[]> {
  const sql = 'SELECT z, x, y, mvt, level FROM tiles ORDER BY z, x, y';
  const rows = await sqlOn(settings, sql);
  return rows.map((r) => {
    const bytes = r['mvt'] === null ? null : Buffer.from(r['mvt'] as Uint8Array);
    const digest = bytes === null ? 'empty' : createHash('sha256').update(bytes).digest('hex');
    return `${r['z']}/${r['x']}/${r['y']} level ${r['level']} ${digest} ${JSON.stringify(decodeTile(bytes))}`;
  });
}

function decodeTile(bytes: Buffer | null): Record<string, unknown[]> {
  if (bytes === null) return {};
  const { layers } = new VectorTile(new PbfReader(bytes));
  return Object.fromEntries(Object.entries(layers).map(([name, layer]) => {
    const features = Array.from({ length: layer.length }, (_, i) => layer.feature(i));
    return [name, features.map((f) => ({ id: f.id, properties: f.properties, geometry: f.loadGeometry() }))];
  }));
}

export const CHANGE_FORMAT = 'heritage-changes/1';

/** A new place on Brick Lane, east of the tests' catalogue, with `changes` over it. */
export function newFeature(id: number, changes: Partial<Feature> = {}): Feature {
  const lon = -0.06 - id * 0.0002;
  const ring: [number, number][] = [[lon, 51.52], [lon + 0.0001, 51.52], [lon + 0.0001, 51.5201], [lon, 51.52]];
  return {
    id, feature_type: 'PLACE', b_number: null, b_name: `New place ${id}`, street: 'Brick Lane', postcode: 'E1 6QL',
    address: `Brick Lane, London E1 6QL`, current: null, site: null, categories: [], tags: ['market'],
    search_str: `New place ${id} Brick Lane`, geometry: { type: 'MultiPolygon', coordinates: [[ring]] }, ...changes,
  };
}

/** A footprint moved a fraction of the crowd's spacing: another cell of the points grid at some zooms, the same at others. */
export function nudged(f: Feature, by: number): Feature['geometry'] {
  return { type: 'MultiPolygon', coordinates: f.geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([lon, lat]) => [lon! + by, lat! - by]))) };
}
