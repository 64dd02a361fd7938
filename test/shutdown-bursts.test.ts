// Graceful shutdown of `serve` just after a burst of new connections: the connections the
// kernel established before the listener closed are all answered whole, none reset, with
// and without SHUTDOWN_DELAY_MS, in one process and under --workers. The rest of shutdown
// is shutdown.test.ts; apart, the two run side by side in npm test's second pass.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LOAD_URLS, sigtermDuringBursts, useBigFeatureDatabase } from './support/drain.js';

const database = useBigFeatureDatabase();

describe('graceful shutdown after a burst of connections', { timeout: 600_000 }, () => {
  for (const [delay, workers, rounds] of [['0', 1, 3], ['200', 1, 3], ['0', 2, 2], ['200', 2, 2]] as const) {
    test(`SIGTERM just after a burst of new connections (SHUTDOWN_DELAY_MS=${delay}, ${workers} process(es)): none is reset, every request is answered whole`, async () => {
      const { outcomes, exits } = await sigtermDuringBursts(database.args, { SHUTDOWN_DELAY_MS: delay }, rounds, LOAD_URLS, workers);
      assert.deepEqual(exits, Array(rounds).fill(0));
      const failed = outcomes.filter((o) => !('status' in o) || o.status !== 200 || !o.complete);
      assert.deepEqual(failed, [], `${failed.length} of ${outcomes.length} requests failed`);
    });
  }
});
