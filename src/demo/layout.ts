// Lays building plots out along the demo streets: both sides of each street, numbered from
// the City end (odd on the left, even on the right), with yards and back-land rows behind
// the frontage when a large scale asks for more buildings than a street can front.

import { Line } from './geometry.js';
import { STREETS, type SiteDef, type StreetDef } from './places.js';
import type { Rng } from './random.js';

export interface Plot {
  street: StreetDef;
  line: Line;
  /** 1 = left of the centre line, -1 = right. */
  side: 1 | -1;
  row: number;
  /** Centre of the frontage, metres along the street, and its width. */
  mid: number;
  width: number;
  /** Distance from the centre line to the front wall. */
  front: number;
  plots: number;
  b_number: string;
  /** The number the postcode unit follows. */
  seq: number;
  site: SiteDef | null;
  siteBuilding: string | null;
}

const MIN_PLOT = 4.2;
const MAX_PLOT = 9;
export const ROW_DEPTH = 30;
const REAR = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

interface Item {
  plots: number;
  gap: number;
  site: SiteDef | null;
  siteBuilding: string | null;
}

/** A street side with the sites on it, its share of frontage and how many buildings it gets. */
interface Side {
  street: StreetDef;
  line: Line;
  side: 1 | -1;
  sites: readonly { def: SiteDef; size: number }[];
  weight: number;
  count: number;
}

/** Where plots may go along a side: the margin kept at each end and the length between. */
interface Frontage {
  margin: number;
  usable: number;
}

/** Street sides in layout order, each with the plots on it. */
export function layoutPlots(rng: Rng, count: number, sites: readonly { def: SiteDef; size: number }[]): Plot[][] {
  const sides = streetSides(rng, sites);
  apportion(sides, count);
  return sides.map((side) => (side.count === 0 ? [] : sidePlots(rng, side)));
}

function streetSides(rng: Rng, sites: readonly { def: SiteDef; size: number }[]): Side[] {
  return STREETS.flatMap((street) => {
    const line = new Line(street.pts);
    return ([1, -1] as const).map((side) => ({
      street,
      line,
      side,
      sites: sites.filter((s) => s.def.street === street.name && (s.def.side === 0 ? 1 : -1) === side),
      weight: line.length * rng.range(0.6, 1.4),
      count: 0,
    }));
  });
}

/** Sites first, then the rest by largest remainder in proportion to frontage. */
function apportion(sides: Side[], count: number): void {
  for (const side of sides) side.count = siteBuildings(side);
  const rest = Math.max(0, count - sides.reduce((sum, side) => sum + side.count, 0));
  const totalWeight = sides.reduce((sum, side) => sum + side.weight, 0);
  const quotas = sides.map((side) => (rest * side.weight) / totalWeight);
  let given = 0;
  sides.forEach((side, i) => {
    const whole = Math.floor(quotas[i] ?? 0);
    side.count += whole;
    given += whole;
  });
  const byRemainder = sides.map((_, i) => i).sort((a, b) => ((quotas[b] ?? 0) % 1) - ((quotas[a] ?? 0) % 1) || a - b);
  for (let k = 0; given < rest; k++, given++) {
    const side = sides[byRemainder[k % sides.length] ?? 0];
    if (side !== undefined) side.count++;
  }
}

function siteBuildings(side: Side): number {
  return side.sites.reduce((sum, s) => sum + s.size, 0);
}

/** A side's plots: rows of plain plots (back-land rows when the frontage is full), site blocks in the front row. */
function sidePlots(rng: Rng, side: Side): Plot[] {
  const siteCount = siteBuildings(side);
  const items = plainItems(rng, side.count - siteCount);
  const margin = Math.min(12, side.line.length * 0.1);
  const frontage = { margin, usable: side.line.length - 2 * margin };
  const totalPlots = items.reduce((sum, it) => sum + it.plots + it.gap, 0) + siteCount * 4;
  const rows = Math.max(1, Math.ceil((totalPlots * MIN_PLOT) / frontage.usable));
  const perRow = Math.ceil(items.length / rows);
  const rowItems = Array.from({ length: rows }, (_, r) => items.slice(r * perRow, (r + 1) * perRow));
  placeSites(rng, side, rowItems[0] ?? []);
  return rowItems.flatMap((row, r) => rowPlots(rng, side, row, r, frontage));
}

function plainItems(rng: Rng, count: number): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < count; i++) {
    items.push({ plots: rng.weighted([[55, 1], [30, 2], [10, 3], [5, rng.int(4, 6)]]), gap: rng.weighted([[82, 0], [13, 1], [5, 2]]), site: null, siteBuilding: null });
  }
  return items;
}

/** Site blocks go into the front row at their place along the street. */
function placeSites(rng: Rng, side: Side, front: Item[]): void {
  for (const { def, size } of [...side.sites].sort((a, b) => b.def.at - a.def.at)) {
    const block: Item[] = [];
    for (let i = 0; i < size; i++) {
      block.push({ plots: rng.int(3, 6), gap: 0, site: def, siteBuilding: def.buildings[i % def.buildings.length] ?? null });
    }
    front.splice(Math.round(def.at * front.length), 0, ...block);
  }
}

/** One row's plots, numbered from the City end (odd on the left); rear rows as 12A, 12B… */
function rowPlots(rng: Rng, side: Side, row: readonly Item[], r: number, { margin, usable }: Frontage): Plot[] {
  const rowWidth = row.reduce((sum, it) => sum + it.plots + it.gap, 0);
  const plotW = Math.min(MAX_PLOT, usable / Math.max(rowWidth, 1));
  const start = margin + rng.next() * Math.max(0, usable - rowWidth * plotW);
  const out: Plot[] = [];
  let at = 0;
  let n = side.side === 1 ? 1 : 2;
  for (const it of row) {
    const range = it.plots >= 2 && r === 0 && rng.chance(0.75);
    const b_number = r > 0 ? `${n}${REAR[(r - 1) % REAR.length]}` : range ? `${n}-${n + 2 * (it.plots - 1)}` : `${n}`;
    out.push({
      street: side.street, line: side.line, side: side.side, row: r,
      mid: start + (at + it.plots / 2) * plotW, width: it.plots * plotW - 0.1,
      front: side.street.half + r * ROW_DEPTH, plots: it.plots, b_number, seq: n,
      site: it.site, siteBuilding: it.siteBuilding,
    });
    at += it.plots + it.gap;
    n += 2 * (it.plots + it.gap);
  }
  return out;
}
