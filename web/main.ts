// The map explorer: reads /map/config.json, draws the map, and keeps the search, the panel
// and the URL's fragment (view, selected feature, search) in step.
import { setWorkerUrl, type Map as MapLibre } from 'maplibre-gl';
import { TILES_TEMPLATE_PATH } from '../src/constants.js';
import { ApiProblem, getJson } from './api.js';
import { categoryColours } from './colours.js';
import { MAP_CREATED_EVENT } from './events.js';
import { formatHash, parseHash, sameSearch, type HashState } from './hash.js';
import { MapLabels } from './labels.js';
import { renderLegend } from './legend.js';
import { addFootprints, createMap, currentView, featureIdsAt, geometryBounds, LAYERS, showSelected } from './map-view.js';
import { MatchOutlines } from './matches.js';
import { Panel } from './panel.js';
import { byId, Search } from './search.js';
import { StatusLine } from './status.js';
import { tileProblem } from './tile-problem.js';
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
  map.on('error', (event) => status.error('tiles', tileProblem(event.error)));

  const panel = new Panel({ base, onClose: () => select(null, null, true, false) });
  const search = new Search({
    base, status,
    onSearch: (query, page, fit) => {
      // Fitted to the matches listed first (the whole extent of a broad search would cost a scan of every match).
      const bounds = fit && page ? geometryBounds(page.results.features.map((f) => f.geometry)) : null;
      if (bounds) map.fitBounds(bounds, { padding: clearOfPanel(48), maxZoom: 18 });
      outlines.show(query);
    },
    onChoose: (feature, button) => {
      select(feature.id, button, true, false);
      flyTo(feature);
    },
    onFieldsChanged: () => writeHash(true),
  });
  const outlines = new MatchOutlines(map, base, (outlined) => search.setOutlined(outlined));
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

  function state(): HashState {
    return { view: currentView(map), feature: panel.featureId, search: search.fields() };
  }

  function writeHash(push: boolean): void {
    const url = `${location.pathname}${location.search}${formatHash(state())}`;
    if (url === `${location.pathname}${location.search}${location.hash}`) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  /** Opens (or closes) a feature's panel; `fly`: move the map to it once it is loaded. */
  function select(id: number | null, opener: HTMLElement | null, push: boolean, fly: boolean): void {
    showSelected(map, id);
    if (id === null) panel.close();
    else if (id !== panel.featureId) void panel.open(id, opener).then((feature) => fly && feature && flyTo(feature));
    else if (opener) byId('panel-title').focus();
    writeHash(push);
  }

  function flyTo(feature: ListedFeature): void {
    const bounds = geometryBounds([feature.geometry]);
    if (bounds) map.fitBounds(bounds, { padding: clearOfPanel(80), maxZoom: 18.5, duration: 800 });
  }

  /** Back, forward, or a fragment typed or pasted: show what it says. */
  function followHash(): void {
    const wanted = parseHash(location.hash);
    if (wanted.view && formatHash({ ...wanted, feature: null }) !== formatHash({ ...state(), feature: null })) {
      map.jumpTo({ center: [wanted.view.lon, wanted.view.lat], zoom: wanted.view.zoom });
    }
    if (!sameSearch(wanted.search, search.fields())) void search.show(wanted.search, wanted.view === null);
    if (wanted.feature !== panel.featureId) {
      showSelected(map, wanted.feature);
      if (wanted.feature === null) panel.close();
      else void panel.open(wanted.feature, null).then((feature) => wanted.view === null && feature && flyTo(feature));
    }
  }

  map.on('load', () => {
    addFootprints(map, config, colours);
    void new MapLabels(map, base).start();
    // A shared link: its search (fitted when it names no view), then its feature (flown to when it names no view).
    if (!sameSearch(initial.search, search.fields())) void search.show(initial.search, initial.view === null && initial.feature === null);
    if (initial.feature !== null) select(initial.feature, null, false, initial.view === null);
    else writeHash(false);
    document.body.dataset.ready = 'true';
  });
  map.on('moveend', () => writeHash(false));
  map.on('click', (event) => {
    const [id] = featureIdsAt(map, event.point);
    if (id !== undefined) select(id, map.getCanvas(), true, false);
  });
  map.on('mousemove', LAYERS.fill, () => (map.getCanvas().style.cursor = 'pointer'));
  map.on('mouseleave', LAYERS.fill, () => (map.getCanvas().style.cursor = ''));
  window.addEventListener('popstate', followHash);
  window.addEventListener('hashchange', followHash);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !byId<HTMLDialogElement>('lightbox').open && panel.featureId !== null) select(null, null, true, false);
  });
}

void start();
