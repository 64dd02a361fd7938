// Rows of a test database read directly, on either store: what a test checks the store holds
// (nothing kept of a refused picture, the sizes of an accepted one) besides what is served.
import { sqlOn } from './sql-on.js';
import type { TestDatabase } from './stores.js';

/** The rows `sql` selects ($1… placeholders). */
export function databaseRows(database: TestDatabase, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return sqlOn(database.settings, sql, params);
}

/** How many sizes of contributed pictures the store keeps. */
export async function keptPictures(database: TestDatabase): Promise<number> {
  return Number((await databaseRows(database, 'SELECT count(*) AS n FROM contribution_pictures'))[0]?.n ?? 0);
}
