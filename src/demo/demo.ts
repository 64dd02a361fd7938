// The demo catalogue: a deterministic, realistic stand-in for the Survey of London's
// "Histories of Whitechapel" (London E1), served by `npm start` to a newcomer and used by
// benchmarks and tests. Scale 1 is the real catalogue's size; counts scale linearly.
// The pieces live in ./demo/: the PRNG, word lists, the street map, the plot layout,
// the footprints and the prose.

import { CATALOGUE_FORMAT, type Author, type Catalogue, type Category, type Document, type Image, type Media, type MultiPolygon, type Site } from '../catalogue/format.js';
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';
import { makeFeatures, type Draft } from './features.js';
import { SITES } from './places.js';
import { dayOf, idSequence, isoDay, Rng } from './random.js';
import * as T from './text.js';
import * as W from './words.js';

export interface DemoOptions {
  /** 1 = the real catalogue's size (about 4,000 features); any positive number. */
  scale: number;
  /** Any finite number; the same scale and seed always give the same catalogue. */
  seed: number;
}

/** The demo `serve --init-demo` (what `npm start` runs) builds, and README's examples are tried on. */
export const INIT_DEMO: DemoOptions = { scale: 1, seed: 1 };

/** Record counts at scale 1. */
export const DEMO_SCALE_1 = { features: 4000, images: 3000, documents: 1060, media: 60, authors: 40, sites: 15 } as const;

export function generateDemoCatalogue(options: DemoOptions): Catalogue {
  const catalogue: Catalogue = { format: CATALOGUE_FORMAT, authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] };
  for (const { list, record } of demoRecords(options)) (catalogue[list] as CatalogueRecord[]).push(record);
  return catalogue;
}

export interface DemoRecord {
  list: ListName;
  record: CatalogueRecord;
}

/** An empty footprint: what a draft keeps once its feature has been handed on. */
const RELEASED: MultiPolygon = { type: 'MultiPolygon', coordinates: [] };

/**
 * The demo catalogue's records in file order, each handed on as soon as it is made, so a
 * writer holds one record at a time (features' footprints are let go once handed on).
 */
export function* demoRecords(options: DemoOptions): Generator<DemoRecord> {
  const { scale, seed } = options;
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) throw new RangeError(`demo scale must be a positive number, not ${String(scale)}`);
  if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new RangeError(`demo seed must be a finite number, not ${String(seed)}`);
  const rng = new Rng(`heritage-demo/${seed}`);
  const count = (base: number, min: number) => Math.max(min, Math.round(base * scale));

  const authors = makeAuthors(rng, count(DEMO_SCALE_1.authors, 3));
  const nextCategory = idSequence(rng, rng.int(1, 3), 0.2, 3);
  const categories: Category[] = W.CATEGORIES.map(([name, description, thumbnail]) => ({ id: nextCategory(), name, description, thumbnail }));
  const categoryIds = new Map(categories.map((c) => [c.name, c.id]));

  const nextSite = idSequence(rng, 1, 0.25, 4);
  const total = count(DEMO_SCALE_1.features, 24);
  const maxSiteSize = Math.max(2, Math.min(6, Math.round(total * 0.0015)));
  const activeSites = SITES.slice(0, Math.min(SITES.length, count(DEMO_SCALE_1.sites, 3))).map((def) => ({
    def, id: nextSite(), size: rng.int(2, Math.min(maxSiteSize, def.buildings.length)),
  }));
  const sites: Site[] = activeSites.map(({ id, def }) => ({ id, name: def.name }));

  const areas = Math.max(1, Math.round(total * 0.03));
  const places = Math.max(1, Math.round(total * 0.035));
  const openSpaces = Math.max(1, Math.round(total * 0.004));
  const groups = rng.shuffle(makeFeatures(rng, { buildings: total - areas - places - openSpaces, places, openSpaces, areas }, activeSites, categoryIds));
  const drafts = groups.flat();
  const nextFeature = idSequence(rng, rng.int(1, 4), 0.03, 40);
  for (const draft of drafts) draft.feature.id = nextFeature();
  yield* listed('authors', authors);
  yield* listed('categories', categories);
  yield* listed('sites', sites);
  for (const draft of drafts) {
    yield { list: 'features', record: draft.feature };
    draft.feature = { ...draft.feature, geometry: RELEASED };
  }

  const eligible = drafts.filter((d) => d.weight > 0);
  const author = authorPicker(rng, authors);
  // A few percent of each kind are unpublished: always one, and never all of a short list.
  const unpublished = (n: number) => {
    const forced = rng.int(0, n - 1);
    return (i: number) => i === forced || (n >= 20 && rng.chance(0.03));
  };

  // Images: uploaded in batches, several per feature for a few features, none for most.
  const imageCount = count(DEMO_SCALE_1.images, T.SHOWCASE_FILE_NAMES.length);
  const imageBatches = rng.shuffle(spread(rng, eligible, imageCount, () => Math.min(30, 1 + Math.floor(-Math.log(1 - rng.next()) * 3.5))));
  let imageIndex = 0;
  const withImages = new Set<number>();
  const nextImage = idSequence(rng, rng.int(1, 9), 0.05, 25);
  const hiddenImage = unpublished(imageCount);
  const taken = new Set<string>();
  for (const draft of imageBatches) {
    const dir = `uploads/features/${draft.feature.id}/`;
    let name = T.SHOWCASE_FILE_NAMES[imageIndex] ?? T.imageFileName(rng, draft.subject);
    while (taken.has(dir + name)) name = name.replace(/(\.[^.]*)?$/, (ext) => `_${rng.chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 7)}${ext}`);
    taken.add(dir + name);
    const by = author();
    const image: Image = {
      id: nextImage(), feature: draft.feature.id, author: by.id, title: T.imageTitle(rng, draft.subject), file: dir + name,
      description: T.imageDescription(rng, draft.subject, by.username), copyright: rng.chance(0.3),
      created: rng.chance(0.1) ? null : isoDay(rng.int(dayOf(2016, 1, 1), dayOf(2019, 12, 31))), published: !hiddenImage(imageIndex++),
    };
    withImages.add(image.feature);
    yield { list: 'images', record: image };
  }

  // Documents: one article for most documented features, a second or third for some.
  const documentCount = count(DEMO_SCALE_1.documents, 3);
  const documentFeatures = rng.shuffle(spread(rng, eligible, documentCount, () => rng.weighted([[80, 1], [15, 2], [5, 3]]), (d) => (withImages.has(d.feature.id) ? 3 : 1)));
  let documentIndex = 0;
  const nextDocument = idSequence(rng, rng.int(1, 30), 0.06, 20);
  const hiddenDocument = unpublished(documentCount);
  const seen = new Map<number, number>();
  for (const draft of documentFeatures) {
    const nth = seen.get(draft.feature.id) ?? 0;
    seen.set(draft.feature.id, nth + 1);
    const history = documentIndex === 0 || rng.chance(nth === 0 ? 0.9 : 0.5);
    const created = rng.int(dayOf(2016, 1, 1), dayOf(2019, 12, 31));
    const edited = rng.chance(0.06) ? created - rng.int(1, 200) : created + rng.int(0, 900);
    const document: Document = {
      id: nextDocument(), feature: draft.feature.id, author: author(history ? 1.6 : 0.4).id, title: T.documentTitle(rng, draft.subject, nth),
      body: T.documentBody(rng, draft.subject, history), created: isoDay(created), last_edited: isoDay(edited), published: !hiddenDocument(documentIndex++),
    };
    yield { list: 'documents', record: document };
  }

  // Media: links to films of a few of the best-documented buildings.
  const mediaCount = count(DEMO_SCALE_1.media, 3);
  const mediaFeatures = spread(rng, eligible, mediaCount, () => (rng.chance(0.85) ? 1 : 2), (d) => (withImages.has(d.feature.id) ? 4 : 1));
  const hiddenMedia = unpublished(mediaCount);
  const nextMedia = idSequence(rng, rng.int(1, 5), 0.1, 6);
  for (let i = 0; i < mediaFeatures.length; i++) {
    const draft = mediaFeatures[i] as Draft;
    const media: Media = {
      id: nextMedia(), feature: draft.feature.id, author: author().id, title: T.mediaTitle(rng, draft.subject), url: T.mediaUrl(rng), published: !hiddenMedia(i),
    };
    yield { list: 'media', record: media };
  }
}

function* listed(list: ListName, records: readonly CatalogueRecord[]): Generator<DemoRecord> {
  for (const record of records) yield { list, record };
}

/**
 * `total` attachments spread over features in weighted random order, `batch()` at a time,
 * each feature appearing in one run (or again, when a small catalogue runs out of features).
 */
function spread(rng: Rng, drafts: readonly Draft[], total: number, batch: () => number, boost: (d: Draft) => number = () => 1): Draft[] {
  const order = rng.weightedOrder(drafts, (d) => d.weight * boost(d));
  const out: Draft[] = [];
  for (let j = 0; out.length < total; j++) {
    const draft = order[j % order.length] as Draft;
    for (let k = Math.min(batch(), total - out.length); k > 0; k--) out.push(draft);
  }
  return out;
}

function makeAuthors(rng: Rng, n: number): Author[] {
  const names = new Set(W.FIXED_USERNAMES.slice(0, n));
  while (names.size < n) {
    const first = rng.pick(W.FIRST_NAMES).toLowerCase();
    const last = rng.pick(W.SURNAMES).toLowerCase();
    let name = rng.pick([`${first}.${last.charAt(0)}`, `${first}_${last}`, `${first}${rng.int(10, 99)}`, `${last}_history`, `${first.charAt(0)}${last}`]);
    while (names.has(name)) name += String(rng.int(0, 9));
    names.add(name);
  }
  const next = idSequence(rng, rng.int(1, 3), 0.15, 12);
  return [...names].map((username) => ({ id: next(), username }));
}

/** Picks authors with a long tail: the Survey's own accounts write most records. `skew` > 1 favours them more. */
function authorPicker(rng: Rng, authors: readonly Author[]): (skew?: number) => Author {
  const tables = new Map<number, number[]>();
  return (skew = 1) => {
    let cumulative = tables.get(skew);
    if (cumulative === undefined) {
      let sum = 0;
      tables.set(skew, (cumulative = authors.map((_, i) => (sum += 1 / Math.pow(i + 1, skew)))));
    }
    const x = rng.next() * (cumulative[cumulative.length - 1] as number);
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return authors[lo] as Author;
  };
}
