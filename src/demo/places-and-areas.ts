// The demo's features that are not buildings: places (corners, markets, yards, numbered
// spots), open spaces, and GREATER_WHITECHAPEL areas with nothing but a name and an outline.
import type { FeatureType } from '../catalogue/format.js';
import { blobShape, buildingShape, frameAt, toLocal, type Frame, type Shape } from './geometry.js';
import type { Draft, FeatureMaker } from './feature-maker.js';
import { AREAS, STREETS, type StreetDef } from './places.js';
import { at as itemAt } from '../invariant.js';

const MARKETS: readonly (readonly [string, string])[] = [
  ['Whitechapel Market', 'Whitechapel Road'], ['Petticoat Lane Market', 'Middlesex Street'], ['Wentworth Street Market', 'Wentworth Street'],
  ['Brick Lane Market', 'Brick Lane'], ['Club Row animal market', 'Sclater Street'], ['Cheshire Street flea market', 'Cheshire Street'],
  ['Hessel Street market', 'Hessel Street'], ['Watney Market', 'Watney Street'],
];
const YARDS: readonly (readonly [string, string])[] = [
  ['Black Lion Yard', 'Black Lion Yard'], ['Angel Alley', 'Whitechapel High Street'], ['George Yard', 'Gunthorpe Street'],
  ["Wood's Buildings", 'Whitechapel Road'], ['Crispin Place', 'Commercial Street'], ['Frying Pan Alley', 'Middlesex Street'],
  ['Ship Alley', 'Cable Street'], ['Vine Court', 'Whitechapel Road'], ['Dray Walk', 'Brick Lane'], ['Puma Court', 'Commercial Street'],
];
const OPEN_SPACES: readonly (readonly [string, string])[] = [
  ['Altab Ali Park', 'Whitechapel Road'], ['Weavers Fields', 'Vallance Road'], ['Christ Church Gardens', 'Commercial Street'],
  ['Stepney Green Gardens', 'Stepney Green'], ['Allen Gardens', 'Buxton Street'], ['Ropewalk Gardens', 'Commercial Road'],
  ['Swedenborg Gardens', 'Cable Street'], ['Whitechapel Waste', 'Whitechapel Road'],
];

interface Junction {
  a: StreetDef;
  b: StreetDef;
  /** Metres along a: its start or its end. */
  at: number;
}

/** Where a place sits: a street, how far along (random when null), its outline and setback. */
interface Placing {
  street: string;
  at: number | null;
  shape: Shape;
  /** Metres beyond the building line; negative: on the street itself. */
  setback: number;
  category: string | null;
}

/** `count` places, each its own group (a record of its own in the database's history). */
export function makePlaces(maker: FeatureMaker, count: number): Draft[][] {
  const corners = junctions(maker);
  const groups: Draft[][] = [];
  for (let i = 0; i < count; i++) groups.push([makePlace(maker, corners)]);
  return groups;
}

function makePlace(maker: FeatureMaker, corners: readonly Junction[]): Draft {
  const { rng } = maker;
  const form = rng.weighted([[35, 'corner'], [15, 'market'], [20, 'yard'], [30, 'numbered']] as const);
  const across = (st: string): Shape => buildingShape(rng, 'quad', rng.range(10, 30), 2 * maker.onStreet(st).st.half);
  if (form === 'corner' && corners.length > 0) {
    const j = rng.pick(corners);
    const at = Math.min(Math.max(j.at, 6), maker.onStreet(j.a.name).line.length - 6);
    return place(maker, 'PLACE', `Corner of ${j.a.name} and ${j.b.name}`, { street: j.a.name, at, shape: across(j.a.name), setback: -1, category: null });
  }
  if (form === 'market' || form === 'corner') {
    const [name, st] = rng.pick(MARKETS);
    return place(maker, 'PLACE', name, { street: st, at: null, shape: across(st), setback: -1, category: 'Markets' });
  }
  if (form === 'yard') {
    const [name, st] = rng.pick(YARDS);
    return place(maker, 'PLACE', name, { street: st, at: null, shape: buildingShape(rng, 'quad', rng.range(6, 18), rng.range(10, 25)), setback: 4, category: null });
  }
  const st = rng.pick(STREETS).name;
  const what = rng.pick(['Yard behind', 'Passage beside', 'Forecourt of', 'Site of', 'Archway at']);
  const name = `${what} ${rng.int(1, 120)} ${st}`;
  return place(maker, 'PLACE', name, { street: st, at: null, shape: buildingShape(rng, 'L', rng.range(6, 15), rng.range(8, 20)), setback: 2, category: null });
}

/** `count` open spaces: the real ones first, then gardens and playgrounds. */
export function makeOpenSpaces(maker: FeatureMaker, count: number): Draft[][] {
  const { rng } = maker;
  const groups: Draft[][] = [];
  for (let i = 0; i < count; i++) {
    const street = rng.pick(STREETS).name;
    const [name, st] = OPEN_SPACES[i] ?? [`${rng.pick(['Garden behind', 'Playground at'])} ${rng.int(1, 150)} ${street}`, street];
    const r = rng.range(15, 45);
    groups.push([place(maker, 'OPEN_SPACE', name, { street: st, at: null, shape: blobShape(rng, r), setback: r + 3, category: 'Open spaces' })]);
  }
  return groups;
}

/** Street ends that meet another street (within 30 m of it). */
function junctions(maker: FeatureMaker): Junction[] {
  const found: Junction[] = [];
  for (const { st: a, line } of maker.streets.values()) {
    for (const at of [0, line.length]) {
      const p = line.at(at).p;
      for (const { st: b, line: other } of maker.streets.values()) {
        if (b !== a && other.pts.some((q, i) => i > 0 && segmentDistance(p, itemAt(other.pts, i - 1), q) < 30)) found.push({ a, b, at });
      }
    }
  }
  return found;
}

function place(maker: FeatureMaker, type: FeatureType, name: string, placing: Placing): Draft {
  const { rng } = maker;
  const { st, line } = maker.onStreet(placing.street);
  const d = placing.at ?? rng.range(0.1, 0.9) * line.length;
  const side = rng.chance(0.5) ? 1 : -1;
  const postcode = maker.postcode(st, side, Math.round(d / 6));
  const current = type === 'OPEN_SPACE' && rng.chance(0.6) ? rng.int(1850, 2010) : null;
  const feature = maker.finish({
    feature_type: type, b_number: null, b_name: name, street: st.name, postcode,
    address: name.includes(st.name) ? `${name}, London ${postcode}` : `${name}, ${st.name}, London ${postcode}`, current,
    site: null, categories: placing.category !== null && rng.chance(0.8) ? [maker.category(placing.category)] : [], tags: maker.tags([]),
  }, placing.shape, frameAt(line, d, side, placing.setback < 0 ? -st.half : st.half + placing.setback), null);
  // Only buildings and places carry images, documents and media.
  return { feature, subject: { street: st.name, number: null, name, kind: 'place', year: current }, weight: type === 'PLACE' ? 2 : 0 };
}

/** `count` areas, in runs of a random length (as they were entered). */
export function makeAreas(maker: FeatureMaker, count: number): Draft[][] {
  const groups: Draft[][] = [];
  let batch: Draft[] = [];
  for (let i = 0; i < count; i++) {
    batch.push(makeArea(maker));
    if (maker.rng.chance(0.02) || i === count - 1) {
      groups.push(batch);
      batch = [];
    }
  }
  return groups;
}

function makeArea(maker: FeatureMaker): Draft {
  const { rng } = maker;
  const [address, postcode, lon, lat] = rng.pick(AREAS);
  const [x, y] = toLocal(lon, lat);
  const frame: Frame = { o: [x + rng.range(-300, 300), y + rng.range(-300, 300)], t: [1, 0], n: [0, 1] };
  const feature = maker.finish({
    feature_type: 'GREATER_WHITECHAPEL', b_number: null, b_name: null, street: null, postcode, address, current: null,
    site: null, categories: [], tags: [],
  }, areaShape(maker), frame, null);
  return { feature, subject: { street: null, number: null, name: null, kind: 'area', year: null }, weight: 0 };
}

/** A blob, sometimes with a detached rectangle beside it (a multi-part area). */
function areaShape({ rng }: FeatureMaker): Shape {
  if (!rng.chance(0.1)) return blobShape(rng, rng.range(20, 90));
  const blob = blobShape(rng, rng.range(20, 60));
  const detached = buildingShape(rng, 'rect', 30, 20).map((p) => p.map((ring) => ring.map(([u, v]): [number, number] => [u + 120, v + 90])));
  return [...blob, ...detached];
}

function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}
