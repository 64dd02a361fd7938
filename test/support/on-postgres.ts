// Runs a test file of the HTTP suite on PostgreSQL. When PostgreSQL (with PostGIS) is not
// reachable the file is skipped with the reason, unless HERITAGE_TEST_POSTGRES=required
// (CI), where that is a failure.
import { test } from 'node:test';
import { postgresUnavailableReason } from './stores.js';

export async function onPostgres(load: () => Promise<unknown>): Promise<void> {
  const reason = await postgresUnavailableReason();
  if (reason === null) {
    process.env.HERITAGE_TEST_STORE = 'postgres';
    await load();
  } else if (process.env.HERITAGE_TEST_POSTGRES === 'required') {
    test('PostgreSQL is required (HERITAGE_TEST_POSTGRES=required)', () => {
      throw new Error(reason);
    });
  } else {
    test(`on PostgreSQL: ${reason}`, { skip: reason }, () => undefined);
  }
}
