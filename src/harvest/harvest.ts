// A harvest of an API of this spec: read its root, walk the four collections (walk.ts)
// through one polite client, rebuild the catalogue (rebuild.ts) and check that the
// collections agree (agreement.ts). If they do not, the source changed between walks:
// everything is walked again, at most `maxRestarts` times.
import { setTimeout as sleepFor } from 'node:timers/promises';
import { COLLECTIONS, MAX_PAGE_SIZE, PARAM_PAGE_SIZE, type Collection } from '../constants.js';
import { collectionDisagreements } from './agreement.js';
import { HarvestClient } from './client.js';
import { HarvestError } from './errors.js';
import { mediaBases } from './media-path.js';
import type { Sleep } from './pool.js';
import { rebuildCatalogue, type HarvestedRecords, type Rebuilt } from './rebuild.js';
import { HarvestState } from './state.js';
import { walkCollection, type WalkContext } from './walk.js';
import { readRoot } from './wire.js';

export interface HarvestSettings {
  concurrency: number;
  delayMs: number;
  backoffMs: number;
  maxAttempts: number;
  maxRestarts: number;
  timeoutMs: number;
  userAgent: string;
}

/** Where a harvest stands: records and pages held, of the totals known so far. */
export interface HarvestTally {
  records: number;
  pages: number;
  /** null until every collection's first page has told its count. */
  totalRecords: number | null;
  totalPages: number | null;
}

export interface HarvestReporter {
  note(message: string): void;
  progress(tally: HarvestTally): void;
}

export interface HarvestRun {
  url: string;
  /** null keeps the state in memory (no output file to put it next to). */
  statePath: string | null;
  resume: boolean;
  settings: HarvestSettings;
  reporter: HarvestReporter;
  /** Injected by tests to see the waits without waiting. */
  sleep?: Sleep;
}

export interface Harvested {
  rebuilt: Rebuilt;
  /** The same polite client, for the media files. */
  client: HarvestClient;
  state: HarvestState;
}

const defaultSleep: Sleep = (ms, signal) => sleepFor(ms, undefined, { signal });

export async function harvestApi(run: HarvestRun): Promise<Harvested> {
  const rootUrl = normaliseRootUrl(run.url);
  const stop = new AbortController();
  const client = new HarvestClient({ ...run.settings, sleep: run.sleep ?? defaultSleep, notify: (m) => run.reporter.note(m), signal: stop.signal });
  const links = readRoot(rootUrl, await client.getJson(rootUrl));
  const state = HarvestState.open(run.statePath, rootUrl, run.resume);
  const ctx: WalkContext = {
    client, state, maxRestarts: run.settings.maxRestarts,
    notify: (m) => run.reporter.note(m),
    progressed: () => run.reporter.progress(tally(state)),
  };
  try {
    const rebuilt = await harvestRounds(ctx, rootUrl, mediaBases(rootUrl, links.features), run.reporter);
    return { rebuilt, client, state };
  } catch (error) {
    stop.abort();
    throw error;
  }
}

async function harvestRounds(ctx: WalkContext, rootUrl: string, bases: ReturnType<typeof mediaBases>, reporter: HarvestReporter): Promise<Rebuilt> {
  let previous: string | null = null;
  for (let round = 1; ; round++) {
    const records = await walkAll(ctx, rootUrl);
    const rebuilt = rebuildCatalogue(records, bases);
    const disagreements = [...collectionDisagreements(records), ...rebuilt.disagreements];
    if (disagreements.length === 0) return rebuilt;
    const summary = `${disagreements[0]}${disagreements.length > 1 ? ` and ${disagreements.length - 1} more` : ''}`;
    // Walked twice and the same both times: the source is steady and simply says so.
    if (previous === disagreements.join('\n')) {
      reporter.note(`warning: the source's collections disagree, the same way on two walks (${summary}); keeping what it serves.`);
      return rebuilt;
    }
    if (round > ctx.maxRestarts) throw new HarvestError(`the collections kept disagreeing (${summary}): the source changed while it was harvested; gave up after ${round} walks.`);
    reporter.note(`the collections disagree (${summary}): the source changed while it was harvested; walking them again.`);
    previous = disagreements.join('\n');
    for (const collection of COLLECTIONS) ctx.state.restart(collection);
  }
}

/** The four collections at once; the pool, not this, bounds how many requests run. */
async function walkAll(ctx: WalkContext, rootUrl: string): Promise<HarvestedRecords> {
  const firstUrl = (c: Collection) => `${new URL(`${c}/`, rootUrl).href}?${PARAM_PAGE_SIZE}=${MAX_PAGE_SIZE}`;
  const lists = await Promise.all(COLLECTIONS.map((c) => walkCollection(ctx, c, firstUrl(c))));
  return Object.fromEntries(COLLECTIONS.map((c, i) => [c, lists[i]])) as unknown as HarvestedRecords;
}

function tally(state: HarvestState): HarvestTally {
  const t: HarvestTally = { records: 0, pages: 0, totalRecords: 0, totalPages: 0 };
  for (const collection of COLLECTIONS) {
    const plan = state.plan(collection);
    t.totalRecords = plan === null || t.totalRecords === null ? null : t.totalRecords + plan.count;
    t.totalPages = plan === null || t.totalPages === null ? null : t.totalPages + plan.lastPage;
    for (const records of state.pages(collection).values()) {
      t.pages++;
      t.records += records.length;
    }
  }
  return t;
}

/** An absolute http(s) URL ending in `/`, so collection paths resolve beneath it. */
export function normaliseRootUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HarvestError(`"${value}" is not an absolute URL; give the API root, e.g. https://example.org/api/v1/.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarvestError(`"${value}" is not an http(s) URL.`);
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}
