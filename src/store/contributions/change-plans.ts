// The editors' changes as plans (issue 47), written once for both stores: records read back
// whole without the engine's dialect (a route's transaction has none), the labels of records,
// the latest changes across the catalogue grouped by the version each made, a change undone
// as one (every record it touched, in one new version), and a change file applied as one change.
import { createHash } from 'node:crypto';
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import { emptyChangeSet, putRecord, type ChangeSet } from '../../changes/format.js';
import type { PlannedChange, Stored } from '../apply/apply-changes.js';
import type { Plan } from '../read-plans.js';
import { recordColumnList, recordFromRow } from '../record-columns.js';
import { firstRow, num, numOrNull, oneOf, readRows, text, textOrNull, type Cells } from '../rows.js';
import { followRecordPlan, historyPlan, type RecordChange } from './contribution-plans.js';

/** Ids asked of one statement at most (PostgreSQL and SQLite both take far more parameters). */
const ID_BATCH = 500;

const placeholders = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `$${i + from}`).join(', ');

function batches(ids: readonly number[]): number[][] {
  const unique = [...new Set(ids)];
  const out: number[][] = [];
  for (let i = 0; i < unique.length; i += ID_BATCH) out.push(unique.slice(i, i + ID_BATCH));
  return out;
}

/**
 * Stored records of a list by id, as apply reads them (record-columns.ts), in SQL both engines
 * speak: a feature's categories read from their own rows, in their order.
 */
export function* storedRecordsPlan<L extends ListName>(list: L, ids: readonly number[]): Plan<Map<number, CatalogueRecord<L>>> {
  const found = new Map<number, CatalogueRecord<L>>();
  for (const batch of batches(ids)) {
    const rows = yield { sql: `SELECT ${recordColumnList(list, list, () => 'NULL')} FROM ${list} WHERE id IN (${placeholders(batch.length)})`, params: batch };
    const categories = list === 'features' ? yield* categoriesPlan(batch) : null;
    for (const row of readRows(rows, (r) => r)) {
      const id = num(row.id);
      found.set(id, recordFromRow(list, categories === null ? row : { ...row, categories: (categories.get(id) ?? []).join(',') }));
    }
  }
  return found;
}

function* categoriesPlan(featureIds: readonly number[]): Plan<Map<number, number[]>> {
  const rows = yield { sql: `SELECT feature_id, category_id FROM feature_categories WHERE feature_id IN (${placeholders(featureIds.length)}) ORDER BY feature_id, position`, params: [...featureIds] };
  const byFeature = new Map<number, number[]>();
  for (const r of readRows(rows, (c) => ({ feature: num(c.feature_id), category: num(c.category_id) }))) {
    byFeature.set(r.feature, [...(byFeature.get(r.feature) ?? []), r.category]);
  }
  return byFeature;
}

/** What names a stored record, and whether it is public (a list without the flag: always). */
export interface RecordLabel {
  label: string;
  published: boolean;
}

export type Labels = { [L in ListName]: Map<number, RecordLabel> };

/** The SQL of each list's label and published flag. */
const LABEL_SQL: Readonly<Record<ListName, { label: string; published: string }>> = {
  authors: { label: 'username', published: '1' },
  categories: { label: 'name', published: '1' },
  sites: { label: 'name', published: '1' },
  features: { label: `COALESCE(NULLIF(${F.name}, ''), ${F.address})`, published: '1' },
  images: { label: 'title', published: 'published' },
  documents: { label: 'title', published: 'published' },
  media: { label: 'title', published: 'published' },
};

/** The labels of stored records, list by list (a number of no stored record is left out). */
export function* labelsPlan(ids: Partial<Record<ListName, readonly number[]>>): Plan<Labels> {
  const labels: Labels = { authors: new Map(), categories: new Map(), sites: new Map(), features: new Map(), images: new Map(), documents: new Map(), media: new Map() };
  for (const list of CATALOGUE_LISTS) {
    const { label, published } = LABEL_SQL[list];
    for (const batch of batches(ids[list] ?? [])) {
      const rows = yield { sql: `SELECT id, ${label} AS label, ${published} AS published FROM ${list} WHERE id IN (${placeholders(batch.length)})`, params: batch };
      for (const r of readRows(rows, (c) => ({ id: num(c.id), label: textOrNull(c.label) ?? '', published: Boolean(Number(c.published)) }))) {
        labels[list].set(r.id, { label: r.label, published: r.published });
      }
    }
  }
  return labels;
}

/** What a change did to one record: made it, changed it, or removed it. */
export type RecordFate = 'added' | 'changed' | 'removed';

export interface TouchedRecord {
  list: ListName;
  recordId: number;
  fate: RecordFate;
  /** A removed record's first characters of JSON as it was (what names it comes first), to name it by. */
  wasPrefix: string | null;
}

/** One change as the latest changes list it: who, when, what, the records it touched (the first few). */
export interface ChangeGroup {
  /** Its first row: what an undo names. */
  id: number;
  version: number | null;
  username: string | null;
  at: number;
  what: string;
  records: TouchedRecord[];
  /** How many records it touched in all. */
  count: number;
  /** Whether it is still the latest change of every record it touched (an undo is then offered). */
  latest: boolean;
}

/** The records a change of the latest changes page lists by name; the rest are counted. */
export const GROUP_RECORDS_SHOWN = 10;

const listOf = oneOf(CATALOGUE_LISTS);

function toTouched(r: Cells): TouchedRecord & { id: number; username: string | null; at: number; what: string } {
  const added = Boolean(Number(r.added));
  const removed = Boolean(Number(r.removed));
  return {
    id: num(r.id), list: listOf(r.list), recordId: num(r.record_id), username: textOrNull(r.username), at: num(r.at), what: text(r.what),
    fate: added ? 'added' : removed ? 'removed' : 'changed', wasPrefix: textOrNull(r.was_prefix),
  };
}

/** A removed record's JSON read this far: its label's fields come before any long one (catalogue/fields.ts's order). */
const WAS_PREFIX_CHARS = 1_000;

const TOUCHED = `SELECT r.id, r.list, r.record_id, a.username, r.at, r.what,
  CASE WHEN r.before_json IS NULL THEN 1 ELSE 0 END AS added, CASE WHEN r.after_json IS NULL THEN 1 ELSE 0 END AS removed,
  CASE WHEN r.after_json IS NULL THEN substr(r.before_json, 1, ${WAS_PREFIX_CHARS}) END AS was_prefix
  FROM record_changes r LEFT JOIN accounts a ON a.id = r.account_id`;

/** A row a later change of the same record follows. */
const OVERTAKEN = 'EXISTS (SELECT 1 FROM record_changes l WHERE l.list = r.list AND l.record_id = r.record_id AND l.id > r.id)';

/**
 * The latest changes across the catalogue, newest first: at most `size` changes made before
 * the row `before` (null: from the newest), and the cursor of the page after (null: none).
 * Each change is found by its newest row, then stepped over whole (its first row found by its
 * version's index): a page costs a few indexed reads per change, however large a change is.
 */
export function* recentChangesPlan(before: number | null, size: number): Plan<{ changes: ChangeGroup[]; next: number | null }> {
  const changes: ChangeGroup[] = [];
  let cursor = before ?? Number.MAX_SAFE_INTEGER;
  while (changes.length < size) {
    const head = firstRow(yield { sql: 'SELECT id, change_version FROM record_changes WHERE id < $1 ORDER BY id DESC LIMIT 1', params: [cursor] }, (r) => ({ id: num(r.id), version: numOrNull(r.change_version) }));
    if (head === null) return { changes, next: null };
    const group = yield* changeGroupPlan(head);
    changes.push(group);
    cursor = group.id;
  }
  const more = (yield { sql: 'SELECT id FROM record_changes WHERE id < $1 LIMIT 1', params: [cursor] }).length > 0;
  return { changes, next: more ? cursor : null };
}

function* changeGroupPlan(head: { id: number; version: number | null }): Plan<ChangeGroup> {
  const where = head.version === null ? 'r.id = $1' : 'r.change_version = $1';
  const key = head.version ?? head.id;
  const rows = readRows(yield { sql: `${TOUCHED} WHERE ${where} ORDER BY r.id LIMIT ${GROUP_RECORDS_SHOWN}`, params: [key] }, toTouched);
  const counted = firstRow(yield { sql: `SELECT count(*) AS n, min(r.id) AS first FROM record_changes r WHERE ${where}`, params: [key] }, (r) => ({ n: num(r.n), first: num(r.first) }));
  const overtaken = (yield { sql: `SELECT r.id FROM record_changes r WHERE ${where} AND ${OVERTAKEN} LIMIT 1`, params: [key] }).length > 0;
  const first = rows[0];
  if (first === undefined || counted === null) throw new Error('a change of the history has no rows');
  return {
    id: counted.first, version: head.version, username: first.username, at: first.at, what: first.what,
    records: rows.map(({ list, recordId, fate, wasPrefix }) => ({ list, recordId, fate, wasPrefix })), count: counted.n, latest: !overtaken,
  };
}

/** The other records of each change (by version), the first few of each, for a record's history. */
export function* companionsPlan(versions: readonly number[]): Plan<Map<number, { records: TouchedRecord[]; count: number }>> {
  const found = new Map<number, { records: TouchedRecord[]; count: number }>();
  for (const version of new Set(versions)) {
    const rows = readRows(yield { sql: `${TOUCHED} WHERE r.change_version = $1 ORDER BY r.id LIMIT ${GROUP_RECORDS_SHOWN + 1}`, params: [version] }, toTouched);
    const count = firstRow(yield { sql: 'SELECT count(*) AS n FROM record_changes WHERE change_version = $1', params: [version] }, (r) => num(r.n)) ?? 0;
    found.set(version, { records: rows.map(({ list, recordId, fate, wasPrefix }) => ({ list, recordId, fate, wasPrefix })), count });
  }
  return found;
}

/** Why an undo changed nothing: this record is no longer as the change left it. */
export interface UndoRefusal {
  list: ListName;
  recordId: number;
}

export interface Undo extends PlannedChange {
  refusal(): UndoRefusal | null;
}

const sameKept = (a: CatalogueRecord | null | undefined, b: CatalogueRecord | null) => JSON.stringify(a ?? null) === JSON.stringify(b);

/**
 * A change undone as one: every record it touched put back as it was before (or removed, if
 * the change made it), in one new version, itself a change kept in the history. Nothing
 * happens when any of its records has changed since (read inside the transaction, under the
 * writer's lock): an undo never overwrites a later edit unseen; `refusal` names that record.
 */
export function undoChange(rows: readonly RecordChange[], editorId: number, now: number): Undo {
  let refusal: UndoRefusal | null = null;
  const first = rows[0];
  return {
    refusal: () => refusal,
    *changes() {
      const changes = emptyChangeSet();
      for (const list of CATALOGUE_LISTS) {
        const ofList = rows.filter((r) => r.list === list);
        if (ofList.length === 0) continue;
        const current = yield* storedRecordsPlan(list, ofList.map((r) => r.recordId));
        const moved = ofList.find((r) => !sameKept(current.get(r.recordId), r.after));
        if (moved !== undefined) {
          refusal = { list, recordId: moved.recordId };
          return emptyChangeSet();
        }
        for (const r of ofList) {
          if (r.before === null) changes[list].remove.push(r.recordId);
          else putRecord(changes, list, r.before);
        }
      }
      return changes;
    },
    *alongside(dialect, applied, before, version) {
      if (refusal !== null || first === undefined) return;
      yield* historyPlan(dialect, applied, before, { accountId: editorId, now, what: `undid change ${first.id}`, version });
      for (const r of rows) yield* followRecordPlan(r.list, r.recordId);
    },
  };
}

/** A change file's records as the store held them when it was judged: put or removed, by list. */
export type Before = { [L in ListName]: Map<number, CatalogueRecord<L>> };

export interface FileChange extends PlannedChange {
  /** The records the file touches as they were (read inside the transaction). */
  before(): Before | null;
  /** The digest of `before`: what a preview saw, sent back with its application. */
  seen(): string | null;
  /** Whether the application found the records changed since the preview (nothing was changed). */
  stale(): boolean;
}

/** A digest of the records a file touches, as stored: equal digests, equal records. */
function beforeDigest(changes: ChangeSet, before: Before): string {
  const hash = createHash('sha256');
  for (const list of CATALOGUE_LISTS) {
    const ids = [...changes[list].put.map((r) => r.id), ...changes[list].remove].sort((a, b) => a - b);
    for (const id of ids) hash.update(`${list}\n${id}\n${JSON.stringify(before[list].get(id) ?? null)}\n`);
  }
  return hash.digest('base64url');
}

/**
 * A change file applied through the site as one change: its records as stored read first
 * (a preview's dry run shows them; an application compares their digest with the one its
 * preview saw, and changes nothing when they differ), then, once written, the history of
 * every record it changed, with the version it made.
 */
export function fileChange(changes: ChangeSet, by: { editorId: number; now: number; what: string }, seen: string | null): FileChange {
  let before: Before | null = null;
  let digest: string | null = null;
  let stale = false;
  return {
    before: () => before,
    seen: () => digest,
    stale: () => stale,
    *changes() {
      const read = <L extends ListName>(list: L) => storedRecordsPlan(list, [...changes[list].put.map((r) => r.id), ...changes[list].remove]);
      const kept: Before = {
        authors: yield* read('authors'), categories: yield* read('categories'), sites: yield* read('sites'), features: yield* read('features'),
        images: yield* read('images'), documents: yield* read('documents'), media: yield* read('media'),
      };
      before = kept;
      digest = beforeDigest(changes, kept);
      stale = seen !== null && seen !== digest;
      return stale ? emptyChangeSet() : changes;
    },
    *alongside(dialect, applied, stored: Stored, version) {
      if (stale) return;
      yield* historyPlan(dialect, applied, stored, { accountId: by.editorId, now: by.now, what: by.what, version });
    },
  };
}
