// The box index a server keeps per catalogue version for map views (src/store/box-index.ts,
// kept by src/work/guarded-store.ts): map views (the OGC items page and /api/v1/features/
// in a box) answered from it, inline, give the footprints turf finds in the box, before and
// after a change made by another connection (another process on PostgreSQL) that moves,
// adds and removes footprints in the box; and the index, built in many batches
// (MAP_INDEX_BATCH), and read again after the change, holds every footprint of the
// catalogue once, each in a box that holds it, and no other. Expected answers come from
// turf over the catalogue as the test edits it, not from the server's box tests.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type booleanIntersectsType from '@turf/boolean-intersects';
import Flatbush from 'flatbush';
import type { FastifyInstance } from 'fastify';
import type { Geometry } from 'geojson';
import { buildApp } from '../../src/app.js';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { loadConfig } from '../../src/config.js';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { WORK_REGISTRY } from '../../src/reads.js';
import { boundingBox } from '../../src/search/box.js';
import type { BoxIndex } from '../../src/store/box-index.js';
import { boxIndexJob } from '../../src/store/map-view-reads.js';
import { openStore } from '../../src/store/open.js';
import type { CatalogueStore } from '../../src/store/store.js';
import { guardStore, type GuardedStore } from '../../src/work/guarded-store.js';
import { applyTo, CHANGE_FORMAT, editedCatalogue, newFeature, type ChangeFileValue } from './apply.js';
import { injectRequest } from './in-process.js';
import { importInto } from './server.js';
import { createTestDatabase, type StoreKind, type TestDatabase } from './stores.js';

const booleanIntersects = (createRequire(import.meta.url)('@turf/boolean-intersects') as { default: typeof booleanIntersectsType }).default;

type Box = [number, number, number, number];

const polygon = ([w, s, e, n]: Box): Geometry => ({ type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] });
const ring = (points: [number, number][]): Feature['geometry'] => ({ type: 'MultiPolygon', coordinates: [[[...points, points[0]!]]] });

/** Ids of the catalogue's footprints meeting the box, ascending, by turf. */
function expectedIds(catalogue: Catalogue, box: Box): number[] {
  return catalogue.features.filter((f) => booleanIntersects(f.geometry as Geometry, polygon(box))).map((f) => f.id).sort((a, b) => a - b);
}

/**
 * A change in the view `box`: a footprint from far away moved into its middle, one inside it
 * removed, and two added across its south-west corner, one meeting it and one whose box
 * meets it but whose triangle does not (only the exact test tells them apart).
 */
function changeIn(catalogue: Catalogue, [w, s, e, n]: Box): ChangeFileValue {
  const [cx, cy] = [(w + e) / 2, (s + n) / 2];
  const inside = expectedIds(catalogue, [w, s, e, n]);
  const far = catalogue.features.find((f) => {
    const [x0, , x1] = boundingBox(f.geometry);
    return x0! > e + 0.002 || x1! < w - 0.002;
  });
  assert.ok(far, 'a footprint away from the view');
  const gone = inside[Math.floor(inside.length / 2)]!;
  const next = Math.max(...catalogue.features.map((f) => f.id)) + 1;
  const d = 0.0001;
  return {
    format: CHANGE_FORMAT,
    features: {
      put: [
        { ...far, geometry: ring([[cx, cy], [cx + d, cy], [cx + d, cy + d]]) },
        newFeature(next, { geometry: ring([[w - d, s - d], [w + d, s - d], [w + d, s + d]]) }),
        // Its box meets the corner; the triangle stays south-west of the line through it.
        newFeature(next + 1, { geometry: ring([[w - 3 * d, s - 3 * d], [w + d / 2, s - 3 * d], [w - 3 * d, s + d / 2]]) }),
      ],
      remove: [gone],
    },
  };
}

/** The box index's footprints and their boxes, by id. */
function indexed(index: BoxIndex): Map<number, number[]> {
  const boxes = new Map<number, number[]>();
  if (index.data === null) return boxes;
  Flatbush.from(index.data).search(-Infinity, -Infinity, Infinity, Infinity, (i, x0, y0, x1, y1) => {
    assert.ok(!boxes.has(index.ids[i]!), `feature ${index.ids[i]} once in the index`);
    boxes.set(index.ids[i]!, [x0, y0, x1, y1]);
    return false;
  });
  return boxes;
}

/** Every footprint of the catalogue, each once, in a box that holds it and is within a metre of its own (SQLite's R*Tree rounds outwards). */
function assertIndexAgrees(index: BoxIndex, catalogue: Catalogue): void {
  const boxes = indexed(index);
  assert.deepEqual([...boxes.keys()].sort((a, b) => a - b), catalogue.features.map((f) => f.id).sort((a, b) => a - b), 'the index holds every footprint and no other');
  for (const f of catalogue.features) {
    const [x0, y0, x1, y1] = boxes.get(f.id)!;
    const [w, s, e, n] = boundingBox(f.geometry);
    assert.ok(x0! <= w! && y0! <= s! && x1! >= e! && y1! >= n!, `feature ${f.id}: its box holds its footprint`);
    assert.ok(w! - x0! < 1e-5 && s! - y0! < 1e-5 && x1! - e! < 1e-5 && y1! - n! < 1e-5, `feature ${f.id}: its box is its footprint's`);
  }
}

/** Boxes read per batch when the index is built: far fewer than the catalogue's footprints. */
const BATCH = 97;

export function mapViewIndexSuite(kind: StoreKind): void {
  const catalogue = generateDemoCatalogue({ scale: 0.3, seed: 23 });
  const [lon, lat] = catalogue.features[Math.floor(catalogue.features.length / 2)]!.geometry.coordinates[0]![0]![0]! as [number, number];
  const around = (dx: number, dy: number): Box => [lon - dx, lat - dy, lon + dx, lat + dy];
  const view = around(0.0015, 0.001);
  const views = [around(0.0004, 0.0003), view, around(0.004, 0.003)];
  let database: TestDatabase;
  let store: CatalogueStore;
  let guarded: GuardedStore;
  let app: FastifyInstance;

  before(async () => {
    database = createTestDatabase(kind);
    await importInto(database.settings, catalogue);
    // Boxes read 97 at a time: the index of a catalogue of many batches (1,200 footprints) is built whole.
    const config = loadConfig({ ...database.settings, logLevel: 'silent' }, { CACHE_MAX_MB: '0', MAP_INDEX_BATCH: String(BATCH) });
    store = await openStore(config, { serving: true });
    guarded = guardStore(store, config, WORK_REGISTRY);
    // The app's own store, so that the test can ask it for its index: buildApp keeps a guarded store as given.
    const served = Object.assign(guarded, { transact: store.transact.bind(store), applyChanges: store.applyChanges.bind(store) });
    app = await buildApp({ store: served, config, logger: false });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await guarded.closeWorkers();
    await store.close();
    await database.drop();
  });

  /** Each view's first page (40: some views hold more) and numberMatched against turf's (no answer cache: CACHE_MAX_MB=0). */
  async function assertViews(expected: Catalogue): Promise<void> {
    for (const box of views) {
      const ids = expectedIds(expected, box);
      const answer = await injectRequest(app, `/ogc/collections/features/items?limit=40&bbox=${box.join(',')}`);
      assert.equal(answer.status, 200, answer.text);
      const page = answer.json() as { numberMatched: number; features: { id: number }[] };
      assert.equal(page.numberMatched, ids.length, `bbox=${box.join(',')}: numberMatched`);
      assert.deepEqual(page.features.map((f) => f.id), ids.slice(0, 40), `bbox=${box.join(',')}: the page's ids`);
    }
  }

  /**
   * Each view's features by /api/v1/ (`bbox=`), every page followed (7 a page), in the
   * list's order (ids ascending), and its count, against turf's.
   */
  async function assertListViews(expected: Catalogue): Promise<void> {
    for (const box of views) {
      const ids = expectedIds(expected, box);
      const listed: number[] = [];
      for (let page = 1; page <= Math.max(1, Math.ceil(ids.length / 7)); page++) {
        const answer = await injectRequest(app, `/api/v1/features/?bbox=${box.join(',')}&page_size=7&page=${page}`);
        assert.equal(answer.status, 200, answer.text);
        const body = answer.json() as { count: number; next: string | null; results: { features: { id: number }[] } };
        assert.equal(body.count, ids.length, `bbox=${box.join(',')}: count`);
        assert.equal(body.next === null, page * 7 >= ids.length, `bbox=${box.join(',')} page ${page}: next`);
        listed.push(...body.results.features.map((f) => f.id));
      }
      assert.deepEqual(listed, ids, `bbox=${box.join(',')}: the listed ids`);
    }
  }

  /** Turns of costly reads taken while `work` runs: none when every view is answered from the index, inline. */
  async function costlyTurns(work: () => Promise<void>): Promise<number> {
    const gate = guarded.gates.reads;
    const run = gate.run.bind(gate);
    let turns = 0;
    gate.run = (job) => {
      turns++;
      return run(job);
    };
    try {
      await work();
    } finally {
      gate.run = run;
    }
    return turns;
  }

  test(`${kind}: map views from the box index, before and after a change in view by another connection`, async () => {
    const first = await guarded.keptRun(boxIndexJob);
    assert.ok(catalogue.features.length > 5 * BATCH, `${catalogue.features.length} footprints: many batches`);
    assertIndexAgrees(first, catalogue);
    assert.equal(await costlyTurns(async () => {
      await assertViews(catalogue);
      await assertListViews(catalogue);
    }), 0, 'views answered from the index, inline');
    const change = changeIn(catalogue, view);
    const outcome = await applyTo(database.settings, change);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    const changed = editedCatalogue(catalogue, change);
    // At once: the index kept is of the old version (read again meanwhile, in the background).
    await assertViews(changed);
    await assertListViews(changed);
    const second = await guarded.keptRun(boxIndexJob);
    assert.ok(second.version > first.version, 'the index read again is of the new version');
    assertIndexAgrees(second, changed);
    assert.equal(await costlyTurns(async () => {
      await assertViews(changed);
      await assertListViews(changed);
    }), 0, 'views answered from the index read again, inline');
  });
}
