// The request classes of `npm run bench -- --peers`: the n-th URL of each, ours and
// MapServer's, for every OGC API – Features request both servers answer. MapServer 8.0 takes
// no property filter (it ignores `feature_type=…` and answers every feature), so there is
// none. Each of our URLs is distinct for its first `distinct` values of n, so our answer
// cache never has it: pages and boxes by position, an id written with leading zeros (which
// reaches the store like any other); a class with one URL only is asked of our server
// started without an answer cache.
import type { Catalogue } from '../src/catalogue/format.js';
import { writeCursor } from '../src/http/ogc/cursor.js';

export interface PeerIds {
  /** Published footprints' ids, ascending. */
  ids: number[];
  /** A vertex of each of those footprints (longitude, latitude). */
  vertices: [number, number][];
}

/** The catalogue's footprints in id order, and a vertex of each. */
export function peerIds(catalogue: Catalogue): PeerIds {
  const features = catalogue.features.filter((f) => f.geometry).sort((a, b) => a.id - b.id);
  return { ids: features.map((f) => f.id), vertices: features.map((f) => f.geometry.coordinates[0]![0]![0]! as [number, number]) };
}

export interface PeerClass {
  name: string;
  /** Always the same URL, so served by our second server (no answer cache). */
  oneUrl: boolean;
  distinct(ids: PeerIds): number;
  ours(ids: PeerIds, n: number): string;
  theirs(ids: PeerIds, n: number): string;
  /** The answer has something in it. */
  answered(body: { features?: unknown[]; collections?: unknown[]; id?: unknown }): boolean;
}

const OURS = '/ogc/collections';
const THEIRS = '/mapserv/heritage/ogcapi/collections';
const PAGE = 100;
/** Leading zeros: `0127` is the id 127 to us, and a URL of its own to our cache. */
const padded = (value: number, zeros: number) => `${'0'.repeat(zeros)}${value}`;
const hasFeatures = (body: { features?: unknown[] }) => (body.features?.length ?? 0) > 0;

/** A map view over a few streets (as bench.ts's mapBox), around the footprint, shifted a few µ° for distinctness. */
function box(ids: PeerIds, n: number): string {
  const [lon, lat] = ids.vertices[n % ids.vertices.length]!;
  const shift = Math.floor(n / ids.vertices.length) * 1e-6;
  return [lon - 0.0015 + shift, lat - 0.001, lon + 0.0015 + shift, lat + 0.001].map((x) => x.toFixed(6)).join(',');
}

/** The page's start: any footprint but the last page's. */
const startAt = (ids: PeerIds, n: number) => n % (ids.ids.length - PAGE);
const round = (ids: PeerIds, n: number) => Math.floor(n / (ids.ids.length - PAGE));

export const PEER_CLASSES: PeerClass[] = [
  {
    // One URL (a limit has at most 15 digits: too few spellings to stay distinct for a run).
    name: 'items, first page',
    oneUrl: true,
    distinct: () => 1e6,
    ours: () => `${OURS}/features/items?f=json&limit=${PAGE}`,
    theirs: () => `${THEIRS}/features/items?f=json&limit=${PAGE}`,
    answered: hasFeatures,
  },
  {
    name: 'items, bbox page',
    oneUrl: false,
    distinct: (ids) => ids.vertices.length * 10,
    ours: (ids, n) => `${OURS}/features/items?f=json&limit=${PAGE}&bbox=${box(ids, n)}`,
    theirs: (ids, n) => `${THEIRS}/features/items?f=json&limit=${PAGE}&bbox=${box(ids, n)}`,
    answered: hasFeatures,
  },
  {
    // Each server's own next link: ours a cursor after a footprint's id, MapServer's an offset.
    name: 'items, next page',
    oneUrl: false,
    distinct: (ids) => (ids.ids.length - PAGE) * 10,
    ours: (ids, n) => `${OURS}/features/items?f=json&limit=${PAGE - round(ids, n)}&after=${writeCursor([ids.ids[startAt(ids, n)]!])}`,
    theirs: (ids, n) => `${THEIRS}/features/items?f=json&limit=${PAGE - round(ids, n)}&offset=${startAt(ids, n) + 1}`,
    answered: hasFeatures,
  },
  {
    // MapServer refuses a padded id (it keeps no answers, so it needs none).
    name: 'single item',
    oneUrl: false,
    distinct: (ids) => ids.ids.length * 10,
    ours: (ids, n) => `${OURS}/features/items/${padded(ids.ids[n % ids.ids.length]!, Math.floor(n / ids.ids.length))}?f=json`,
    theirs: (ids, n) => `${THEIRS}/features/items/${ids.ids[n % ids.ids.length]!}?f=json`,
    answered: (body) => body.id !== undefined,
  },
  {
    name: 'collections',
    oneUrl: true,
    distinct: () => 1e6,
    ours: () => `${OURS}?f=json`,
    theirs: () => `${THEIRS}?f=json`,
    answered: (body) => (body.collections?.length ?? 0) > 0,
  },
  {
    name: 'collection',
    oneUrl: true,
    distinct: () => 1e6,
    ours: () => `${OURS}/features?f=json`,
    theirs: () => `${THEIRS}/features?f=json`,
    answered: (body) => body.id === 'features',
  },
];
