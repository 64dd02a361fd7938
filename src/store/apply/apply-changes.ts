// A change file applied inside one transaction, written once for both stores (each hands in
// an ApplyDriver): its references judged against the catalogue as it will be, then only
// what changed is written and derived again (apply-derived.ts). The store begins and ends
// the transaction; nothing here commits.
import type { Problem } from '../../catalogue/format.js';
import { PROBLEM_LIMIT } from '../../catalogue/problem-list.js';
import { CATALOGUE_LISTS, perList, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import type { ChangeSet } from '../../changes/format.js';
import type { TileChange } from '../../tiles/edit.js';
import { rederive, type Changed } from './apply-derived.js';
import { judgeChanges } from './apply-judge.js';
import type { Dialect } from '../dialect.js';
import { runAsync, type Plan } from '../read-plans.js';
import { recordColumnList, recordFromRow } from '../record-columns.js';

export type Row = Readonly<Record<string, unknown>>;

/** What apply needs of a store inside its open transaction. */
export interface ApplyDriver {
  readonly dialect: Dialect;
  /** SQL with `$n` placeholders, each once and in order. */
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  /** A row for a table as catalogue-rows.ts names them (`feature_boxes` included); written by `flush` at the latest. */
  write(table: string, row: Record<string, unknown>): void;
  flush(): Promise<void>;
  /** Deletes the footprint boxes of these features where the store keeps them apart (SQLite's R*Tree). */
  deleteBoxes(ids: readonly number[]): Promise<void>;
  /** The stored tiles these changed features reach are stale: edited, dropped or made (tile-plans.ts refreshTilesPlan). */
  refreshTiles(changes: readonly TileChange[]): Promise<void>;
  /** Moves the catalogue version on; returns the new one. */
  nextVersion(): Promise<number>;
}

/** What a list's part of the file does to the stored catalogue. */
export interface ListOutcome {
  added: number[];
  replaced: number[];
  removed: number[];
  /** Records put exactly as stored, and ids removed that are not there. */
  unchanged: number;
}

export type ChangeSummary = Record<ListName, ListOutcome>;

export type ApplyOutcome =
  | { ok: false; problems: Problem[]; total: number }
  /** version: the new catalogue version; null when nothing changed or on a dry run. */
  | { ok: true; summary: ChangeSummary; version: number | null };

export interface ApplyOptions {
  dryRun?: boolean;
}

/**
 * A change decided inside apply's own transaction (an editor's approval): the change set made
 * from what the store holds once the writer's lock is taken (a new record's id, its author),
 * and what is written beside it when it is applied (the contribution's state, the history),
 * so that both are one commit or neither.
 */
export interface PlannedChange {
  changes(dialect: Dialect): Plan<ChangeSet>;
  /**
   * Run once the change set is written (not on a refusal): `before`, the records it touched as
   * they were; `version`, the catalogue version it made (null: it changed no record).
   */
  alongside(dialect: Dialect, changes: ChangeSet, before: Stored, version: number | null): Plan<void>;
}

/** Stored records of a list by id. */
export type Stored = { [L in ListName]: Map<number, CatalogueRecord<L>> };

/** Judges the file against the stored catalogue, then (unless a dry run or nothing changes) writes it. */
export async function applyChangeSet(driver: ApplyDriver, change: ChangeSet | PlannedChange, options: ApplyOptions = {}): Promise<ApplyOutcome> {
  const run = <R>(plan: Plan<R>) => runAsync(plan, (q) => driver.query(q.sql, q.params));
  const planned = 'alongside' in change ? change : null;
  const changes = 'alongside' in change ? await run(change.changes(driver.dialect)) : change;
  const outcome = await applyWhole(driver, changes, options);
  if (planned && outcome.ok && !options.dryRun) await run(planned.alongside(driver.dialect, changes, outcome.stored, outcome.version));
  if (!outcome.ok) return outcome;
  const { stored: _, ...applied } = outcome;
  return applied;
}

/** Whether the store commits what apply did: a change, or what a planned change wrote beside none. */
export function commits(outcome: ApplyOutcome, change: ChangeSet | PlannedChange, options: ApplyOptions): boolean {
  return outcome.ok && !options.dryRun && (outcome.version !== null || 'alongside' in change);
}

async function applyWhole(driver: ApplyDriver, changes: ChangeSet, options: ApplyOptions): Promise<Extract<ApplyOutcome, { ok: false }> | (Extract<ApplyOutcome, { ok: true }> & { stored: Stored })> {
  const stored = await readTouched(driver, changes);
  const problems = await judgeChanges(driver, changes, stored);
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, PROBLEM_LIMIT), total: problems.length };
  const changed = whatChanges(changes, stored);
  const summary = summarise(changes, changed);
  if (options.dryRun || !anyChange(summary)) return { ok: true, summary, version: null, stored };
  await rederive(driver, changed);
  return { ok: true, summary, version: await driver.nextVersion(), stored };
}

/** The stored records the file puts or removes, a list at a time: one connection runs one query at a time (pg warns of more). */
async function readTouched(driver: ApplyDriver, changes: ChangeSet): Promise<Stored> {
  const touched = async <L extends ListName>(list: L): Promise<Map<number, CatalogueRecord<L>>> => {
    const put: readonly CatalogueRecord[] = changes[list].put;
    const records = await readRecords(driver, list, [...put.map((r) => r.id), ...changes[list].remove]);
    return new Map(records.map((r) => [idOf(r), r]));
  };
  return {
    authors: await touched('authors'), categories: await touched('categories'), sites: await touched('sites'), features: await touched('features'),
    images: await touched('images'), documents: await touched('documents'), media: await touched('media'),
  };
}

const idOf = (record: CatalogueRecord): number => record.id;

/** Stored records of a list by id, in id order (ids absent are left out). */
export async function readRecords<L extends ListName>(driver: ApplyDriver, list: L, ids: readonly number[]): Promise<CatalogueRecord<L>[]> {
  if (ids.length === 0) return [];
  const d = driver.dialect;
  const rows = await driver.query(`SELECT ${recordColumnList(list, list, d.categoryIds)} FROM ${list} WHERE ${d.idIn('id', '$1')} ORDER BY id`, [d.idsParam(ids)]);
  return rows.map((row) => recordFromRow(list, row));
}

/** Records put that differ from the stored ones (or are new), and stored records removed. */
function whatChanges(changes: ChangeSet, stored: Stored): Changed {
  const of = <L extends ListName>(list: L) => listChanged<CatalogueRecord<L>>(changes[list].put, changes[list].remove, stored[list]);
  return {
    authors: of('authors'), categories: of('categories'), sites: of('sites'), features: of('features'),
    images: of('images'), documents: of('documents'), media: of('media'),
  };
}

function listChanged<R extends CatalogueRecord>(given: readonly R[], remove: readonly number[], before: ReadonlyMap<number, R>): { put: R[]; old: R[] } {
  const put = given.filter((r) => !sameRecord(before.get(r.id), r));
  const old = [...put.map((r) => before.get(r.id)), ...remove.map((id) => before.get(id))].filter((r): r is R => r !== undefined);
  return { put, old };
}

/** Both normalised with their keys in declaration order (normalise.ts, record-columns.ts): equal text, equal record. */
function sameRecord(a: CatalogueRecord | undefined, b: CatalogueRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

function summarise(changes: ChangeSet, changed: Changed): ChangeSummary {
  return perList((list): ListOutcome => {
    const oldIds = new Set(changed[list].old.map((r) => r.id));
    const put = changed[list].put.map((r) => r.id);
    const removed = changes[list].remove.filter((id) => oldIds.has(id));
    const added = put.filter((id) => !oldIds.has(id));
    const replaced = put.filter((id) => oldIds.has(id));
    const given = changes[list].put.length + changes[list].remove.length;
    return { added, replaced, removed, unchanged: given - added.length - replaced.length - removed.length };
  });
}

function anyChange(summary: ChangeSummary): boolean {
  return CATALOGUE_LISTS.some((list) => summary[list].added.length + summary[list].replaced.length + summary[list].removed.length > 0);
}
