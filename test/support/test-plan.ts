// Which test files `npm test` runs and which `npm run test:slow` runs, and in what order:
// one declaration read by both (run-tests.ts). `npm test` is what a developer runs between
// edits: correctness, every file not in SLOW. `test:slow` is every file in SLOW: the
// measurements that must run alone or long. A file is in exactly one of the two: the slow
// ones are SLOW's lists, the fast ones all others; a name here that is no test file, or is
// in two lists, stops both runs (planFiles).
import path from 'node:path';

/** A pass's files (paths below test/, without the extension) by how they run. */
export interface PassOrder {
  /** Started first, each in a process of its own, in this order: the longest first. */
  longest: readonly string[];
  /** Run after the rest, several at a time, the longest first: they race signals, timeouts and bursts against a server process and mostly wait. */
  alone: readonly string[];
  /** Run last, one at a time: they measure the server, not the files beside them. */
  isolated: readonly string[];
}

/**
 * `npm test`'s order for the files it takes: the longest started first, each in a process of
 * its own (apply's every change on every face, scrypt's sign-ups, the command line's child
 * processes); the rest run several of a folder to a process (test-groups.ts).
 */
export const FAST: PassOrder = {
  longest: ['apply.test', 'postgres/apply.test', 'apply-crowds.test', 'postgres/apply-crowds.test', 'cli.test', 'harvest.test', 'import-refusals.test', 'postgres/tiles.test', 'postgres/rate-limit.test', 'catalogue-text.test', 'demo.test'],
  alone: [],
  isolated: [],
};

/**
 * `npm run test:slow`: every file it runs. First, four at a time, the longest first: large
 * catalogues and tiles over them (large-catalogue, large-diff, tile-budget, tiles-agree's grid
 * at every zoom, the demo at scale 10), pages in a real browser but for npm test's smoke
 * (cors, media, ogc-pages; the IIIF viewers' among them, over tiles rendered), GDAL's walks
 * over /ogc/ and a CSV, a crowd of costly text queries,
 * sign-up floods against the throttles' windows, kept GeoPackages built by two processes. Then
 * the races of signals, kills and timeouts against `serve` processes (shutdown, workers,
 * limits, live update and apply, the replica, issue 45's picture races and crashes, `apply`
 * killed). Last,
 * one at a time, the measurements under attack: isolation, upload crowds and sieges,
 * Lighthouse and axe over every page, a picture's time to another host and to a replica.
 */
export const SLOW: PassOrder = {
  longest: [
    'large-catalogue.test', 'large-diff.test', 'postgres/tile-budget.test', 'browser/map.test', 'postgres/browser-map.test', 'browser/contribute.test', 'postgres/browser-contribute.test', 'browser/edit.test', 'postgres/browser-edit.test',
    'browser/footprint-draw.test', 'postgres/browser-footprint-draw.test', 'http/account-management.test', 'postgres/account-management.test', 'http/words-in-box.test', 'postgres/words-in-box.test', 'browser/edit-changes.test', 'postgres/browser-edit-changes.test',
    'http/sign-in-redis.test', 'postgres/collation.test', 'http/account-names.test', 'postgres/account-names.test', 'postgres/accounts.test', 'http/accounts.test', 'http/rate-limit.test',
    'postgres/account-throttles.test', 'http/account-throttles.test', 'postgres/ogc-kept-geopackages.test', 'http/ogc-kept-geopackages.test', 'browser/tiles-elsewhere.test', 'postgres/tiles-agree.test',
    'postgres/text-query-cost.test', 'http/text-query-cost.test', 'http/tiles.test', 'postgres/csv-gdal.test', 'postgres/ogc-gdal.test', 'http/ogc-gdal.test', 'http/csv-gdal.test', 'demo-slow.test', 'browser/docs.test',
    'browser/iiif-viewer.test', 'postgres/browser-iiif-viewer.test',
  ],
  alone: [
    'postgres/picture-crashes.test', 'http/picture-crashes.test', 'postgres/replica.test', 'postgres/shutdown.test', 'shutdown-bursts.test', 'shutdown.test', 'postgres/live-apply.test', 'workers.test',
    'live-apply.test', 'live-update.test', 'postgres/live-update.test', 'postgres/picture-races.test', 'http/picture-races.test', 'limits.test',
    'apply-kill.test', 'postgres/apply-kill.test',
  ],
  isolated: [
    'postgres/isolation.test', 'isolation.test', 'postgres/upload-crowd.test', 'upload-crowd.test', 'postgres/upload-siege.test', 'upload-siege.test', 'browser/site-quality.test', 'postgres/site-quality.test',
    'http/picture-hosts.test', 'postgres/picture-hosts.test', 'postgres/picture-replica.test',
  ],
};

export interface PlannedPass {
  longest: string[];
  /** Files for test-groups.ts to put several to a process. */
  grouped: string[];
  alone: string[];
  isolated: string[];
}

/**
 * The files of each pass, as paths: `all` the test files found, `extension` theirs (.ts, or
 * .js compiled). Throws when a list names a file that does not exist, or one file twice.
 */
export function planFiles(all: readonly string[], testDir: string, extension: string, orders = { fast: FAST, slow: SLOW }): { fast: PlannedPass; slow: PlannedPass } {
  const names = [orders.fast, orders.slow].flatMap((order) => [...order.longest, ...order.alone, ...order.isolated]);
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0) throw new Error(`test-plan.ts names these files twice: ${twice.join(', ')}`);
  const named = (list: readonly string[]) => list.map((name) => path.join(testDir, name + extension));
  const placed = named(names);
  const missing = placed.filter((file) => !all.includes(file));
  if (missing.length > 0) throw new Error(`test-plan.ts names files that do not exist: ${missing.join(', ')}`);
  const planned = (order: PassOrder, grouped: string[]) => ({ longest: named(order.longest), grouped, alone: named(order.alone), isolated: named(order.isolated) });
  return { fast: planned(orders.fast, all.filter((file) => !placed.includes(file))), slow: planned(orders.slow, []) };
}
