// `npx tsx bench/tile-picture.ts [--layout sized] [--tile 13/4094/2723] [--out tile-budget.svg]`:
// one tile of a generated catalogue (test/support/tile-catalogues.ts, scale 10) drawn twice
// side by side as SVG, at full detail and as served within its budget (tiles/budget.ts):
// polygons filled, each point a dot sized by how many footprints it stands for. For docs/gis.md (Vector tiles).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { FULL_DETAIL, TILE_BUDGET_BYTES } from '../src/tiles/budget.js';
import { TileBuilder, type TileFeature } from '../src/tiles/encode.js';
import { TILE_BUFFER, TILE_EXTENT, tileBox, type TileAddress } from '../src/tiles/grid.js';
import { lonLatBox } from '../src/tiles/tile-geometry.js';
import { drawnAt } from '../test/support/tile-levels.js';
import { generateLayoutCatalogue, type Layout } from '../test/support/tile-catalogues.js';

const { values } = parseArgs({ options: { layout: { type: 'string', default: 'sized' }, tile: { type: 'string', default: '13/4094/2723' }, out: { type: 'string', default: 'tile-budget.svg' } } });
const [z, x, y] = values.tile.split('/').map(Number) as [number, number, number];
const tile: TileAddress = { z, x, y };
const catalogue = generateLayoutCatalogue({ scale: 10, seed: 1, layout: values.layout as Layout });
const [west, south, east, north] = tileBox(tile);
const features: TileFeature[] = catalogue.features
  .filter((f) => { const [a, b, c, d] = lonLatBox(f.geometry); return c >= west && a <= east && d >= south && b <= north; })
  .map((f) => ({ id: f.id, feature_type: f.feature_type, b_name: f.b_name, category: null, category_id: f.categories[0] ?? null, geometry: f.geometry }));
const builder = new TileBuilder(tile);
for (const feature of features) builder.add(feature);
const served = builder.finish();
const full = drawnAt(tile, features, FULL_DETAIL)!;

const SIZE = 480;
const scale = SIZE / (TILE_EXTENT + 2 * TILE_BUFFER);
const at = (v: number) => ((v + TILE_BUFFER) * scale).toFixed(1);

function panel(bytes: Buffer, dx: number, title: string): string {
  const layers = new VectorTile(new PbfReader(bytes)).layers;
  const shapes: string[] = [];
  const polygons = layers['features'];
  for (let i = 0; i < (polygons?.length ?? 0); i++) {
    const d = polygons!.feature(i).loadGeometry().map((ring) => `M${ring.map((p) => `${at(p.x)},${at(p.y)}`).join('L')}Z`).join('');
    shapes.push(`<path d="${d}"/>`);
  }
  const points = layers['points'];
  for (let i = 0; i < (points?.length ?? 0); i++) {
    const point = points!.feature(i);
    const p = point.loadGeometry()[0]![0]!;
    shapes.push(`<circle cx="${at(p.x)}" cy="${at(p.y)}" r="${(1 + Math.sqrt(Number(point.properties['count']))).toFixed(1)}"/>`);
  }
  return `<g transform="translate(${dx},40)"><rect width="${SIZE}" height="${SIZE}" fill="#f6f3ec" stroke="#999"/>
<g fill="#b5522d" fill-opacity="0.55" stroke="#7a2f14" stroke-width="0.3">${shapes.filter((s) => s.startsWith('<path')).join('')}</g>
<g fill="#1f5f8b" fill-opacity="0.8">${shapes.filter((s) => s.startsWith('<circle')).join('')}</g>
<text x="0" y="-12" font-family="sans-serif" font-size="15">${title}</text></g>`;
}

const kb = (bytes: Buffer) => `${(bytes.length / 1024).toFixed(0)} KiB`;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * SIZE + 60}" height="${SIZE + 60}" viewBox="0 0 ${2 * SIZE + 60} ${SIZE + 60}">
<rect width="100%" height="100%" fill="white"/>
${panel(full, 20, `Tile ${values.tile}, full detail: ${kb(full)}`)}
${panel(served.bytes!, SIZE + 40, `As served, level ${served.level} (budget ${TILE_BUDGET_BYTES / 1024} KiB): ${kb(served.bytes!)}`)}
</svg>
`;
fs.writeFileSync(values.out, svg);
console.log(`${values.out}: ${features.length} footprints; full detail ${full.length} bytes, served at level ${served.level} in ${served.bytes!.length} bytes`);
