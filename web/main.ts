// The map explorer: reads /map/config.json, draws the map, and keeps the search, the panel
// and the URL's fragment (view + selected feature) in step.
import { setWorkerUrl, type Map as MapLibre } from 'maplibre-gl';
import { TILES_TEMPLATE_PATH } from '../src/constants.js';
import { ApiProblem, getJson } from './api.js';
import { categoryColours } from './colours.js';
import { MAP_CREATED_EVENT } from './events.js';
import { formatHash, parseHash } from './hash.js';
import { renderLegend } from './legend.js';
import { addFootprints, createMap, currentView, featureIdsAt, geometryBounds, LAYERS, showMatches, showSelected } from './map-view.js';
import { Panel } from './panel.js';
import { byId, Search } from './search.js';
import { StatusLine } from './status.js';
import type { ListedFeature, MapConfig } from './types.js';

const base = document.documentElement.dataset.base ?? '';
const status = new StatusLine(byId('status'));

async function loadConfig(): Promise<MapConfig | null> {
  try {
    return await getJson<MapConfig>(`${base}/map/config.json`, {
      onSlow: () => status.info('catalogue', 'Loading the catalogue… the server is slow to answer.'),
    });
  } catch (error) {
    const reason = error instanceof ApiProblem ? error.message : 'something went wrong';
    status.error('catalogue', `The catalogue’s overview could not be loaded: ${reason}. The map may be incomplete.`, {
      label: 'Reload', run: () => location.reload(),
    });
    return null;
  }
}

async function start(): Promise<void> {
  const worker = document.querySelector<HTMLMetaElement>('meta[name="maplibre-worker"]')?.content;
  if (worker) setWorkerUrl(worker);
  status.info('catalogue', 'Loading the catalogue…');
  const loaded = await loadConfig();
  const config: MapConfig = loaded ?? { extent: null, tiles: `${location.origin}${base}${TILES_TEMPLATE_PATH}`, basemap: null, categories: [] };
  if (loaded) status.clear('catalogue');
  if (loaded && loaded.extent === null) status.info('catalogue', 'The catalogue is empty: there are no buildings or places to show yet.');

  const colours = categoryColours(config.categories);
  const initial = parseHash(location.hash);
  const map = createMap(byId('map'), config, initial.view);
  // Announced, not kept in a global: whoever wants the map (the browser tests) listens for it.
  byId('map').dispatchEvent(new CustomEvent<MapLibre>(MAP_CREATED_EVENT, { detail: map, bubbles: true }));
  map.on('error', (event) => {
    const message = event.error?.message ?? '';
    status.error('tiles', `Part of the map could not be drawn${message ? `: ${message}` : ''}.`);
  });

  const panel = new Panel({ base, onClose: () => select(null, null, true) });
  const search = new Search({
    base, status,
    onMatches: (features, fit) => {
      showMatches(map, features === null ? null : features.map((f) => f.id));
      const bounds = features && fit ? geometryBounds(features.map((f) => f.geometry)) : null;
      if (bounds) map.fitBounds(bounds, { padding: clearOfPanel(48), maxZoom: 18 });
    },
    onChoose: (feature, button) => flyTo(feature, button),
  });
  search.setCategories(config.categories);
  renderLegend(byId('legend-list'), config.categories, colours, (id) => search.searchCategory(id));

  /** Padding that keeps what is fitted out from under the panel, wherever it covers the map. */
  function clearOfPanel(padding: number): { top: number; right: number; bottom: number; left: number } {
    const room = { top: padding, right: padding, bottom: padding, left: padding };
    if (panel.element.hidden) return room;
    const mapBox = byId('map').getBoundingClientRect();
    const panelBox = panel.element.getBoundingClientRect();
    if (panelBox.width < mapBox.width * 0.7) room.right += Math.max(0, mapBox.right - panelBox.left);
    else room.bottom += Math.max(0, mapBox.bottom - panelBox.top);
    return room;
  }

  function writeHash(push: boolean): void {
    const url = `${location.pathname}${location.search}${formatHash({ view: currentView(map), feature: panel.featureId })}`;
    if (url === `${location.pathname}${location.search}${location.hash}`) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  function select(id: number | null, opener: HTMLElement | null, push: boolean): void {
    showSelected(map, id);
    if (id === null) panel.close();
    else if (id !== panel.featureId) void panel.open(id, opener);
    else if (opener) byId('panel-title').focus();
    writeHash(push);
  }

  function flyTo(feature: ListedFeature, button: HTMLElement): void {
    select(feature.id, button, true);
    const bounds = geometryBounds([feature.geometry]);
    if (bounds) map.fitBounds(bounds, { padding: clearOfPanel(80), maxZoom: 18.5, duration: 800 });
  }

  /** Back, forward, or a fragment typed by hand: show what it says. */
  function followHash(): void {
    const wanted = parseHash(location.hash);
    if (wanted.view && formatHash({ view: wanted.view, feature: null }) !== formatHash({ view: currentView(map), feature: null })) {
      map.jumpTo({ center: [wanted.view.lon, wanted.view.lat], zoom: wanted.view.zoom });
    }
    if (wanted.feature !== panel.featureId) {
      showSelected(map, wanted.feature);
      if (wanted.feature === null) panel.close();
      else void panel.open(wanted.feature, null);
    }
  }

  map.on('load', () => {
    addFootprints(map, config, colours);
    if (initial.feature !== null) select(initial.feature, null, false);
    else writeHash(false);
    document.body.dataset.ready = 'true';
  });
  map.on('moveend', () => writeHash(false));
  map.on('click', (event) => {
    const [id] = featureIdsAt(map, event.point);
    if (id !== undefined) select(id, map.getCanvas(), true);
  });
  map.on('mousemove', LAYERS.fill, () => (map.getCanvas().style.cursor = 'pointer'));
  map.on('mouseleave', LAYERS.fill, () => (map.getCanvas().style.cursor = ''));
  window.addEventListener('popstate', followHash);
  window.addEventListener('hashchange', followHash);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !byId<HTMLDialogElement>('lightbox').open && panel.featureId !== null) select(null, null, true);
  });
}

void start();
