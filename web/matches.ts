// A search's matches outlined on the map: those meeting the view (/map/matches.json with the
// view's box), asked again when the view has moved, so that an answer is bounded by what the
// map shows however many the search matches in the whole catalogue. A view holding too many
// footprints outlines none (the answer says `wide`): the reader is asked to zoom in.
import type { Map as MapLibre } from 'maplibre-gl';
import { MAP_MATCHES_PATH } from '../src/constants.js';
import { getJson, isAbort, withQuery } from './api.js';
import { showMatches } from './map-view.js';
import type { MatchIds } from './types.js';

/** How many matches are outlined in the view; `wide`: none, the view holds too many footprints; null: not known (yet). */
export type Outlined = number | 'wide' | null;

export class MatchOutlines {
  private query: Record<string, string | undefined> | null = null;
  private controller: AbortController | null = null;
  /** The last URL asked: a move that ends where it began asks nothing. */
  private asked = '';

  constructor(private readonly map: MapLibre, private readonly base: string, private readonly onOutlined: (outlined: Outlined) => void) {
    map.on('moveend', () => void this.update());
  }

  /** A new search's API parameters (null: no search). */
  show(query: Record<string, string | undefined> | null): void {
    this.query = query;
    this.asked = '';
    void this.update();
  }

  private async update(): Promise<void> {
    if (this.query === null) {
      this.controller?.abort();
      showMatches(this.map, null);
      return;
    }
    const url = withQuery(`${this.base}${MAP_MATCHES_PATH}`, { ...this.query, bbox: viewBox(this.map) });
    if (url === this.asked) return;
    this.asked = url;
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    try {
      const matches = await getJson<MatchIds>(url, { signal: controller.signal });
      showMatches(this.map, matches.wide ? null : matches.ids);
      this.onOutlined(matches.wide ? 'wide' : matches.count);
    } catch (error) {
      if (isAbort(error)) return;
      // Outlines are a help: the list still shows every match. Asked again at the next move.
      this.asked = '';
      showMatches(this.map, null);
      this.onOutlined(null);
    }
  }
}

/** The view's box, within the world the API accepts, to a millionth of a degree. */
function viewBox(map: MapLibre): string {
  const b = map.getBounds();
  const lon = (v: number) => Math.min(180, Math.max(-180, v));
  const lat = (v: number) => Math.min(90, Math.max(-90, v));
  return [lon(b.getWest()), lat(b.getSouth()), lon(b.getEast()), lat(b.getNorth())].map((n) => n.toFixed(6)).join(',');
}
