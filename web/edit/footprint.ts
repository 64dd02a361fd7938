// The footprint field of the editors' record form (src/render/edit/footprint-field.ts) made a
// map: MapLibre over the site's own tiles, the footprint drawn and edited with terra-draw.
// The textarea stays what the form sends: every change on the map is written into it, and
// a text typed into it that reads as a footprint is drawn. Without this script the textarea
// works alone.
import { setWorkerUrl, type Map as MapLibre } from 'maplibre-gl';
import { TerraDraw, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { TILES_TEMPLATE_PATH } from '../../src/constants.js';
import { formatFootprint, parseFootprint, roundCoordinate, type Polygon, type Position, type Ring } from '../../src/editing/footprint-text.js';
import { MAP_CREATED_EVENT } from '../events.js';
import { addFootprints, createMap } from '../map-view.js';
import type { MapConfig } from '../types.js';
import { assemble, boundsOf, shapesOf } from './footprint-geometry.js';
import { buildControls, MODES, type Controls, type Mode } from './footprint-controls.js';
import './footprint.css';

/** MapLibre's worker, beside this bundle in /map/assets/: its hashed name is set by scripts/build-web.mjs. */
declare const FOOTPRINT_WORKER: string;

const PART = '#1d4ed8';
const HOLE = '#b91c1c';
const DRAWN = { fillOpacity: 0.25, outlineWidth: 2, closingPointColor: '#ffffff', closingPointOutlineWidth: 2, coordinatePointColor: '#ffffff' } as const;
/** A building fitted this close at most: a street's width around it, its neighbours in view. */
const FIT_MAX_ZOOM = 19;
const FIT_PADDING = 40;
const SHAPE_FLAGS = { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true } } };

async function loadConfig(): Promise<MapConfig> {
  try {
    const response = await fetch(new URL('../config.json', import.meta.url), { headers: { accept: 'application/json' } });
    if (response.ok) return (await response.json()) as MapConfig;
  } catch {
    // The map still draws the footprint, over the tiles at their usual place.
  }
  const base = new URL('../../', import.meta.url).href.replace(/\/$/, '');
  return { extent: null, tiles: `${base}${TILES_TEMPLATE_PATH}`, basemap: null, categories: [] };
}

/** Numbers for feature ids, not terra-draw's UUIDs: MapLibre keeps a drawn feature's id only when it is a number. */
function counterIds() {
  let last = 0;
  return { getId: () => ++last, isValidId: (id: unknown) => typeof id === 'number' && Number.isInteger(id) };
}

function createDraw(map: MapLibre): TerraDraw {
  return new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map, coordinatePrecision: 7 }),
    idStrategy: counterIds(),
    modes: [
      new TerraDrawSelectMode({ flags: { [MODES.part]: SHAPE_FLAGS, [MODES.hole]: SHAPE_FLAGS } }),
      new TerraDrawPolygonMode({ modeName: MODES.part, styles: { ...DRAWN, fillColor: PART, outlineColor: PART, closingPointOutlineColor: PART, coordinatePointOutlineColor: PART } }),
      new TerraDrawPolygonMode({ modeName: MODES.hole, styles: { ...DRAWN, fillColor: '#ffffff', fillOpacity: 0.6, outlineColor: HOLE, closingPointOutlineColor: HOLE, coordinatePointOutlineColor: HOLE } }),
    ],
  });
}

/** The drawing's finished shapes (not the one being drawn, nor the handles). */
function shapes(draw: TerraDraw): GeoJSONStoreFeatures[] {
  return draw.getSnapshot().filter((f) => f.geometry.type === 'Polygon' && (f.properties.mode === MODES.part || f.properties.mode === MODES.hole) && !f.properties.currentlyDrawing);
}

function outline(feature: GeoJSONStoreFeatures): Ring {
  const ring = feature.geometry.type === 'Polygon' ? feature.geometry.coordinates[0] ?? [] : [];
  return ring.map((p): Position => [p[0] ?? NaN, p[1] ?? NaN]);
}

class FootprintEditor {
  private selected: string | number | null = null;

  constructor(private readonly draw: TerraDraw, private readonly map: MapLibre, private readonly controls: Controls, private readonly config: MapConfig) {}

  start(initial: Polygon[]): void {
    this.show(initial);
    // Changes the page makes itself (origin 'api') are written where they are made.
    this.draw.on('change', (_ids, type, context) => {
      if (type !== 'styling' && !(context && 'origin' in context)) this.writeText();
    });
    this.draw.on('finish', () => this.writeText());
    this.draw.on('select', (id) => this.setSelected(id));
    this.draw.on('deselect', () => this.setSelected(null));
    this.controls.onMode = (mode) => this.setMode(mode);
    this.controls.onDelete = () => this.deleteSelected();
    this.controls.onFit = () => this.fit();
    this.controls.textarea.addEventListener('input', () => this.readText());
    this.setMode(MODES.select);
    this.controls.field.dataset.ready = 'true';
  }

  private setMode(mode: Mode): void {
    this.draw.setMode(mode);
    this.controls.showMode(mode);
  }

  private setSelected(id: string | number | null): void {
    this.selected = id;
    this.controls.deleteButton.disabled = id === null;
  }

  private deleteSelected(): void {
    if (this.selected === null) return;
    const id = this.selected;
    this.draw.deselectFeature(id);
    this.draw.removeFeatures([id]);
    this.writeText();
  }

  /** The drawing written into the textarea (empty when nothing is drawn). */
  private writeText(): void {
    const drawn = shapes(this.draw);
    const { polygons, orphans } = assemble({
      parts: drawn.filter((f) => f.properties.mode === MODES.part).map(outline),
      holes: drawn.filter((f) => f.properties.mode === MODES.hole).map(outline),
    });
    const text = polygons.length === 0 ? '' : formatFootprint(polygons);
    if (this.controls.textarea.value !== text) this.controls.textarea.value = text;
    this.count(drawn);
    this.controls.problem(orphans === 0 ? null : `${orphans === 1 ? 'A hole lies' : `${orphans} holes lie`} outside every part and ${orphans === 1 ? 'is' : 'are'} left out of the text: move ${orphans === 1 ? 'it' : 'them'} inside a part, or delete ${orphans === 1 ? 'it' : 'them'}.`);
  }

  /** The textarea's footprint drawn, when it reads as one; otherwise the map keeps the last. */
  private readText(): void {
    const parsed = parseFootprint(this.controls.textarea.value);
    if (!parsed.ok) return this.controls.problem(`The map shows the last footprint it could read (a change on the map replaces the text): ${parsed.problem}.`);
    this.show(parsed.polygons);
  }

  private show(polygons: Polygon[]): void {
    const old = this.draw.getSnapshot().filter((f) => f.properties.mode === MODES.part || f.properties.mode === MODES.hole).map((f) => f.id).filter((id) => id !== undefined);
    if (this.selected !== null) this.draw.deselectFeature(this.selected);
    this.draw.removeFeatures(old);
    const { parts, holes } = shapesOf(polygons);
    const features = [...parts.map((ring) => this.feature(ring, MODES.part)), ...holes.map((ring) => this.feature(ring, MODES.hole))];
    const refused = this.draw.addFeatures(features).filter((result) => !result.valid);
    this.count(shapes(this.draw));
    this.controls.problem(refused.length === 0 ? null : `The map could not draw ${refused.length} ring${refused.length === 1 ? '' : 's'} of the text: ${refused[0]?.reason ?? 'not a ring'}.`);
  }

  private feature(ring: Ring, mode: Mode): GeoJSONStoreFeatures {
    // terra-draw refuses positions finer than its precision: drawn rounded, the text left as typed.
    const rounded = ring.map(([x, y]) => [roundCoordinate(x), roundCoordinate(y)]);
    return { id: this.draw.getFeatureId(), type: 'Feature', geometry: { type: 'Polygon', coordinates: [rounded] }, properties: { mode } };
  }

  private count(drawn: GeoJSONStoreFeatures[]): void {
    const { field } = this.controls;
    field.dataset.parts = String(drawn.filter((f) => f.properties.mode === MODES.part).length);
    field.dataset.holes = String(drawn.filter((f) => f.properties.mode === MODES.hole).length);
  }

  private fit(): void {
    const bounds = boundsOf(shapes(this.draw).filter((f) => f.properties.mode === MODES.part).map((f) => [outline(f)])) ?? this.config.extent;
    if (bounds) this.map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM });
  }
}

async function enhance(field: HTMLElement): Promise<void> {
  const textarea = field.querySelector('textarea');
  if (!textarea) return;
  const controls = buildControls(field, textarea);
  const config = await loadConfig();
  const parsed = parseFootprint(textarea.value);
  const initial = parsed.ok ? parsed.polygons : [];
  if (!parsed.ok) controls.problem(`The text could not be drawn (a change on the map replaces it): ${parsed.problem}.`);
  // Opens on the footprint, close enough to see its neighbours, or on the whole catalogue for a new building.
  const footprint = boundsOf(initial);
  const map = createMap(controls.mapElement, { ...config, extent: footprint ?? config.extent }, null);
  if (footprint) map.fitBounds(footprint, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, animate: false });
  controls.mapElement.dispatchEvent(new CustomEvent<MapLibre>(MAP_CREATED_EVENT, { detail: map, bubbles: true }));
  map.once('load', () => {
    addFootprints(map, config, new Map());
    const draw = createDraw(map);
    draw.on('ready', () => new FootprintEditor(draw, map, controls, config).start(initial));
    draw.start();
  });
}

setWorkerUrl(new URL(FOOTPRINT_WORKER, import.meta.url).href);
for (const field of document.querySelectorAll<HTMLElement>('[data-footprint]')) void enhance(field);
