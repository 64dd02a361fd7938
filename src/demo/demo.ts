// The demo catalogue: a deterministic, realistic stand-in for the Survey of London's
// "Histories of Whitechapel" (London E1), served by `npm start` to a newcomer and used by
// benchmarks and tests. Scale 1 is the real catalogue's size; counts scale linearly.
// The pieces live beside it: the PRNG, word lists, the street map, the plot layout, the
// footprints, the prose, authors and attachments. Every random draw is made in a fixed
// order, so the same options always give the same bytes.

import { CATALOGUE_FORMAT, type Catalogue, type Category, type MultiPolygon } from '../catalogue/format.js';
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';
import { attachmentRecords } from './attachments.js';
import { makeAuthors } from './authors.js';
import { makeFeatures, type ActiveSite, type Draft } from './features.js';
import { DEMO_SCALE_1, type DemoOptions, type DemoRecord, type ScaledCount } from './options.js';
import { SITES } from './places.js';
import { idSequence, Rng } from './random.js';
import * as W from './words.js';

export { DEMO_SCALE_1, INIT_DEMO, type DemoOptions, type DemoRecord, type ScaledCount } from './options.js';

/** An empty footprint: what a draft keeps once its feature has been handed on. */
const RELEASED: MultiPolygon = { type: 'MultiPolygon', coordinates: [] };

/** The whole demo catalogue in memory (tests, benchmarks). */
export function generateDemoCatalogue(options: DemoOptions): Catalogue {
  const catalogue: Catalogue = { format: CATALOGUE_FORMAT, authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] };
  for (const { list, record } of demoRecords(options)) (catalogue[list] as CatalogueRecord[]).push(record);
  return catalogue;
}

/**
 * The demo catalogue's records in file order, each handed on as soon as it is made, so a
 * writer holds one record at a time (features' footprints are let go once handed on).
 */
export function* demoRecords(options: DemoOptions): Generator<DemoRecord> {
  checkOptions(options);
  const rng = new Rng(`heritage-demo/${options.seed}`);
  const count: ScaledCount = (base, min) => Math.max(min, Math.round(base * options.scale));
  const authors = makeAuthors(rng, count(DEMO_SCALE_1.authors, 3));
  const categories = makeCategories(rng);
  const total = count(DEMO_SCALE_1.features, 24);
  const sites = chooseSites(rng, total, count(DEMO_SCALE_1.sites, 3));
  const drafts = makeDrafts(rng, total, sites, new Map(categories.map((c) => [c.name, c.id])));
  yield* listed('authors', authors);
  yield* listed('categories', categories);
  yield* listed('sites', sites.map(({ id, def }) => ({ id, name: def.name })));
  yield* handedOn(drafts);
  yield* attachmentRecords({ rng, count, authors, eligible: drafts.filter((d) => d.weight > 0) });
}

function checkOptions({ scale, seed }: DemoOptions): void {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) throw new RangeError(`demo scale must be a positive number, not ${String(scale)}`);
  if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new RangeError(`demo seed must be a finite number, not ${String(seed)}`);
}

function makeCategories(rng: Rng): Category[] {
  const nextCategory = idSequence(rng, rng.int(1, 3), 0.2, 3);
  return W.CATEGORIES.map(([name, description, thumbnail]) => ({ id: nextCategory(), name, description, thumbnail }));
}

/** The first `count` sites of the map, each with a few buildings (fewer in a small catalogue). */
function chooseSites(rng: Rng, totalFeatures: number, count: number): ActiveSite[] {
  const nextSite = idSequence(rng, 1, 0.25, 4);
  const maxSiteSize = Math.max(2, Math.min(6, Math.round(totalFeatures * 0.0015)));
  return SITES.slice(0, Math.min(SITES.length, count)).map((def) => ({
    def, id: nextSite(), size: rng.int(2, Math.min(maxSiteSize, def.buildings.length)),
  }));
}

/** Every feature, in groups shuffled into file order, then numbered. */
function makeDrafts(rng: Rng, total: number, sites: readonly ActiveSite[], categoryIds: ReadonlyMap<string, number>): Draft[] {
  const areas = Math.max(1, Math.round(total * 0.03));
  const places = Math.max(1, Math.round(total * 0.035));
  const openSpaces = Math.max(1, Math.round(total * 0.004));
  const counts = { buildings: total - areas - places - openSpaces, places, openSpaces, areas };
  const drafts = rng.shuffle(makeFeatures(rng, counts, sites, categoryIds)).flat();
  const nextFeature = idSequence(rng, rng.int(1, 4), 0.03, 40);
  for (const draft of drafts) draft.feature.id = nextFeature();
  return drafts;
}

function* listed(list: ListName, records: readonly CatalogueRecord[]): Generator<DemoRecord> {
  for (const record of records) yield { list, record };
}

/** Each feature handed on, then its footprint let go (the draft keeps the rest for attachments). */
function* handedOn(drafts: readonly Draft[]): Generator<DemoRecord> {
  for (const draft of drafts) {
    yield { list: 'features', record: draft.feature };
    draft.feature = { ...draft.feature, geometry: RELEASED };
  }
}
