// Catalogues whose footprints differ from the demo's, for the tile tests and `npm run bench
// -- --tiles / --apply --layout NAME`: the demo's records (authors, attachments, text) with
// every footprint drawn again by another generator, so that a target met only on the demo's
// street plots is not taken as met. Each is deterministic (a seed), over the demo's area.
import type { Catalogue, Feature, MultiPolygon, Position } from '../../src/catalogue/format.js';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { Rng } from '../../src/demo/random.js';

/** The demo's area (its footprints' extent at scale 10), in degrees. */
const WEST = -0.0836;
const SOUTH = 51.5014;
const EAST = -0.0325;
const NORTH = 51.5304;
const M_PER_DEG_LAT = 111_320;
const M_PER_DEG_LON = M_PER_DEG_LAT * Math.cos((51.516 * Math.PI) / 180);

export const LAYOUTS = ['demo', 'sized', 'dense', 'detailed'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const LAYOUT_DESCRIPTIONS: Record<Layout, string> = {
  demo: "the demo's own street plots",
  sized: 'footprints 24–72 m across anywhere in the area: 1–3 px at zoom 12, 2–6 px at 13, 4–12 px at 14 (each around the 2-pixel line at some zoom)',
  dense: 'two thirds of the footprints packed into a quarter of 450 × 320 m, 4–14 m across, 12–28 positions each; the rest spread',
  detailed: "demo-sized footprints (8–25 m) with 30–90 positions each, spread evenly: bytes per footprint, not count",
};

export interface LayoutOptions {
  scale: number;
  seed: number;
  layout: Layout;
  /**
   * The fraction of the area the footprints are drawn over (around its centre; 1: the whole),
   * so that a small catalogue has a large one's density: scale 1 over 0.1 is scale 10's.
   * Not for the demo layout, whose street plots are its own.
   */
  area?: number;
}

/** The demo catalogue of that scale and seed, its footprints drawn by the layout's generator. */
export function generateLayoutCatalogue({ scale, seed, layout, area = 1 }: LayoutOptions): Catalogue {
  const catalogue = generateDemoCatalogue({ scale, seed });
  if (layout === 'demo') return catalogue;
  const rng = new Rng(`heritage-tiles/${layout}/${seed}`);
  const draw = GENERATORS[layout];
  const placed = shrunk(Math.sqrt(area));
  catalogue.features = catalogue.features.map((feature: Feature, i) => ({ ...feature, geometry: placed(draw(rng, i, catalogue.features.length)) }));
  return catalogue;
}

/** Footprints moved towards the area's centre, their distances from it times `factor`; each keeps its shape and size. */
function shrunk(factor: number): (geometry: MultiPolygon) => MultiPolygon {
  const [lon0, lat0] = [(WEST + EAST) / 2, (SOUTH + NORTH) / 2];
  return (geometry) => {
    if (factor === 1) return geometry;
    const [lon, lat] = geometry.coordinates[0]![0]![0]!;
    const [dLon, dLat] = [(lon! - lon0) * (factor - 1), (lat! - lat0) * (factor - 1)];
    return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([x, y]) => [round(x! + dLon), round(y! + dLat)]))) };
  };
}

type Generator = (rng: Rng, index: number, total: number) => MultiPolygon;

const GENERATORS: Record<Exclude<Layout, 'demo'>, Generator> = {
  sized: (rng) => footprint(rng, anywhere(rng), rng.range(24, 72), rng.int(5, 9)),
  dense: (rng, index) => {
    const packed = index % 3 !== 2;
    const centre = packed ? within(rng, [-0.0612, 51.5128], 450, 320) : anywhere(rng);
    return footprint(rng, centre, rng.range(4, 14), rng.int(12, 28));
  },
  detailed: (rng) => footprint(rng, anywhere(rng), rng.range(8, 25), rng.int(30, 90)),
};

function anywhere(rng: Rng): Position {
  return [rng.range(WEST, EAST), rng.range(SOUTH, NORTH)];
}

/** A point within a box of width × height metres centred on `centre`. */
function within(rng: Rng, [lon, lat]: Position, width: number, height: number): Position {
  return [lon! + (rng.range(-0.5, 0.5) * width) / M_PER_DEG_LON, lat! + (rng.range(-0.5, 0.5) * height) / M_PER_DEG_LAT];
}

/**
 * A star-shaped ring of `corners` positions around a centre, `across` metres wide: each
 * corner at its own angle and radius, so no two footprints share a shape. Closed, and
 * counter-clockwise (either is allowed).
 */
function footprint(rng: Rng, [lon, lat]: Position, across: number, corners: number): MultiPolygon {
  const turn = rng.range(0, Math.PI * 2);
  const ring: Position[] = [];
  for (let i = 0; i < corners; i++) {
    const angle = turn + ((i + rng.range(0.1, 0.9)) / corners) * Math.PI * 2;
    const radius = (across / 2) * rng.range(0.7, 1);
    ring.push([round(lon! + (Math.cos(angle) * radius) / M_PER_DEG_LON), round(lat! + (Math.sin(angle) * radius) / M_PER_DEG_LAT)]);
  }
  ring.push([...ring[0]!]);
  return { type: 'MultiPolygon', coordinates: [[ring]] };
}

/** Seven decimals (about a centimetre), as survey data is given. */
const round = (v: number) => Math.round(v * 1e7) / 1e7;
