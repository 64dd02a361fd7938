// The store interface and the rows it hands to the render layer. HTTP talks to storage
// only through CatalogueStore; SQLite and PostgreSQL implement it. Reads are plans
// (read-plans.ts) the engines run; each face's plans are in a folder of its own.
import type { JsonText } from '../json-text.js';
import type { WireFields } from '../catalogue/fields.js';
import type { MultiPolygon } from '../catalogue/format.js';
import type { CatalogueSink } from '../catalogue/lists.js';
import type { ChangeSet } from '../changes/format.js';
import type { ApplyOptions, ApplyOutcome, PlannedChange } from './apply/apply-changes.js';
import type { RecordBatch } from './apply/export-rows.js';
import type { Plan } from './read-plans.js';
import type { PagePosition } from '../pagination.js';
import type { Dialect } from './dialect.js';

export interface AuthorRow {
  id: number;
  username: string;
}

export interface CategoryRow {
  id: number;
  name: string;
  description: string;
  thumbnail: string;
}

export interface SiteRow {
  id: number;
  name: string;
}

/** A published image, document or media record as summarised inside a listed feature. */
export interface AttachmentSummaryRow {
  id: number;
  title: string;
  author: AuthorRow;
}

type ListedFields = WireFields<'features', 'listed'>;
type NestedFields = WireFields<'features', 'nested'>;

/** The fields every feature form draws on: those both wire forms carry (catalogue/fields.ts), and these. */
export interface FeatureBaseRow extends Pick<ListedFields, keyof ListedFields & keyof NestedFields> {
  /** Published images, documents and media attached. */
  count: number;
  /** As stored (JsonText: written into answers as is), or a value. */
  geometry: MultiPolygon | JsonText;
}

/** A feature as listed by /features/. */
export interface FeatureRow extends FeatureBaseRow, ListedFields {
  site: SiteRow | null;
  categories: CategoryRow[];
  documents: AttachmentSummaryRow[];
  images: AttachmentSummaryRow[];
  media: AttachmentSummaryRow[];
}

/** A feature as nested inside an image, document or media record. */
export interface NestedFeatureRow extends FeatureBaseRow, NestedFields {}

interface RecordRowBase {
  id: number;
  title: string;
  author: AuthorRow;
  feature: NestedFeatureRow;
}

export interface ImageRow extends RecordRowBase, WireFields<'images', 'record'> {}
export interface DocumentRow extends RecordRowBase, WireFields<'documents', 'record'> {}
export interface MediaRow extends RecordRowBase, WireFields<'media', 'record'> {}

export interface RowsByCollection {
  features: FeatureRow;
  images: ImageRow;
  documents: DocumentRow;
  media: MediaRow;
}
export type CollectionName = keyof RowsByCollection;

export interface Listing<Row> {
  /** The catalogue version these rows were read from (in the same snapshot). */
  version: number;
  count: number;
  /** null when the requested page does not exist (pagination.ts). */
  page: { rows: Row[]; position: PagePosition } | null;
}

export interface Detail<Row> {
  /** The catalogue version the row was read from (in the same snapshot). */
  version: number;
  /** null when there is no such published record. */
  row: Row | null;
}

/** What the map page opens with: the footprints' extent and the categories in use. */
export interface Overview {
  version: number;
  /** [minLon, minLat, maxLon, maxLat] of every footprint; null for an empty catalogue. */
  extent: [number, number, number, number] | null;
  /** Categories at least one feature is in, by id, with how many features are in each and how many categories (used or not) have a lower id. */
  categories: (CategoryRow & { features: number; rank: number })[];
}

/** Published images (each links its file) and categories in use with a thumbnail. */
export interface LinkedPictures {
  images: number;
  thumbnails: number;
}

/** A vector tile and the catalogue version it was read from; bytes null when no footprint reaches it. */
export interface VectorTile {
  version: number;
  bytes: Buffer | null;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** A PostgreSQL database's place in streaming replication; lagSeconds null until the replica has replayed a commit. */
export type Replication = { role: 'primary' } | { role: 'replica'; lagSeconds: number | null };

/** A read's plan as one engine runs it: made for that engine's SQL (its dialect). */
export type ReadPlan<R> = (dialect: Dialect) => Plan<R>;

export interface ReadOptions {
  /** A plan of one statement, which sees one snapshot by itself: PostgreSQL sends it without BEGIN and COMMIT, one round trip instead of three. */
  oneStatement?: boolean;
}

/**
 * A read snapshot held across awaits (a download's batches): every plan run in it sees one
 * catalogue version until `close`, which its holder must call. A read-only connection of its
 * own on SQLite, one REPEATABLE READ transaction on one client of a pool of its own on
 * PostgreSQL, so that the shared connections go on serving other requests meanwhile.
 */
export interface Snapshot {
  run<R>(plan: ReadPlan<R>): Promise<R>;
  close(): Promise<void>;
}

/**
 * What the engines offer readers: plans run in one snapshot each, or in a snapshot held
 * across awaits. A face brings its plans (store/ogc/, store/map/, …) and declares their class
 * of work (src/work/reads.ts); no face adds a method here.
 */
export interface CatalogueReader {
  /** A plan run in one snapshot: its queries see one catalogue version, even during an import. */
  read<R>(plan: ReadPlan<R>, options?: ReadOptions): Promise<R>;
  snapshot(): Promise<Snapshot>;
  /** Goes up by one with every import; servers poll it to notice a new catalogue. */
  catalogueVersion(): Promise<number>;
  /**
   * Names this database apart from any other, and from one made again under the same name
   * (whose versions start again from 1): what is kept on disk per catalogue version (the
   * GeoPackage downloads) is kept under it as well, so a version number never finds another
   * database's file.
   */
  databaseIdentity(): Promise<string>;
  /** Connection pool usage, for /metrics (stores without a pool leave it out). */
  poolStats?(): PoolStats;
  /** Primary or replica, and the replica's lag, for /readyz (stores without replication leave it out). */
  replication?(): Promise<Replication>;
}

/**
 * A whole catalogue being written in one transaction as its records arrive (import).
 * Nothing is visible to readers until `commit`; `rollback` leaves the old catalogue whole.
 */
/** Told as each step of finishing a load begins, `done` of `total` steps being behind it. */
export type FinishProgress = (done: number, total: number, label: string) => void;

export interface CatalogueLoad {
  /** Takes each record as it passes its checks. */
  readonly sink: CatalogueSink;
  /** Writes what the sink holds so far (batches); call between chunks of the file. */
  flush(): Promise<void>;
  /** Derives what needs every row (positions, counts, search text), moves the version on, commits. */
  commit(onStep?: FinishProgress): Promise<void>;
  rollback(): Promise<void>;
}

export interface CatalogueStore extends CatalogueReader {
  /** Start replacing the whole catalogue record by record (a streamed import). */
  beginLoad(): Promise<CatalogueLoad>;
  /**
   * A change file's records put and removed in one transaction, judged first against the
   * catalogue as it would be after it (refused: nothing changes); only what changed is
   * derived again, and the version moves on unless nothing changed or it is a dry run. A
   * planned change (an approval) is made and written beside inside the same transaction.
   */
  applyChanges(changes: ChangeSet | PlannedChange, options?: ApplyOptions): Promise<ApplyOutcome>;
  /** The catalogue as stored, unpublished records included, list by list in batches from one read snapshot, never held whole (export). */
  exportCatalogue(): AsyncGenerator<RecordBatch>;
  /**
   * A plan of the contributors' tables (store/accounts/account-plans.ts), not the catalogue's, in one
   * transaction: `read` takes no write lock (SQLite: none while an import holds it; PostgreSQL:
   * a replica answers it), `write` is one writer at a time.
   */
  transact<R>(plan: Plan<R>, mode?: 'read' | 'write'): Promise<R>;
  close(): Promise<void>;
}

/** A store that cannot be opened or read, with one sentence for the operator. */
export class StoreError extends Error {}

/** The database is down, unreachable or too slow right now: a 503, and retry later. */
export class StoreUnavailableError extends StoreError {}

/** Too much work of one class (src/work/classes.ts) is running or waiting in this process: a 503 at once, and retry later. */
export class StoreBusyError extends StoreUnavailableError {
  constructor(readonly workClass: string) {
    super(`too many ${workClass} at once`);
  }
}
