// Features of the demo catalogue: buildings along the streets, places (corners, yards,
// markets), open spaces and GREATER_WHITECHAPEL area features.

import { defaultSearchStr, type Feature, type FeatureType } from '../catalogue/format.js';
import { blobShape, buildingShape, frameAt, Line, toLocal, toMultiPolygon, type Frame, type Shape, type ShapeKind } from './geometry.js';
import { layoutPlots, type Plot } from './layout.js';
import { AREAS, STREETS, UNIT_LETTERS, type SiteDef, type StreetDef } from './places.js';
import type { Rng } from './random.js';
import { buildingName, type Subject } from './text.js';
import * as W from './words.js';

/** A feature before it has an id, with what the attachment and text generators need. */
export interface Draft {
  feature: Feature;
  subject: Subject;
  /** How likely the feature is to have images, documents and media (0: never). */
  weight: number;
}

export interface FeatureCounts {
  buildings: number;
  places: number;
  openSpaces: number;
  areas: number;
}

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

function eraTag(year: number | null): string | null {
  if (year === null || year < 1714) return null;
  return year < 1837 ? 'georgian' : year < 1901 ? 'victorian' : year < 1914 ? 'edwardian' : year < 1939 ? 'interwar' : 'postwar';
}

export function makeFeatures(rng: Rng, counts: FeatureCounts, sites: readonly { def: SiteDef; id: number; size: number }[], categoryIds: ReadonlyMap<string, number>): Draft[][] {
  const streetByName = new Map(STREETS.map((st) => [st.name, { st, line: new Line(st.pts) }]));
  const units = new Map<string, string>();
  const postcode = (street: StreetDef, side: number, seq: number): string => {
    const key = `${street.name}|${side}|${Math.floor(seq / 24)}`;
    let unit = units.get(key);
    if (unit === undefined) units.set(key, (unit = rng.chars(UNIT_LETTERS, 2)));
    return `${street.sector}${unit}`;
  };
  const siteIds = new Map(sites.map((s) => [s.def.name, s.id]));
  const category = (name: string): number => categoryIds.get(name) as number;
  const precision = () => [rng.pick([14, 15, 16]), rng.pick([14, 14, 15])] as const;
  const geometry = (shape: Shape, frame: Frame) => {
    const [lonDigits, latDigits] = precision();
    return toMultiPolygon(shape, frame, lonDigits, latDigits);
  };
  const finish = (f: Omit<Feature, 'id' | 'search_str' | 'geometry'>, shape: Shape, frame: Frame, rich: string | null): Feature => {
    const base = defaultSearchStr(f);
    return { id: 0, ...f, search_str: rich === null ? base : `${base} ${rich}`, geometry: geometry(shape, frame) };
  };
  const tagsFor = (first: readonly (string | null)[]): string[] => {
    const want = rng.weighted([[40, 0], [25, 1], [20, 2], [10, 3], [5, 4]]);
    const tags: string[] = [];
    for (const t of [...first.filter((x): x is string => x !== null && rng.chance(0.6)), ...Array.from({ length: 4 }, () => rng.pick(W.TAGS))]) {
      if (tags.length >= want) break;
      if (!tags.includes(t)) tags.push(t);
    }
    return tags;
  };
  const year = (): number | null => {
    if (rng.chance(0.12)) return null;
    const [lo, hi] = rng.weighted([[5, [1650, 1749]], [20, [1750, 1839]], [45, [1840, 1913]], [12, [1914, 1959]], [18, [1960, 2015]]] as const);
    return rng.int(lo, hi);
  };
  const usedNames = new Set<string>(sites.flatMap((site) => site.def.buildings));
  // An unnamed building's b_name is "" or null, as in the original (the first two show both).
  let unnamed = 0;
  const noName = (): string | null => (++unnamed <= 2 ? (unnamed === 1 ? '' : null) : rng.chance(0.55) ? '' : null);

  // Buildings, street side by street side.
  const groups: Draft[][] = [];
  // The first two buildings always show a courtyard (an inner ring) and a multi-part footprint.
  const forced: ShapeKind[] = ['courtyard', 'multi'];
  for (const side of layoutPlots(rng, counts.buildings, sites)) {
    if (side.length === 0) continue;
    groups.push(side.map((plot: Plot): Draft => {
      const kindRow = rng.weighted(W.KINDS.map((k) => [k[0], k] as const));
      const kind = plot.site?.kind ?? kindRow[1];
      const named = plot.siteBuilding !== null || rng.chance(kindRow[3]);
      const b_name = plot.siteBuilding ?? (named ? buildingName(rng, kind, plot.street.name, usedNames) : noName());
      const b_number = plot.site !== null ? (rng.chance(0.5) ? null : plot.b_number) : named && rng.chance(0.2) ? null : plot.b_number;
      const pc = postcode(plot.street, plot.side, plot.seq);
      const address = b_number !== null ? `${b_number} ${plot.street.name}, London ${pc}` : `${b_name}, ${plot.street.name}, London ${pc}`;
      const current = year();
      const cats: number[] = [];
      const primary = W.KIND_CATEGORY[kind] ?? W.KINDS.find((k) => k[1] === kind)?.[2] ?? null;
      if (primary !== null && (named ? rng.chance(0.9) : rng.chance(0.55))) cats.push(category(primary));
      if (kind === 'shop' && rng.chance(0.3)) cats.push(category('Housing'));
      if (rng.chance(0.06)) cats.push(category(rng.pick(W.CATEGORIES)[0]));
      if (cats.length > 0 && rng.chance(0.08)) cats.push(category('Lost buildings'));
      const categories = [...new Set(cats)].slice(0, 3);
      const tags = tagsFor([kind === 'housing' || kind === 'shop' ? null : kind, eraTag(current)]);
      const isForced = forced.length > 0;
      let shapeKind: ShapeKind = forced.shift() ?? rng.weighted([[48, 'rect'], [25, 'quad'], [15, 'L'], [5, 'courtyard'], [5, 'multi']] as const);
      let w = plot.width;
      let d = plot.site !== null ? rng.range(18, 26) : rng.range(9, 22);
      if (shapeKind === 'courtyard' && w < 11 && !isForced) {
        shapeKind = 'rect';
      } else if (shapeKind === 'courtyard') {
        d = Math.max(d, 18);
        w = Math.max(w, 12);
      }
      const frame = frameAt(plot.line, plot.mid, plot.side, plot.front);
      const rich = named && rng.chance(0.03) ? [...tags, `formerly ${buildingName(rng, kind, plot.street.name, usedNames)}`].join(' ') : null;
      const feature = finish({
        feature_type: 'WHITECHAPEL_BUILDING', b_number, b_name, street: plot.street.name, postcode: pc, address, current,
        site: plot.site === null ? null : (siteIds.get(plot.site.name) as number), categories, tags,
      }, buildingShape(rng, shapeKind, w, d), frame, rich);
      return { feature, subject: { street: plot.street.name, number: b_number, name: b_name || null, kind, year: current }, weight: 1 + (named ? 3 : 0) + (plot.site ? 4 : 0) + categories.length * 0.5 };
    }));
  }

  // Places and open spaces, each its own record in the database's history.
  const junctions: { a: StreetDef; b: StreetDef; at: number }[] = [];
  for (const { st: a, line } of streetByName.values()) {
    for (const at of [0, line.length]) {
      const p = line.at(at).p;
      for (const { st: b, line: other } of streetByName.values()) {
        if (b !== a && other.pts.some((q, i) => i > 0 && segmentDistance(p, other.pts[i - 1] as [number, number], q) < 30)) junctions.push({ a, b, at });
      }
    }
  }
  const onStreet = (name: string) => streetByName.get(name) ?? (streetByName.get('Whitechapel Road') as { st: StreetDef; line: Line });
  const place = (type: FeatureType, name: string, streetName: string, at: number | null, shape: Shape, setback: number, cat: string | null): Draft => {
    const { st, line } = onStreet(streetName);
    const d = at ?? rng.range(0.1, 0.9) * line.length;
    const side = rng.chance(0.5) ? 1 : -1;
    const pc = postcode(st, side, Math.round(d / 6));
    const current = type === 'OPEN_SPACE' && rng.chance(0.6) ? rng.int(1850, 2010) : null;
    const feature = finish({
      feature_type: type, b_number: null, b_name: name, street: st.name, postcode: pc,
      address: name.includes(st.name) ? `${name}, London ${pc}` : `${name}, ${st.name}, London ${pc}`, current,
      site: null, categories: cat !== null && rng.chance(0.8) ? [category(cat)] : [], tags: tagsFor([]),
    }, shape, frameAt(line, d, side, setback < 0 ? -st.half : st.half + setback), null);
    // Only buildings and places carry images, documents and media.
    return { feature, subject: { street: st.name, number: null, name, kind: 'place', year: current }, weight: type === 'PLACE' ? 2 : 0 };
  };
  for (let i = 0; i < counts.places; i++) {
    const form = rng.weighted([[35, 'corner'], [15, 'market'], [20, 'yard'], [30, 'numbered']] as const);
    const across = (st: string): Shape => buildingShape(rng, 'quad', rng.range(10, 30), 2 * onStreet(st).st.half);
    if (form === 'corner' && junctions.length > 0) {
      const j = rng.pick(junctions);
      groups.push([place('PLACE', `Corner of ${j.a.name} and ${j.b.name}`, j.a.name, Math.min(Math.max(j.at, 6), onStreet(j.a.name).line.length - 6), across(j.a.name), -1, null)]);
    } else if (form === 'market' || form === 'corner') {
      const [name, st] = rng.pick(MARKETS);
      groups.push([place('PLACE', name, st, null, across(st), -1, 'Markets')]);
    } else if (form === 'yard') {
      const [name, st] = rng.pick(YARDS);
      groups.push([place('PLACE', name, st, null, buildingShape(rng, 'quad', rng.range(6, 18), rng.range(10, 25)), 4, null)]);
    } else {
      const st = rng.pick(STREETS).name;
      const what = rng.pick(['Yard behind', 'Passage beside', 'Forecourt of', 'Site of', 'Archway at']);
      groups.push([place('PLACE', `${what} ${rng.int(1, 120)} ${st}`, st, null, buildingShape(rng, 'L', rng.range(6, 15), rng.range(8, 20)), 2, null)]);
    }
  }
  for (let i = 0; i < counts.openSpaces; i++) {
    const street = rng.pick(STREETS).name;
    const [name, st] = OPEN_SPACES[i] ?? [`${rng.pick(['Garden behind', 'Playground at'])} ${rng.int(1, 150)} ${street}`, street];
    const r = rng.range(15, 45);
    groups.push([place('OPEN_SPACE', name, st, null, blobShape(rng, r), r + 3, 'Open spaces')]);
  }

  // Greater Whitechapel: area features with nothing but an area name and an outline.
  let batch: Draft[] = [];
  for (let i = 0; i < counts.areas; i++) {
    const [address, postcode, lon, lat] = rng.pick(AREAS);
    const [x, y] = toLocal(lon, lat);
    const frame: Frame = { o: [x + rng.range(-300, 300), y + rng.range(-300, 300)], t: [1, 0], n: [0, 1] };
    const shape = rng.chance(0.1) ? [...blobShape(rng, rng.range(20, 60)), ...buildingShape(rng, 'rect', 30, 20).map((p) => p.map((ring) => ring.map(([u, v]): [number, number] => [u + 120, v + 90])))] : blobShape(rng, rng.range(20, 90));
    const feature = finish({
      feature_type: 'GREATER_WHITECHAPEL', b_number: null, b_name: null, street: null, postcode, address, current: null,
      site: null, categories: [], tags: [],
    }, shape, frame, null);
    batch.push({ feature, subject: { street: null, number: null, name: null, kind: 'area', year: null }, weight: 0 });
    if (rng.chance(0.02) || i === counts.areas - 1) groups.push(batch), (batch = []);
  }
  return groups;
}

function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}
