// `apply` (issue 22, issue 35) where tiles are crowded or over their budget: the crowded tiles
// the changed footprints meet hold what an import of the edited catalogue makes of them
// (test/postgres/apply-crowds.test.ts runs it on PostgreSQL). Apart from apply.test.ts so
// that neither file alone bounds npm test's pass.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Catalogue, Feature } from '../src/catalogue/format.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { generateLayoutCatalogue } from './support/tile-catalogues.js';
import { applyTo, CHANGE_FORMAT, editedCatalogue, newFeature, nudged, storedTiles, type ChangeFileValue } from './support/apply.js';
import { importInto } from './support/server.js';
import { createTestDatabase } from './support/stores.js';

const FORMAT = CHANGE_FORMAT;

/**
 * The test catalogue and a crowd: more footprints in one spot than a tile is made of on
 * request (CROWDED_ABOVE), each `size` degrees across, `size` * 1.25 apart, from `south`. The
 * crowd of 0.0001° has crowded tiles down to zoom 15; the dense one (0.00005°, inside one tile
 * of zoom 16) down to zoom 17, where its footprints are polygons carrying names and types.
 */
function crowdCatalogue(size = 0.0001, south = 51.6): Catalogue {
  const catalogue = buildTestCatalogue();
  for (let i = 0; i < 1120; i++) {
    const [lon, lat] = [0.5 + (i % 40) * size * 1.25, south + Math.floor(i / 40) * size * 1.25];
    const ring: [number, number][] = [[lon, lat], [lon + size, lat], [lon + size, lat + size], [lon, lat]];
    catalogue.features.push({
      id: 1000 + i, feature_type: 'WHITECHAPEL_BUILDING', b_number: String(i), b_name: i % 2 ? `Crowd ${i}` : null, street: 'Crowd Row',
      postcode: 'E1 1AA', address: `${i} Crowd Row`, current: null, site: null, categories: i % 3 ? [3] : [], tags: [],
      search_str: `${i} Crowd Row`, geometry: { type: 'MultiPolygon', coordinates: [[ring]] },
    });
  }
  return catalogue;
}

const crowd = crowdCatalogue();
/** Two thirds of its footprints in a quarter of 140 × 100 m: its crowded tiles from zoom 14 are over budget at full detail (tiles/budget.ts). */
// Without attachments, so that any footprint can be removed.
const budgeted = { ...generateLayoutCatalogue({ layout: 'dense', scale: 1, seed: 3, area: 0.1 }), images: [], documents: [], media: [] };
const budgetedFeature = (id: number) => structuredClone(budgeted.features.find((f) => f.id === id)!);
/** Four in five of the quarter's footprints (every third footprint is spread): without them its tiles are under budget at full detail. */
const QUARTER_MOST = budgeted.features.filter((_, i) => i % 3 !== 2 && i % 5 !== 0).map((f) => f.id);
const thinnedBudgeted = { ...budgeted, features: budgeted.features.filter((f) => !QUARTER_MOST.includes(f.id)) };
const denseCrowd = crowdCatalogue(0.00005, 51.601);
const crowdFeature = (id: number, from = crowd) => structuredClone(from.features.find((f) => f.id === id)!);
const FEW_REMOVED = Array.from({ length: 150 }, (_, i) => 1000 + i);
const thinnedCrowd = { ...crowd, features: crowd.features.filter((f) => !FEW_REMOVED.includes(f.id)) };

/**
 * keepsBelow: the zoom below which every tile stays as it was (and from which some are
 * crowded); reduced: whether some stored tile is drawn below full detail before and after.
 */
const CROWD_CHANGES: { name: string; catalogue: Catalogue; file: ChangeFileValue; keepsBelow?: number; reduced?: [boolean, boolean] }[] = [
  {
    name: 'a footprint moved out of the crowd, one renamed, one added, a category renamed: its tiles made again',
    catalogue: crowd,
    file: {
      format: FORMAT,
      categories: { put: [{ ...crowd.categories[0]!, name: 'Taverns' }] },
      features: { put: [{ ...crowdFeature(1000), geometry: newFeature(1).geometry }, { ...crowdFeature(1001), b_name: 'Renamed' }, newFeature(3000, { geometry: crowdFeature(1500).geometry })] },
    },
  },
  {
    name: 'enough of the crowd removed that no tile is crowded: its tiles dropped',
    catalogue: crowd,
    file: { format: FORMAT, features: { remove: FEW_REMOVED } },
  },
  {
    name: 'the crowd made whole again: its tiles newly crowded, made',
    catalogue: thinnedCrowd,
    file: { format: FORMAT, features: { put: FEW_REMOVED.map((id) => crowdFeature(id)) } },
  },
  {
    name: 'the lowest ids of cells moved within the crowd and removed, one added below them all, first categories changed: its tiles edited',
    catalogue: crowd,
    file: {
      format: FORMAT,
      features: {
        put: [
          { ...crowdFeature(1000), geometry: nudged(crowdFeature(1000), 0.00004) }, { ...crowdFeature(1041), geometry: crowdFeature(1500).geometry },
          newFeature(999, { geometry: nudged(crowdFeature(1300), 0.00002) }), { ...crowdFeature(1002), categories: [] }, { ...crowdFeature(1003), categories: [4, 3] },
        ],
        remove: [1040, 1080, 1200],
      },
    },
  },
  {
    name: 'names, a type and a category name changed in a dense crowd: only its tiles from zoom 16 edited',
    catalogue: denseCrowd,
    keepsBelow: 16,
    file: {
      format: FORMAT,
      categories: { put: [{ ...denseCrowd.categories.find((c) => c.id === 3)!, name: 'Taverns' }] },
      features: { put: [{ ...crowdFeature(1001, denseCrowd), b_name: 'Renamed' }, { ...crowdFeature(1500, denseCrowd), b_name: null, feature_type: 'PLACE' }, { ...crowdFeature(1502, denseCrowd), address: 'Not drawn' }] },
    },
  },
  {
    name: 'footprints moved and recategorised in a dense crowd: its tiles edited at every zoom',
    catalogue: denseCrowd,
    file: {
      format: FORMAT,
      features: { put: [{ ...crowdFeature(1000, denseCrowd), geometry: nudged(crowdFeature(1000, denseCrowd), 0.00002) }, { ...crowdFeature(1501, denseCrowd), categories: [] }] },
    },
  },
];


CROWD_CHANGES.push(
  {
    name: 'footprints moved, added and removed, names changed, where tiles are drawn below full detail to keep their budget: those tiles made again',
    catalogue: budgeted,
    reduced: [true, true],
    file: {
      format: FORMAT,
      features: {
        put: [
          { ...budgetedFeature(budgeted.features[0]!.id), geometry: nudged(budgetedFeature(budgeted.features[0]!.id), 0.00003) },
          { ...budgetedFeature(budgeted.features[3]!.id), b_name: 'Renamed in the quarter' },
          newFeature(99_000, { geometry: budgetedFeature(budgeted.features[6]!.id).geometry }),
        ],
        remove: [budgeted.features[9]!.id, budgeted.features[10]!.id],
      },
    },
  },
  {
    name: 'a quarter at full detail filled again: its tiles grown past their budget, drawn at a lower level',
    catalogue: thinnedBudgeted,
    reduced: [false, true],
    file: { format: FORMAT, features: { put: QUARTER_MOST.map(budgetedFeature) } },
  },
);

/** A change file of features only undone: what it put back as it was (or removed, if new), what it removed put back. */
function undoing(catalogue: Catalogue, file: ChangeFileValue): ChangeFileValue {
  const { put = [], remove = [] } = (file as { features: { put?: Feature[]; remove?: number[] } }).features;
  const old = new Map(catalogue.features.map((f) => [f.id, f]));
  const [back, added] = [[...put.filter((f) => old.has(f.id)).map((f) => old.get(f.id)!), ...remove.map((id) => old.get(id)!)], put.filter((f) => !old.has(f.id)).map((f) => f.id)];
  return { format: FORMAT, features: { ...(back.length > 0 ? { put: back } : {}), ...(added.length > 0 ? { remove: added } : {}) } };
}

describe('apply: the crowded tiles the changed footprints meet hold what an import makes of them', () => {
  const belowFull = (tiles: string[]) => tiles.some((tile) => !tile.includes(' level 0 '));
  for (const { name, catalogue, file, keepsBelow, reduced } of CROWD_CHANGES) {
    test(name, async () => {
      const applied = createTestDatabase();
      const imported = createTestDatabase();
      try {
        await importInto(applied.settings, catalogue);
        const before_ = await storedTiles(applied.settings);
        assert.ok(before_.length > 10 || catalogue === thinnedCrowd, 'the crowd has crowded tiles');
        const outcome = await applyTo(applied.settings, file);
        assert.ok(outcome.ok, JSON.stringify(outcome));
        await importInto(imported.settings, editedCatalogue(catalogue, file));
        const after_ = await storedTiles(applied.settings);
        assert.notDeepEqual(after_, before_);
        assert.deepEqual(after_, await storedTiles(imported.settings));
        if (reduced) {
          assert.deepEqual([belowFull(before_), belowFull(after_)], reduced, 'tiles drawn below full detail, before and after');
          // The levels a tile keeps before its own were edited too: the change undone by a second apply, the tiles are as first imported.
          const undone = await applyTo(applied.settings, undoing(catalogue, file));
          assert.ok(undone.ok, JSON.stringify(undone));
          assert.deepEqual(await storedTiles(applied.settings), before_);
        }
        if (keepsBelow !== undefined) {
          const below = (tiles: string[]) => tiles.filter((tile) => Number(tile.split('/')[0]) < keepsBelow);
          assert.ok(after_.length > below(after_).length, `crowded tiles from zoom ${keepsBelow}`);
          assert.deepEqual(below(after_), below(before_));
        }
      } finally {
        await applied.drop();
        await imported.drop();
      }
    });
  }
});
