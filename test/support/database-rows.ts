// Rows of a test database read directly, on either store: what a test checks the store holds
// (nothing kept of a refused picture, the sizes of an accepted one) besides what is served.
import Database from 'better-sqlite3';
import type { TestDatabase } from './stores.js';
import { withPgClient } from './stores.js';

/** The rows `sql` selects ($1… placeholders; `?` on SQLite is made from them). */
export async function databaseRows(database: TestDatabase, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const { database: file, databaseSchema: schema } = database.settings;
  if (typeof file === 'string' && !file.startsWith('postgres')) {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare<unknown[], Record<string, unknown>>(sql.replace(/\$\d+/g, '?')).all(...params);
    } finally {
      db.close();
    }
  }
  return withPgClient(async (client) => {
    await client.query(`SET search_path TO ${String(schema)}, public`);
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  });
}

/** How many sizes of contributed pictures the store keeps. */
export async function keptPictures(database: TestDatabase): Promise<number> {
  return Number((await databaseRows(database, 'SELECT count(*) AS n FROM contribution_pictures'))[0]?.n ?? 0);
}
