// SQL run straight on a test database of either store, beside the app: what a test sets that
// no request can (a link's expiry in the past) or reads that no page shows (a stored column).
import Database from 'better-sqlite3';
import pg from 'pg';
import type { RawSettings } from '../../src/config.js';

/** The statement's rows (none for a write), on the SQLite file or the PostgreSQL schema of `settings`; `$n` placeholders (`?` on SQLite is made from them). */
export async function sqlOn(settings: RawSettings, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (settings.databaseSchema === undefined) {
    const db = new Database(String(settings.database));
    try {
      const statement = db.prepare(sql.replace(/\$\d+/g, '?'));
      return statement.reader ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: String(settings.database), options: `-c search_path=${settings.databaseSchema}` });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}
