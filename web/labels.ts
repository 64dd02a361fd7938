// Labels from the catalogue's own names, as HTML over the map (no glyph server to ask):
// street names along their buildings from zoom 15.5 (/map/streets.json, read once), and
// building numbers or names from zoom 17 (/map/labels.json for the view, read as it moves).
// Only the labels inside the view are in the page; they let clicks through to the map.
import { Marker, type Map as MapLibre } from 'maplibre-gl';
import { MAP_LABELS_PATH, MAP_STREETS_PATH } from '../src/constants.js';
import { getJson, isAbort, withQuery } from './api.js';
import type { BuildingLabels, StreetLabels } from './types.js';

export const STREET_LABEL_ZOOM = 15.5;
export const BUILDING_LABEL_ZOOM = 17;

interface Label {
  key: string;
  lon: number;
  lat: number;
  make(): HTMLElement;
}

export class MapLabels {
  private streets: StreetLabels['streets'] = [];
  private buildings: BuildingLabels['buildings'] = [];
  private readonly shown = new Map<string, Marker>();
  private controller: AbortController | null = null;

  constructor(private readonly map: MapLibre, private readonly base: string) {
    map.on('moveend', () => void this.update());
  }

  async start(): Promise<void> {
    try {
      this.streets = (await getJson<StreetLabels>(`${this.base}${MAP_STREETS_PATH}`)).streets;
    } catch {
      // Labels are a help, not the map: without them the footprints still show.
    }
    await this.update();
  }

  private async update(): Promise<void> {
    const zoom = this.map.getZoom();
    if (zoom >= BUILDING_LABEL_ZOOM) await this.loadBuildings();
    else this.buildings = [];
    const inView = this.visible(zoom);
    for (const [key, marker] of this.shown) if (!inView.has(key)) {
      marker.remove();
      this.shown.delete(key);
    }
    for (const [key, label] of inView) if (!this.shown.has(key)) {
      this.shown.set(key, new Marker({ element: label.make(), anchor: 'center' }).setLngLat([label.lon, label.lat]).addTo(this.map));
    }
  }

  private async loadBuildings(): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    const b = this.map.getBounds();
    const bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((n) => n.toFixed(6)).join(',');
    try {
      this.buildings = (await getJson<BuildingLabels>(withQuery(`${this.base}${MAP_LABELS_PATH}`, { bbox }), { signal: controller.signal })).buildings;
    } catch (error) {
      if (!isAbort(error)) this.buildings = [];
    }
  }

  private visible(zoom: number): Map<string, Label> {
    const bounds = this.map.getBounds();
    const labels: Label[] = [];
    if (zoom >= STREET_LABEL_ZOOM) {
      labels.push(...this.streets.map((s) => ({ key: `s:${s.name}:${s.lon}:${s.lat}`, lon: s.lon, lat: s.lat, make: () => streetElement(s.name, s.angle) })));
    }
    labels.push(...this.buildings.map((b) => ({ key: `b:${b.id}`, lon: b.lon, lat: b.lat, make: () => buildingElement(b.text) })));
    return new Map(labels.filter((l) => bounds.contains([l.lon, l.lat])).map((l) => [l.key, l]));
  }
}

function streetElement(name: string, angle: number): HTMLElement {
  const outer = document.createElement('div');
  outer.className = 'street-label';
  const inner = document.createElement('span');
  inner.textContent = name;
  // The marker positions the outer box; the inner one turns along the street.
  inner.style.transform = `rotate(${angle}deg)`;
  outer.append(inner);
  return outer;
}

function buildingElement(text: string): HTMLElement {
  const div = document.createElement('div');
  div.className = 'building-label';
  div.textContent = text;
  return div;
}
