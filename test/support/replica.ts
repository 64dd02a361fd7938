// The replica tests' harness: a fresh streaming replica (replica-cluster.ts) for a test
// file, or the reason there can be none, skipped or (CI) failed.
import { after, test } from 'node:test';
import { startReplica, type Replica } from './replica-cluster.js';
import { postgresUnavailableReason, TEST_PG_URL } from './stores.js';

export { caughtUp, withReplicaClient, type Replica } from './replica-cluster.js';

/**
 * Runs a test file's suite against a fresh replica, removed when the file ends. When none
 * can be made (PostgreSQL away, replication not allowed in pg_hba.conf) the file is skipped
 * with the reason, unless HERITAGE_TEST_REPLICA=required (CI), where that is a failure.
 */
export async function onReplica(suite: (replica: Replica) => void): Promise<void> {
  let replica: Replica;
  try {
    const reason = await postgresUnavailableReason();
    if (reason !== null) throw new Error(reason);
    replica = await startReplica();
  } catch (error) {
    const reason = `a streaming replica of ${TEST_PG_URL} cannot be made: ${(error as Error).message}`;
    if (process.env.HERITAGE_TEST_REPLICA === 'required') {
      test('a streaming replica is required (HERITAGE_TEST_REPLICA=required)', () => {
        throw new Error(reason);
      });
    } else {
      test(`on a replica: ${reason}`, { skip: reason }, () => undefined);
    }
    return;
  }
  process.env.HERITAGE_TEST_STORE = 'postgres';
  suite(replica);
  // After hooks run in the order added: the suite's (its servers stopped) come first.
  after(() => replica.remove());
}
