// Contributions (account-schema.ts) as plans, written once for both stores: sent, listed
// for their author and for the editors, corrected, rejected, and published, the last as a
// change planned inside apply's own transaction (apply-changes.ts PlannedChange), so that
// the record, its author, the contribution's state and the history are one commit.
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';
import { emptyChangeSet, type ChangeSet } from '../changes/format.js';
import { KIND_LISTS, recordOf, type ContributionFields, type ContributionKind } from '../contributions/kinds.js';
import type { PlannedChange, Stored } from './apply-changes.js';
import type { Dialect } from './dialect.js';
import type { Plan } from './read-plans.js';
import { recordColumnList, recordFromRow } from './record-columns.js';

export type ContributionState = 'pending' | 'published' | 'rejected';

export interface ContributionRow {
  id: number;
  accountId: number;
  /** The author's account name. */
  username: string;
  kind: ContributionKind;
  featureId: number;
  state: ContributionState;
  fields: ContributionFields;
  created: number;
  decided: number | null;
  reason: string | null;
  /** The catalogue record it became, once published. */
  recordId: number | null;
}

type Flat = Record<string, unknown>;

const COLUMNS = `c.id, c.account_id, a.username, c.kind, c.feature_id, c.state, c.fields, c.created, c.decided, c.reason, c.record_id
  FROM contributions c JOIN accounts a ON a.id = c.account_id`;

const orNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toContribution(r: Flat): ContributionRow {
  return {
    id: Number(r.id), accountId: Number(r.account_id), username: String(r.username), kind: r.kind as ContributionKind, featureId: Number(r.feature_id),
    state: r.state as ContributionState, fields: JSON.parse(String(r.fields)) as ContributionFields, created: Number(r.created),
    decided: orNull(r.decided), reason: r.reason === null || r.reason === undefined ? null : String(r.reason), recordId: orNull(r.record_id),
  };
}

export function* sendContributionPlan(c: { accountId: number; kind: ContributionKind; featureId: number; fields: ContributionFields; now: number }): Plan<number> {
  const rows = (yield {
    sql: "INSERT INTO contributions (account_id, kind, feature_id, state, fields, created) VALUES ($1, $2, $3, 'pending', $4, $5) RETURNING id",
    params: [c.accountId, c.kind, c.featureId, JSON.stringify(c.fields), c.now],
  }) as Flat[];
  return Number(rows[0]!.id);
}

/** An account's own contributions, newest first. */
export function* contributionsOfPlan(accountId: number): Plan<ContributionRow[]> {
  return ((yield { sql: `SELECT ${COLUMNS} WHERE c.account_id = $1 ORDER BY c.id DESC LIMIT 200`, params: [accountId] }) as Flat[]).map(toContribution);
}

/** The editors' queue: what waits, oldest first. */
export function* queuePlan(limit: number): Plan<ContributionRow[]> {
  return ((yield { sql: `SELECT ${COLUMNS} WHERE c.state = 'pending' ORDER BY c.id LIMIT $1`, params: [limit] }) as Flat[]).map(toContribution);
}

export function* contributionPlan(id: number): Plan<ContributionRow | null> {
  const rows = (yield { sql: `SELECT ${COLUMNS} WHERE c.id = $1`, params: [id] }) as Flat[];
  return rows[0] === undefined ? null : toContribution(rows[0]);
}

/** An editor's correction of a pending contribution's fields; false when it is no longer pending. */
export function* correctPlan(id: number, fields: ContributionFields): Plan<boolean> {
  const rows = (yield { sql: "UPDATE contributions SET fields = $1 WHERE id = $2 AND state = 'pending' RETURNING id", params: [JSON.stringify(fields), id] }) as Flat[];
  return rows.length === 1;
}

/** Rejected with the editor's reason; false when it is no longer pending. */
export function* rejectPlan(id: number, editorId: number, reason: string, now: number): Plan<boolean> {
  const rows = (yield {
    sql: "UPDATE contributions SET state = 'rejected', decided = $1, decided_by = $2, reason = $3 WHERE id = $4 AND state = 'pending' RETURNING id",
    params: [now, editorId, reason, id],
  }) as Flat[];
  return rows.length === 1;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A pending contribution published by an editor: a new record (an id never used in its list,
 * nor by an earlier change through the site), its author the catalogue author of the
 * contributor's name (made when there is none). An empty change when it is no longer pending
 * (approved twice at once: the second finds it published).
 */
export function publishChange(id: number, editorId: number, now: number): PlannedChange {
  let record: { list: ListName; id: number } | null = null;
  return {
    *changes(): Plan<ChangeSet> {
      const changes = emptyChangeSet();
      const found = yield* contributionPlan(id);
      if (found === null || found.state !== 'pending') return changes;
      const list = KIND_LISTS[found.kind];
      const author = yield* authorFor(found.accountId, found.username, changes);
      const recordId = yield* unusedId(list);
      (changes[list].put as CatalogueRecord[]).push(recordOf(found.kind, found.fields, { id: recordId, feature: found.featureId, author, day: isoDay(now) }));
      record = { list, id: recordId };
      return changes;
    },
    *alongside(dialect, changes, before): Plan<void> {
      if (record === null) return;
      const rows = (yield {
        sql: "UPDATE contributions SET state = 'published', decided = $1, decided_by = $2, record_id = $3 WHERE id = $4 AND state = 'pending' RETURNING id",
        params: [now, editorId, record.id, id],
      }) as Flat[];
      if (rows.length !== 1) throw new Error(`contribution ${id} changed while it was being published`);
      yield* historyPlan(dialect, changes, before, { accountId: editorId, now, what: `approved contribution ${id}` });
    },
  };
}

/**
 * The catalogue author an account's contribution is credited as: the one linked to the account
 * (by an operator, `users add --author`, or at its first publication); else one made now and
 * linked, under the account's name, or, when an author of that name exists and is not the
 * account's (an account made before authors' names were kept for them), under a name of its
 * own, "NAME (account N)": a new author, never that author's credit. The account's row is
 * locked first, so that two publications of its contributions at once make one author.
 */
function* authorFor(accountId: number, username: string, changes: ChangeSet): Plan<number> {
  const linked = (yield { sql: 'UPDATE accounts SET author_id = author_id WHERE id = $1 RETURNING author_id', params: [accountId] }) as Flat[];
  const linkedId = orNull(linked[0]?.author_id);
  if (linkedId !== null && ((yield { sql: 'SELECT id FROM authors WHERE id = $1', params: [linkedId] }) as Flat[]).length === 1) return linkedId;
  const named = ((yield { sql: 'SELECT id FROM authors WHERE username = $1 ORDER BY id LIMIT 1', params: [username] }) as Flat[])[0];
  let id = named === undefined ? null : Number(named.id);
  if (id === null || !(yield* madeForAccountPlan(id, accountId))) {
    id = yield* unusedId('authors');
    changes.authors.put.push({ id, username: named === undefined ? username : `${username} (account ${accountId})` });
  }
  yield { sql: 'UPDATE accounts SET author_id = $1 WHERE id = $2', params: [id, accountId] };
  return id;
}

/**
 * Whether this author was made by publishing a contribution of this account (the history says
 * so) and is linked to no account: how an account credited before accounts were linked is
 * found to be its author.
 */
function* madeForAccountPlan(authorId: number, accountId: number): Plan<boolean> {
  const rows = (yield {
    sql: `SELECT r.id FROM record_changes r JOIN contributions c ON r.what = 'approved contribution ' || c.id
      WHERE r.list = 'authors' AND r.record_id = $1 AND r.before_json IS NULL AND c.account_id = $2
        AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.author_id = $3) LIMIT 1`,
    params: [authorId, accountId, authorId],
  }) as Flat[];
  return rows.length === 1;
}

function* unusedId(list: ListName): Plan<number> {
  const rows = (yield {
    sql: `SELECT max(n) AS n FROM (SELECT max(id) AS n FROM ${list} UNION ALL SELECT max(record_id) AS n FROM record_changes WHERE list = $1) t`,
    params: [list],
  }) as Flat[];
  return (orNull(rows[0]?.n) ?? 0) + 1;
}

/** A record as the store holds it (the form apply reads and compares), or null. */
export function* storedRecordPlan(list: ListName, id: number, d: Dialect): Plan<CatalogueRecord | null> {
  const rows = (yield { sql: `SELECT ${recordColumnList(list, list, d.categoryIds)} FROM ${list} WHERE id = $1`, params: [id] }) as Flat[];
  return rows[0] === undefined ? null : recordFromRow(list, rows[0]);
}

/** Every record a change through the site put or removed, before and after (as stored once written), with who and when. */
export function* historyPlan(d: Dialect, changes: ChangeSet, before: Stored, by: { accountId: number; now: number; what: string }): Plan<void> {
  for (const list of Object.keys(changes) as ListName[]) {
    const was = before[list] as Map<number, CatalogueRecord>;
    for (const recordId of [...(changes[list].put as CatalogueRecord[]).map((r) => r.id), ...changes[list].remove]) {
      const prior = was.get(recordId) ?? null;
      const after = yield* storedRecordPlan(list, recordId, d);
      if (JSON.stringify(prior) === JSON.stringify(after)) continue;
      yield {
        sql: 'INSERT INTO record_changes (list, record_id, account_id, at, what, before_json, after_json) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        params: [list, recordId, by.accountId, by.now, by.what, prior === null ? null : JSON.stringify(prior), after === null ? null : JSON.stringify(after)],
      };
    }
  }
}

export interface RecordChange {
  id: number;
  list: ListName;
  recordId: number;
  /** Who made it: an account name, or null for one no longer known. */
  username: string | null;
  at: number;
  what: string;
  before: CatalogueRecord | null;
  after: CatalogueRecord | null;
}

const CHANGE_COLUMNS = `r.id, r.list, r.record_id, a.username, r.at, r.what, r.before_json, r.after_json
  FROM record_changes r LEFT JOIN accounts a ON a.id = r.account_id`;

function toChange(r: Flat): RecordChange {
  const parse = (v: unknown) => (v === null || v === undefined ? null : (JSON.parse(String(v)) as CatalogueRecord));
  return {
    id: Number(r.id), list: r.list as ListName, recordId: Number(r.record_id), username: r.username === null || r.username === undefined ? null : String(r.username),
    at: Number(r.at), what: String(r.what), before: parse(r.before_json), after: parse(r.after_json),
  };
}

/** A record's changes through the site, oldest first. */
export function* recordHistoryPlan(list: ListName, recordId: number): Plan<RecordChange[]> {
  return ((yield { sql: `SELECT ${CHANGE_COLUMNS} WHERE r.list = $1 AND r.record_id = $2 ORDER BY r.id`, params: [list, recordId] }) as Flat[]).map(toChange);
}

export function* recordChangePlan(changeId: number): Plan<RecordChange | null> {
  const rows = (yield { sql: `SELECT ${CHANGE_COLUMNS} WHERE r.id = $1`, params: [changeId] }) as Flat[];
  return rows[0] === undefined ? null : toChange(rows[0]);
}

/**
 * A change undone: its record put back as it was before (or removed, if the change made it),
 * itself a change kept in the history. Nothing happens when the record has changed since
 * (read inside the transaction): a revert never overwrites a later edit unseen.
 */
export function revertChange(change: RecordChange, editorId: number, now: number): PlannedChange {
  return {
    *changes(dialect) {
      const changes = emptyChangeSet();
      const current = yield* storedRecordPlan(change.list, change.recordId, dialect);
      if (JSON.stringify(current) !== JSON.stringify(change.after)) return changes;
      if (change.before === null) changes[change.list].remove.push(change.recordId);
      else (changes[change.list].put as CatalogueRecord[]).push(change.before);
      return changes;
    },
    *alongside(dialect, applied, before) {
      yield* historyPlan(dialect, applied, before, { accountId: editorId, now, what: `undid change ${change.id}` });
    },
  };
}
