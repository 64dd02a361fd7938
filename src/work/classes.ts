// The classes of costly work, declared once, and each class's limits (settings WORK_*,
// src/settings/table.ts). Which store calls are of which class each face declares where it
// makes them (reads.ts: store/ogc/ogc-reads.ts, store/map/map-reads.ts, …). A call of no
// class is within a small bound (a record by id, a page of at most 100 in id order, the
// version) and runs at once, inline; every other call takes a turn of its class (gate.ts)
// and runs in a worker thread of its class with the DB_TIMEOUT_MS deadline
// (guarded-store.ts, pool.ts). A new face whose reads are declared so inherits this.
import type { Config } from '../config.js';
import { Gate } from './gate.js';

export type WorkClass = 'reads' | 'geometryFilters' | 'largePages' | 'downloads' | 'builds';

/**
 * Each class: its setting (how many run at once), its name as a refusal says it, and how many
 * may wait per turn. Reads are many and short (a filtered page, a search: tens of ms at the
 * worst, `q` being bounded), so a long line keeps a visitor's search from being refused
 * behind a crowd of them; the others are long or large, and a short line refuses the crowd.
 */
export const WORK_CLASSES = {
  reads: { running: 'workReads', name: 'costly reads', waitingPerTurn: 16 },
  geometryFilters: { running: 'workGeometryFilters', name: 'geometry filters', waitingPerTurn: 4 },
  largePages: { running: 'workLargePages', name: 'large pages', waitingPerTurn: 4 },
  downloads: { running: 'workDownloads', name: 'downloads', waitingPerTurn: 4 },
  builds: { running: 'workBuilds', name: 'GeoPackage builds', waitingPerTurn: 4 },
} as const satisfies Record<WorkClass, { running: keyof Config; name: string; waitingPerTurn: number }>;

/** How long one may wait, in deadlines: a line this short is bounded in memory, so its wait need not be the deadline's. */
const WAIT_DEADLINES = 5;

/** Items a page may ask for before it is a large page (what /api/v1/ never passes). */
export const SMALL_PAGE_ITEMS = 100;

export type WorkLimitsConfig = Pick<Config, 'dbTimeoutMs' | (typeof WORK_CLASSES)[WorkClass]['running']>;

export type Gates = Readonly<Record<WorkClass, Gate>>;

/** One gate per class, for one process. */
export function workGates(config: WorkLimitsConfig): Gates {
  const gate = (klass: WorkClass) => {
    const running = config[WORK_CLASSES[klass].running];
    return new Gate(WORK_CLASSES[klass].name, { running, waiting: running * WORK_CLASSES[klass].waitingPerTurn, waitMs: config.dbTimeoutMs * WAIT_DEADLINES });
  };
  return { reads: gate('reads'), geometryFilters: gate('geometryFilters'), largePages: gate('largePages'), downloads: gate('downloads'), builds: gate('builds') };
}
