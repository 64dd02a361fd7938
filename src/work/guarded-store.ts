// The store a server reads: every read of a work class (classes.ts) takes a turn of that
// class first (gate.ts; refused at once past the line, before the store is asked anything),
// then runs in a worker thread of its class with the DB_TIMEOUT_MS deadline (pool.ts), on
// both stores: better-sqlite3 is synchronous, so a read on the main thread would hold every
// other request for as long as it took; and on PostgreSQL parsing and mapping a large page's
// rows was main-thread work too (measured: the isolation test's victim p99 589 ms with
// PostgreSQL's reads on the main thread, 141 ms in workers). Workers run at a low priority
// (worker.ts), so the event loop keeps its core. Reads of no class (a record by id, a page in
// id order, the version) run at once, on the main thread, as before.
import type { Config } from '../config.js';
import type { Filters } from '../store/filters.js';
import type { Box, BuildingLabels, MatchIds, StreetBuildings } from '../store/map-plans.js';
import type { SearchCards, YearCounts } from '../store/site-plans.js';
import type { ItemDetail, ItemIds, ItemsPage, ItemsQuery, ItemsRequest, ItemStream, OgcExtents } from '../store/ogc-plans.js';
import type { PictureSize } from '../contributions/kinds.js';
import type { PublicPicture } from '../store/picture-plans.js';
import type { CatalogueReader, CollectionName, Detail, LinkedPictures, Listing, Overview, PoolStats, Replication, RowsByCollection, VectorTile } from '../store/store.js';
import type { CatalogueCollection } from '../catalogue/collections.js';
import type { PageRequest } from '../pagination.js';
import { itemsClass, listClass, MAP_VIEW_FOOTPRINTS, mapViewBox, workGates, type Gates, type WorkClass, type WorkLimitsConfig } from './classes.js';
import { WorkerLane } from './pool.js';
import { fromWire, type BuiltGeoPackage, type DownloadCall, type GeoPackageCall, type OffloadedRead, type WorkerSetup } from './protocol.js';
import { startDownload, type WorkerDownload } from './download-stream.js';

export type GuardConfig = Pick<Config, 'database' | 'databaseSchema' | 'poolSize'> & WorkLimitsConfig;

/** A server's store, its reads bounded by class; its worker threads end with `closeWorkers`, the store itself with its owner. */
export function guardStore(store: CatalogueReader, config: GuardConfig): GuardedStore {
  if (store instanceof GuardedStore) return store;
  // A worker needs few connections: one read, or one download's snapshot.
  const setup: WorkerSetup = { database: config.database, databaseSchema: config.databaseSchema, poolSize: 2, dbTimeoutMs: config.dbTimeoutMs };
  return new GuardedStore(store, workGates(config), setup, config.dbTimeoutMs);
}

export class GuardedStore implements CatalogueReader {
  readonly poolStats?: () => PoolStats;
  readonly replication?: () => Promise<Replication>;
  /** A lane of worker threads per class, made when first used. */
  private readonly lanes = new Map<WorkClass, WorkerLane>();
  private keptExtents: OgcExtents | null = null;

  constructor(
    private readonly inner: CatalogueReader,
    readonly gates: Gates,
    private readonly setup: WorkerSetup,
    private readonly deadlineMs: number,
  ) {
    if (inner.poolStats) this.poolStats = () => inner.poolStats!();
    if (inner.replication) this.replication = () => inner.replication!();
  }

  list<C extends CollectionName>(collection: C, page: PageRequest, filters: Filters = {}): Promise<Listing<RowsByCollection[C]>> {
    const klass = listClass(filters);
    return klass === null ? this.inner.list(collection, page, filters) : this.offload(klass, 'list', [collection, page, filters]);
  }

  get<C extends CollectionName>(collection: C, id: number): Promise<Detail<RowsByCollection[C]>> {
    return this.inner.get(collection, id);
  }

  catalogueVersion(): Promise<number> {
    return this.inner.catalogueVersion();
  }

  databaseIdentity(): Promise<string> {
    return this.inner.databaseIdentity();
  }

  /** An index lookup of one row: inline, like a record's detail. */
  picture(upload: string, size: PictureSize): Promise<PublicPicture> {
    return this.inner.picture(upload, size);
  }

  linkedPictures(): Promise<LinkedPictures> {
    return this.inner.linkedPictures();
  }

  async items(collection: CatalogueCollection, request: ItemsRequest): Promise<ItemsPage> {
    const klass = itemsClass(request);
    if (klass === null) return this.inner.items(collection, request);
    if (await this.isMapView(collection, request)) return this.inner.items(collection, { ...request, fewCandidates: true });
    return this.offload(klass, 'items', [collection, request]);
  }

  /**
   * A page in a box of few footprints: bounded, so answered inline (classes.ts
   * MAP_VIEW_FOOTPRINTS). A caller that counted them already (`fewCandidates`: a record
   * page's surroundings) is not asked again, a round trip fewer.
   */
  private async isMapView(collection: CatalogueCollection, request: ItemsRequest): Promise<boolean> {
    const box = mapViewBox(collection, request);
    if (box === null) return false;
    return request.fewCandidates === true || (await this.inner.boxCandidates(box, MAP_VIEW_FOOTPRINTS)) <= MAP_VIEW_FOOTPRINTS;
  }

  item(collection: CatalogueCollection, id: number): Promise<ItemDetail> {
    return this.inner.item(collection, id);
  }

  itemStream(collection: CatalogueCollection, query: ItemsQuery, batchRows?: number): Promise<ItemStream> {
    return this.inner.itemStream(collection, query, batchRows);
  }

  itemIds(): Promise<ItemIds> {
    return this.offload('reads', 'itemIds', []);
  }

  /**
   * Each collection's extent and time range: a scan of every collection, and a function of the
   * catalogue version, so kept for the version it was read at (as the answer cache keeps
   * answers). Read each time, an uncached collection was 21 answers a second (and most
   * requests refused) where MapServer made 315 (bench --peers, PostgreSQL); the version is one row, read inline.
   */
  async extents(): Promise<OgcExtents> {
    const kept = this.keptExtents;
    if (kept !== null && kept.version === (await this.inner.catalogueVersion())) return kept;
    const extents = await this.offload<OgcExtents>('reads', 'extents', []);
    this.keptExtents = extents;
    return extents;
  }

  overview(): Promise<Overview> {
    return this.offload('reads', 'overview', []);
  }

  tile(z: number, x: number, y: number): Promise<VectorTile> {
    // Inline: bounded by design (at most 500 footprints and 10,000 positions a tile, crowded ones made at import), and a map asks for dozens at once.
    return this.inner.tile(z, x, y);
  }

  matchIds(filters: Filters): Promise<MatchIds> {
    return this.offload('reads', 'matchIds', [filters]);
  }

  streetBuildings(unlessStamp: string | null = null): Promise<StreetBuildings> {
    return this.offload('reads', 'streetBuildings', [unlessStamp]);
  }

  buildingLabels(box: Box, limit: number): Promise<BuildingLabels> {
    return this.offload('reads', 'buildingLabels', [box, limit]);
  }

  yearCounts(): Promise<YearCounts> {
    return this.offload('reads', 'yearCounts', []);
  }

  searchCards(page: PageRequest, filters: Filters): Promise<SearchCards> {
    // As a list of the same filters is (a page by position inline, any filter a costly read).
    const klass = listClass(filters);
    return klass === null ? this.inner.searchCards(page, filters) : this.offload(klass, 'searchCards', [page, filters]);
  }

  boxCandidates(box: readonly [number, number, number, number], atMost: number): Promise<number> {
    return this.inner.boxCandidates(box, atMost);
  }

  /**
   * A download made in a worker thread (encoded there too: a batch of large footprints is
   * tens of milliseconds of work), in a turn of `downloads` held until the body ends.
   */
  async download(request: DownloadCall): Promise<WorkerDownload> {
    const release = await this.gates.downloads.enter();
    try {
      const download = await startDownload(this.lane('downloads'), request, this.deadlineMs);
      download.body.once('close', release);
      return download;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** A GeoPackage written whole into `file` in a worker thread, in a turn of `builds`. */
  buildGeoPackage(request: GeoPackageCall): Promise<BuiltGeoPackage> {
    return this.gates.builds.run(async () => (await this.lane('builds').call(request, this.deadlineMs, { progress: true })) as BuiltGeoPackage);
  }

  async closeWorkers(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => lane.close()));
  }

  /** In a turn of its class, in a worker of its class (a read of no class runs inline, in the caller). */
  private offload<R>(klass: WorkClass, method: OffloadedRead, args: unknown[]): Promise<R> {
    return this.gates[klass].run(async () => fromWire(await this.lane(klass).call({ kind: 'read', method, args }, this.deadlineMs)) as R);
  }

  private lane(klass: WorkClass): WorkerLane {
    let lane = this.lanes.get(klass);
    if (lane === undefined) {
      lane = new WorkerLane(this.setup);
      this.lanes.set(klass, lane);
    }
    return lane;
  }
}

