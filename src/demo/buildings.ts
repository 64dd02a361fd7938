// The demo's buildings (WHITECHAPEL_BUILDING), street side by street side: who they are
// (name, number, address, year), what they are (categories, tags) and their footprint.
import { frameAt, buildingShape, type ShapeKind } from './geometry.js';
import type { Draft, FeatureMaker } from './feature-maker.js';
import { layoutPlots, type Plot } from './layout.js';
import { buildingName } from './text.js';
import * as W from './words.js';

/** What a building is called and where, before its categories and footprint. */
interface Identity {
  kind: string;
  named: boolean;
  b_name: string | null;
  b_number: string | null;
  postcode: string;
  address: string;
  current: number | null;
}

/** `count` buildings in groups, one group per street side. */
export function makeBuildings(maker: FeatureMaker, count: number): Draft[][] {
  const groups: Draft[][] = [];
  // The first two buildings always show a courtyard (an inner ring) and a multi-part footprint.
  const forced: ShapeKind[] = ['courtyard', 'multi'];
  for (const side of layoutPlots(maker.rng, count, maker.sites)) {
    if (side.length > 0) groups.push(side.map((plot) => makeBuilding(maker, plot, forced)));
  }
  return groups;
}

function makeBuilding(maker: FeatureMaker, plot: Plot, forced: ShapeKind[]): Draft {
  const { rng } = maker;
  const who = identity(maker, plot);
  const { kind, named, b_name, b_number, current } = who;
  const categories = categoriesOf(maker, kind, named);
  const tags = maker.tags([kind === 'housing' || kind === 'shop' ? null : kind, eraTag(current)]);
  const { shapeKind, w, d } = footprintSize(maker, plot, forced);
  const frame = frameAt(plot.line, plot.mid, plot.side, plot.front);
  const rich = named && rng.chance(0.03) ? [...tags, `formerly ${buildingName(rng, kind, plot.street.name, maker.usedNames)}`].join(' ') : null;
  const feature = maker.finish({
    feature_type: 'WHITECHAPEL_BUILDING', b_number, b_name, street: plot.street.name, postcode: who.postcode, address: who.address, current,
    site: plot.site === null ? null : maker.siteId(plot.site.name), categories, tags,
  }, buildingShape(rng, shapeKind, w, d), frame, rich);
  const weight = 1 + (named ? 3 : 0) + (plot.site ? 4 : 0) + categories.length * 0.5;
  return { feature, subject: { street: plot.street.name, number: b_number, name: b_name || null, kind, year: current }, weight };
}

function identity(maker: FeatureMaker, plot: Plot): Identity {
  const { rng } = maker;
  const kindRow = rng.weighted(W.KINDS.map((k) => [k[0], k] as const));
  const kind = plot.site?.kind ?? kindRow[1];
  const named = plot.siteBuilding !== null || rng.chance(kindRow[3]);
  const b_name = plot.siteBuilding ?? (named ? buildingName(rng, kind, plot.street.name, maker.usedNames) : maker.noName());
  const b_number = plot.site !== null ? (rng.chance(0.5) ? null : plot.b_number) : named && rng.chance(0.2) ? null : plot.b_number;
  const postcode = maker.postcode(plot.street, plot.side, plot.seq);
  const address = b_number !== null ? `${b_number} ${plot.street.name}, London ${postcode}` : `${b_name}, ${plot.street.name}, London ${postcode}`;
  return { kind, named, b_name, b_number, postcode, address, current: maker.year() };
}

/** At most three: the kind's own category, sometimes Housing, another, or Lost buildings. */
function categoriesOf(maker: FeatureMaker, kind: string, named: boolean): number[] {
  const { rng } = maker;
  const ids: number[] = [];
  const primary = W.KIND_CATEGORY[kind] ?? W.KINDS.find((k) => k[1] === kind)?.[2] ?? null;
  if (primary !== null && (named ? rng.chance(0.9) : rng.chance(0.55))) ids.push(maker.category(primary));
  if (kind === 'shop' && rng.chance(0.3)) ids.push(maker.category('Housing'));
  if (rng.chance(0.06)) ids.push(maker.category(rng.pick(W.CATEGORIES)[0]));
  if (ids.length > 0 && rng.chance(0.08)) ids.push(maker.category('Lost buildings'));
  return [...new Set(ids)].slice(0, 3);
}

/** The footprint's kind and size: deeper on a site; a courtyard needs room for its yard. */
function footprintSize(maker: FeatureMaker, plot: Plot, forced: ShapeKind[]): { shapeKind: ShapeKind; w: number; d: number } {
  const { rng } = maker;
  const isForced = forced.length > 0;
  const shapeKind: ShapeKind = forced.shift() ?? rng.weighted([[48, 'rect'], [25, 'quad'], [15, 'L'], [5, 'courtyard'], [5, 'multi']] as const);
  const w = plot.width;
  const d = plot.site !== null ? rng.range(18, 26) : rng.range(9, 22);
  if (shapeKind !== 'courtyard') return { shapeKind, w, d };
  if (w < 11 && !isForced) return { shapeKind: 'rect', w, d };
  return { shapeKind, w: Math.max(w, 12), d: Math.max(d, 18) };
}

function eraTag(year: number | null): string | null {
  if (year === null || year < 1714) return null;
  return year < 1837 ? 'georgian' : year < 1901 ? 'victorian' : year < 1914 ? 'edwardian' : year < 1939 ? 'interwar' : 'postwar';
}
