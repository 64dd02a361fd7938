// The PostgreSQL store: many stateless server processes over one database (or its
// replicas). A read runs in a REPEATABLE READ snapshot, so a page's count and rows come
// from one catalogue version even while an import commits; an import is one transaction.
import { errorMessage } from '../../caught.js';
import type pg from 'pg';
import { createPool, storeFailure, type PostgresSettings } from './connect.js';
import { describeUrl } from '../database-url.js';
import { PostgresCatalogueLoad, PostgresRowWriter } from './load.js';
import { stepTeller } from '../apply/catalogue-finish.js';
import { commits, type PlannedChange, applyChangeSet, type ApplyDriver, type ApplyOptions, type ApplyOutcome } from '../apply/apply-changes.js';
import { refreshPostgresTiles } from '../apply/tile-precompute.js';
import type { ChangeSet } from '../../changes/format.js';
import { exportBatches, type RecordBatch } from '../apply/export-rows.js';
import { checkSchemaVersion, migrate } from './migrate.js';
import { ReplicaLag, readReplication, refuseReplica } from './replication.js';
import { POSTGRES_DIALECT } from '../dialect.js';
import { runAsync, versionPlan, type Plan, type Query } from '../read-plans.js';
import { CATALOGUE_TABLES_IN_DELETE_ORDER } from '../tables.js';
import { StoreError, StoreUnavailableError, type CatalogueLoad, type CatalogueStore, type PoolStats, type ReadOptions, type ReadPlan, type Replication, type Snapshot } from '../store.js';

export interface PostgresOpenOptions {
  /** Apply pending migrations (import, migrate); otherwise the schema must be current. */
  create?: boolean;
  /**
   * A server: reads get statement timeouts, and it starts even while the database is
   * unreachable, answering 503 until it is back. Commands (import, export) wait longer.
   */
  serving?: boolean;
}

export async function openPostgresStore(settings: PostgresSettings, options: PostgresOpenOptions = {}): Promise<PostgresStore> {
  const serving = options.serving ?? false;
  const poolSettings = serving ? settings : { ...settings, timeoutMs: Math.max(settings.timeoutMs, 10_000) };
  const pool = createPool(poolSettings, { statementTimeout: serving });
  // Downloads hold a connection for as long as their client reads: a pool of their own (half
  // the size), so that slow downloads never take the connections API requests need.
  const streamPool = createPool({ ...poolSettings, poolSize: Math.max(1, Math.ceil(settings.poolSize / 2)) }, { statementTimeout: serving });
  const store = new PostgresStore(pool, streamPool, settings);
  try {
    if (!serving) await store.refuseReplica();
    if (options.create) await store.migrate();
    else await store.checkSchema();
    return store;
  } catch (error) {
    const failure = storeFailure(error);
    if (failure instanceof StoreUnavailableError && serving) return store;
    await Promise.all([pool.end(), streamPool.end()]);
    if (failure instanceof StoreError && !(failure instanceof StoreUnavailableError)) throw failure;
    throw new StoreError(`Cannot use ${describeUrl(settings.url)}: ${errorMessage(error)}.`);
  }
}

/**
 * Names of prepared statements, one per distinct (fixed) SQL text. A statement is prepared
 * once per connection, by name, so a name must mean one text on every connection of the
 * pool: the names live as long as the store that owns the pool.
 */
class StatementNames {
  private readonly names = new Map<string, string>();

  of(sql: string): string {
    let name = this.names.get(sql);
    if (name === undefined) {
      name = `heritage_${this.names.size}`;
      this.names.set(sql, name);
    }
    return name;
  }
}

const BEGIN_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** A snapshot's first statement, sent with its BEGIN (inSnapshot). */
interface FirstStatement {
  sent: boolean;
  send(query: Query): Promise<unknown[]>;
}

export class PostgresStore implements CatalogueStore {
  private schemaChecked = false;
  private readonly statementNames = new StatementNames();
  private readonly replicaLag = new ReplicaLag();

  constructor(
    private readonly pool: pg.Pool,
    private readonly streamPool: pg.Pool,
    private readonly settings: PostgresSettings,
  ) {}

  poolStats(): PoolStats {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async migrate(): Promise<number[]> {
    const client = await this.pool.connect();
    try {
      const applied = await migrate(client, this.settings.schema);
      this.schemaChecked = true;
      return applied;
    } finally {
      client.release();
    }
  }

  /** Commands write to, or must read the latest of, the primary. */
  async refuseReplica(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await refuseReplica(client, describeUrl(this.settings.url));
    } finally {
      client.release();
    }
  }

  async replication(): Promise<Replication> {
    try {
      return await readReplication(this.pool, this.replicaLag);
    } catch (error) {
      throw storeFailure(error);
    }
  }

  async checkSchema(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await checkSchemaVersion(client, this.settings.schema, describeUrl(this.settings.url));
      this.schemaChecked = true;
    } finally {
      client.release();
    }
  }

  /** One snapshot per read; a plan of one statement, without a transaction. */
  read<R>(plan: ReadPlan<R>, options: ReadOptions = {}): Promise<R> {
    const made = plan(POSTGRES_DIALECT);
    return options.oneStatement ? this.readAlone(made) : this.readInSnapshot(made);
  }

  catalogueVersion(): Promise<number> {
    return this.readInSnapshot(versionPlan());
  }

  /**
   * The server and database as the URL names them, the schema, and the oids of the database
   * and of its meta table: a database or schema dropped and made again has new ones. Read
   * each time (one small query), so that a schema made again under a running server is seen.
   */
  async databaseIdentity(): Promise<string> {
    try {
      const { rows } = await this.pool.query<{ database: string; meta: string }>(
        "SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::text AS database, 'meta'::regclass::oid::text AS meta",
      );
      const [row] = rows;
      if (row === undefined) throw new StoreError('the database named no oid');
      return `postgres ${describeUrl(this.settings.url)} ${this.settings.schema} ${row.database}:${row.meta}`;
    } catch (error) {
      throw storeFailure(error);
    }
  }

  /** One REPEATABLE READ transaction on one client of the streams' pool, held until it closes. */
  async snapshot(): Promise<Snapshot> {
    try {
      if (!this.schemaChecked) await this.checkSchema();
    } catch (error) {
      throw storeFailure(error);
    }
    let client: pg.PoolClient;
    try {
      client = await this.streamPool.connect();
    } catch (error) {
      throw storeFailure(error);
    }
    let broken = false;
    let released = false;
    const close = async () => {
      if (released) return;
      released = true;
      if (!broken) await client.query('COMMIT').catch(() => (broken = true));
      client.release(broken);
    };
    const run = async <R>(plan: ReadPlan<R>): Promise<R> => {
      try {
        return await runAsync(plan(POSTGRES_DIALECT), (q) => this.query(client, q));
      } catch (error) {
        broken = true;
        throw storeFailure(error);
      }
    };
    try {
      await client.query(BEGIN_SNAPSHOT);
    } catch (error) {
      broken = true;
      await close();
      throw storeFailure(error);
    }
    return { run, close };
  }

  /** A plan of one statement sees one snapshot by itself: run without BEGIN and COMMIT, one round trip instead of three. */
  private readAlone<R>(plan: Plan<R>): Promise<R> {
    let statements = 0;
    return this.reading(() => runAsync(plan, async ({ sql, params }) => {
      if (++statements > 1) throw new Error('readAlone was given a plan of more than one statement');
      return (await this.pool.query({ text: sql, values: params })).rows;
    }));
  }

  /** A plan of the contributors' tables in one transaction (a read: one a replica can run). */
  transact<R>(plan: Plan<R>, mode: 'read' | 'write' = 'write'): Promise<R> {
    return this.reading(() => this.onConnection(async (client) => {
      await client.query(mode === 'write' ? 'BEGIN' : 'BEGIN READ ONLY');
      const result = await runAsync(plan, (q) => this.query(client, q));
      await client.query('COMMIT');
      return result;
    }));
  }

  private readInSnapshot<R>(plan: Plan<R>): Promise<R> {
    return this.reading(() => this.inSnapshot((client, first) => runAsync(plan, (q) => (first.sent ? this.query(client, q) : first.send(q)))));
  }

  /** A read of a checked schema; any failure to reach the database becomes StoreUnavailableError. */
  private async reading<R>(run: () => Promise<R>): Promise<R> {
    try {
      if (!this.schemaChecked) await this.checkSchema();
      return await run();
    } catch (error) {
      throw storeFailure(error);
    }
  }

  private async query(client: pg.PoolClient, { sql, params, adHoc, each }: Query): Promise<unknown[]> {
    const { rows } = await client.query({ name: adHoc ? undefined : this.statementNames.of(sql), text: sql, values: params });
    if (!each) return rows;
    // pg has read them all already; handed over the same way, so that plans run alike on both stores.
    for (const row of rows) each(row);
    return [];
  }

  /**
   * `work` on one connection in one snapshot, begun by its first statement (`first.send`):
   * one without parameters (a read's catalogue version) goes with BEGIN as one simple query,
   * a round trip fewer for every read.
   */
  private inSnapshot<R>(work: (client: pg.PoolClient, first: FirstStatement) => Promise<R>): Promise<R> {
    return this.onConnection(async (client) => {
      const first: FirstStatement = {
        sent: false,
        send: async (query) => {
          first.sent = true;
          if (query.params.length > 0 || query.each) {
            await client.query(BEGIN_SNAPSHOT);
            return this.query(client, query);
          }
          // Two statements in one simple query: pg answers with a result for each (its types know of one).
          const results: unknown = await client.query(`${BEGIN_SNAPSHOT}; ${query.sql}`);
          if (!Array.isArray(results) || results.length !== 2) throw new StoreError('a snapshot\'s first read did not answer with two results');
          return resultRows(results[1]);
        },
      };
      const result = await work(client, first);
      if (first.sent) await client.query('COMMIT');
      return result;
    });
  }

  /** `work` on a connection of the pool; one that failed mid-transaction is discarded rather than reused. */
  private async onConnection<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      return await work(client);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** One transaction on one connection, held while records arrive; one import at a time. */
  async beginLoad(): Promise<CatalogueLoad> {
    const client = await this.pool.connect();
    let released = false;
    const release = (broken: boolean) => {
      if (!released) client.release(broken);
      released = true;
    };
    try {
      await client.query('BEGIN');
      // One import at a time; readers are never blocked (MVCC).
      await client.query('LOCK TABLE meta IN EXCLUSIVE MODE');
      const load = await PostgresCatalogueLoad.start(client);
      return {
        sink: load.sink,
        flush: () => load.flush(),
        commit: async (onStep) => {
          try {
            const tell = stepTeller(onStep, load.finishStepCount + 2);
            await load.finish(tell);
            tell('commit');
            await client.query('COMMIT');
            // Fresh statistics, so that the planner picks the right index for each filter, and
            // the visibility map set, so that a filter counted from an index reads no rows.
            tell('statistics for the planner');
            await client.query(`VACUUM (ANALYZE) ${CATALOGUE_TABLES_IN_DELETE_ORDER.join(', ')}`);
            release(false);
          } catch (error) {
            await client.query('ROLLBACK').catch(() => undefined);
            release(true);
            throw error;
          }
        },
        rollback: async () => {
          if (released) return;
          await client.query('ROLLBACK').catch(() => undefined);
          release(false);
        },
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      release(true);
      throw error;
    }
  }

  /** One transaction holding the import lock; committed only when something changed. */
  async applyChanges(changes: ChangeSet | PlannedChange, options: ApplyOptions = {}): Promise<ApplyOutcome> {
    const client = await this.pool.connect();
    let broken = true;
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE meta IN EXCLUSIVE MODE');
      const outcome = await applyChangeSet(applyDriver(client), changes, options);
      await client.query(commits(outcome, changes, options) ? 'COMMIT' : 'ROLLBACK');
      broken = false;
      return outcome;
    } finally {
      if (broken) await client.query('ROLLBACK').catch(() => undefined);
      client.release(broken);
    }
  }

  /** One REPEATABLE READ snapshot held while batches go out. */
  async *exportCatalogue(): AsyncGenerator<RecordBatch> {
    const client = await this.pool.connect();
    let broken = true;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      yield* exportBatches(async (sql, params) => (await client.query(sql, params)).rows, POSTGRES_DIALECT);
      await client.query('COMMIT');
      broken = false;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.streamPool.end()]);
  }
}

/** The rows of one result of a simple query of several statements. */
function resultRows(result: unknown): unknown[] {
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) throw new StoreError('a query answered without rows');
  return result.rows;
}

function applyDriver(client: pg.PoolClient): ApplyDriver {
  const writer = new PostgresRowWriter(client);
  return {
    dialect: POSTGRES_DIALECT,
    query: async (sql, params = []) => (await client.query(sql, params)).rows,
    write: (table, row) => writer.buffer(table, row),
    flush: () => writer.flush(),
    // The GiST index on geom follows the rows.
    deleteBoxes: async () => undefined,
    refreshTiles: (boxes) => refreshPostgresTiles(client, boxes),
    nextVersion: async () => {
      const { rows } = await client.query("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'catalogue_version' RETURNING value");
      return Number(rows[0].value);
    },
  };
}
