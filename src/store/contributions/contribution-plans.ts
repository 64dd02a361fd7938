// Contributions (account-schema.ts) as plans, written once for both stores: sent, listed
// for their author and for the editors, corrected, rejected, and published, the last as a
// change planned inside apply's own transaction (apply-changes.ts PlannedChange), so that
// the record, its author, the contribution's state and the history are one commit.
import { createHash } from 'node:crypto';
import { CATALOGUE_LISTS, isKeptRecord, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import { emptyChangeSet, putRecord, type ChangeSet } from '../../changes/format.js';
import { CONTRIBUTION_KINDS, KIND_LISTS, isFieldsOf, recordOf, type ContributionFields, type ContributionKind, type ImageFields } from '../../contributions/kinds.js';
import type { PreparedPicture } from '../../contributions/pictures.js';
import { attachPicturePlan, dropPicturePlan, hasPicturePlan, keepPicturePlan } from './picture-plans.js';
import type { PlannedChange, Stored } from '../apply/apply-changes.js';
import type { Dialect } from '../dialect.js';
import type { Plan } from '../read-plans.js';
import { recordColumnList, recordFromRow } from '../record-columns.js';
import { firstRow, num, numOrNull, oneOf, readRows, text, textOrNull, type Cells } from '../rows.js';

/**
 * withdrawn: published, then its record taken back by an undo (an undo of that undo publishes
 * it again); cancelled: withdrawn by its contributor while it waited (issue 47).
 */
export const CONTRIBUTION_STATES = ['pending', 'published', 'rejected', 'withdrawn', 'cancelled'] as const;
export type ContributionState = (typeof CONTRIBUTION_STATES)[number];

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

const COLUMNS = `c.id, c.account_id, a.username, c.kind, c.feature_id, c.state, c.fields, c.created, c.decided, c.reason, c.record_id
  FROM contributions c JOIN accounts a ON a.id = c.account_id`;

const kindOf = oneOf(CONTRIBUTION_KINDS);
const stateOf = oneOf(CONTRIBUTION_STATES);

function storedFields(kind: ContributionKind, cell: unknown): ContributionFields {
  const fields: unknown = JSON.parse(text(cell));
  if (!isFieldsOf(kind, fields)) throw new TypeError(`a stored contribution's fields are not a ${kind}'s`);
  return fields;
}

function toContribution(r: Cells): ContributionRow {
  const kind = kindOf(r.kind);
  return {
    id: num(r.id), accountId: num(r.account_id), username: text(r.username), kind, featureId: num(r.feature_id),
    state: stateOf(r.state), fields: storedFields(kind, r.fields), created: num(r.created),
    decided: numOrNull(r.decided), reason: textOrNull(r.reason), recordId: numOrNull(r.record_id),
  };
}

const idOf = (r: Cells) => num(r.id);

/** The upload a picture's contribution names (its sizes in contribution_pictures); null for the other kinds. */
export function uploadOf(c: Pick<ContributionRow, 'kind' | 'fields'>): string | null {
  return c.kind === 'image' && 'upload' in c.fields ? c.fields.upload : null;
}

export function* sendContributionPlan(c: { accountId: number; kind: ContributionKind; featureId: number; fields: ContributionFields; now: number }): Plan<number> {
  const rows = yield {
    sql: "INSERT INTO contributions (account_id, kind, feature_id, state, fields, created) VALUES ($1, $2, $3, 'pending', $4, $5) RETURNING id",
    params: [c.accountId, c.kind, c.featureId, JSON.stringify(c.fields), c.now],
  };
  const id = firstRow(rows, idOf);
  if (id === null) throw new Error('INSERT … RETURNING gave no row');
  return id;
}

/** An account's own contributions, newest first. */
export function* contributionsOfPlan(accountId: number): Plan<ContributionRow[]> {
  return readRows(yield { sql: `SELECT ${COLUMNS} WHERE c.account_id = $1 ORDER BY c.id DESC LIMIT 200`, params: [accountId] }, toContribution);
}

/** The editors' queue: what waits, oldest first. */
export function* queuePlan(limit: number): Plan<ContributionRow[]> {
  return readRows(yield { sql: `SELECT ${COLUMNS} WHERE c.state = 'pending' ORDER BY c.id LIMIT $1`, params: [limit] }, toContribution);
}

export function* contributionPlan(id: number): Plan<ContributionRow | null> {
  return firstRow(yield { sql: `SELECT ${COLUMNS} WHERE c.id = $1`, params: [id] }, toContribution);
}

/** A picture's contribution and every size of the picture, in one transaction: neither is ever kept without the other. */
export function* sendPictureContributionPlan(c: { accountId: number; featureId: number; fields: ImageFields; now: number }, picture: PreparedPicture): Plan<number> {
  const id = yield* sendContributionPlan({ ...c, kind: 'image' });
  yield* keepPicturePlan(c.fields.upload, id, picture, c.now);
  return id;
}

/**
 * What an editor's page was made from: a digest of the fields as they were then, sent back
 * with the decision, so that a decision taken on fields someone has corrected since is refused
 * rather than overwriting (or publishing past) that correction unseen.
 */
export const fieldsDigest = (fields: ContributionFields) => jsonDigest(fields);

/** A short digest of a value's JSON: what a form carries to say which version of something it showed (a contribution's fields, a record, a building's attachments). */
export const jsonDigest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);

/**
 * The contribution, its row locked until the transaction ends: every decision (approve, reject,
 * save, in any process) begins here, so decisions on one contribution are taken one after
 * another and each sees the one before. An UPDATE that changes nothing takes the row's lock on
 * both stores (SQLite's write transactions hold the whole file already); PostgreSQL's READ
 * COMMITTED then reads the row as the decision before it left it.
 */
function* lockedContributionPlan(id: number): Plan<ContributionRow | null> {
  const touched = yield { sql: 'UPDATE contributions SET state = state WHERE id = $1 RETURNING id', params: [id] };
  return touched.length === 0 ? null : yield* contributionPlan(id);
}

/** Why a decision changed nothing, for the page that says so; null: it was taken. */
export type Refusal =
  | { why: 'gone' }
  /** Decided already (by this editor's other click, or another editor): the contribution as it is now. */
  | { why: 'decided'; contribution: ContributionRow }
  /** Corrected by someone else since the page was made. */
  | { why: 'stale'; contribution: ContributionRow }
  /** A picture whose sizes are not in the store (sent before issue 45). */
  | { why: 'no-picture' };

/** What an editor sends with a decision: the fields (corrected or not), and the digest of those the page showed. */
export interface Seen {
  fields: ContributionFields;
  seen: string;
}

/** The lock, then the checks every decision shares: still there, still pending, not corrected since. */
function* deciding(id: number, seen: string): Plan<{ refusal: Refusal } | { contribution: ContributionRow }> {
  const found = yield* lockedContributionPlan(id);
  if (found === null) return { refusal: { why: 'gone' } };
  if (found.state !== 'pending') return { refusal: { why: 'decided', contribution: found } };
  if (fieldsDigest(found.fields) !== seen) return { refusal: { why: 'stale', contribution: found } };
  return { contribution: found };
}

/** An editor's correction of a pending contribution's fields ("Save the correction"). */
export function* correctPlan(id: number, edit: Seen): Plan<Refusal | null> {
  const checked = yield* deciding(id, edit.seen);
  if ('refusal' in checked) return checked.refusal;
  yield { sql: 'UPDATE contributions SET fields = $1 WHERE id = $2', params: [JSON.stringify(edit.fields), id] };
  return null;
}

/** The lock, then the checks a contributor's own change shares: theirs (another's is as if gone), still pending. */
function* owned(id: number, accountId: number): Plan<{ refusal: Refusal } | { contribution: ContributionRow }> {
  const found = yield* lockedContributionPlan(id);
  if (found === null || found.accountId !== accountId) return { refusal: { why: 'gone' } };
  if (found.state !== 'pending') return { refusal: { why: 'decided', contribution: found } };
  return { contribution: found };
}

/** A contributor's correction of their own pending contribution: refused, as an editor's is, when it changed since their page was made. */
export function* ownCorrectPlan(id: number, accountId: number, edit: Seen): Plan<Refusal | null> {
  const checked = yield* owned(id, accountId);
  if ('refusal' in checked) return checked.refusal;
  if (fieldsDigest(checked.contribution.fields) !== edit.seen) return { why: 'stale', contribution: checked.contribution };
  yield { sql: 'UPDATE contributions SET fields = $1 WHERE id = $2', params: [JSON.stringify(edit.fields), id] };
  return null;
}

/** Withdrawn by its contributor while it waits: out of the queue for good, a picture's every size removed in the same transaction. */
export function* withdrawPlan(id: number, accountId: number, now: number): Plan<Refusal | null> {
  const checked = yield* owned(id, accountId);
  if ('refusal' in checked) return checked.refusal;
  yield { sql: "UPDATE contributions SET state = 'cancelled', decided = $1, decided_by = $2 WHERE id = $3", params: [now, accountId, id] };
  const upload = uploadOf(checked.contribution);
  if (upload !== null) yield* dropPicturePlan(upload);
  return null;
}

/** Rejected with the editor's reason; a picture's every size removed in the same transaction. */
export function* rejectPlan(id: number, editorId: number, reason: string, now: number, seen: string): Plan<Refusal | null> {
  const checked = yield* deciding(id, seen);
  if ('refusal' in checked) return checked.refusal;
  yield {
    sql: "UPDATE contributions SET state = 'rejected', decided = $1, decided_by = $2, reason = $3 WHERE id = $4",
    params: [now, editorId, reason, id],
  };
  const upload = uploadOf(checked.contribution);
  if (upload !== null) yield* dropPicturePlan(upload);
  return null;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** An approval as apply's planned change, and, once applied, why it changed nothing (null: published). */
export interface Publication extends PlannedChange {
  refusal(): Refusal | null;
}

/**
 * A pending contribution published by an editor, with the fields as the editor sent them: a new
 * record (an id never used in its list, nor by an earlier change through the site), its author
 * the catalogue author of the contributor's name (made when there is none), the contribution
 * marked published, its picture attached to the record (public from this commit), the
 * history: one transaction. Nothing when another decision came first (`refusal`).
 */
export function publishChange(id: number, editorId: number, now: number, edit: Seen): Publication {
  let record: { list: ListName; id: number; upload: string | null } | null = null;
  let refusal: Refusal | null = null;
  return {
    refusal: () => refusal,
    *changes(): Plan<ChangeSet> {
      const changes = emptyChangeSet();
      const checked = yield* deciding(id, edit.seen);
      if ('refusal' in checked) {
        refusal = checked.refusal;
        return changes;
      }
      const found = checked.contribution;
      const upload = uploadOf(found);
      if (upload !== null && !(yield* hasPicturePlan(upload))) {
        refusal = { why: 'no-picture' };
        return changes;
      }
      const list = KIND_LISTS[found.kind];
      const author = yield* authorFor(found.accountId, found.username, changes);
      const recordId = yield* unusedId(list);
      putRecord(changes, list, recordOf(found.kind, edit.fields, { id: recordId, feature: found.featureId, author, day: isoDay(now) }));
      record = { list, id: recordId, upload };
      return changes;
    },
    *alongside(dialect, changes, before, version): Plan<void> {
      if (record === null) return;
      yield {
        sql: "UPDATE contributions SET state = 'published', fields = $1, decided = $2, decided_by = $3, record_id = $4 WHERE id = $5",
        params: [JSON.stringify(edit.fields), now, editorId, record.id, id],
      };
      if (record.upload !== null) yield* attachPicturePlan(record.upload, record.id);
      yield* historyPlan(dialect, changes, before, { accountId: editorId, now, what: `approved contribution ${id}`, version });
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
  const linked = yield { sql: 'UPDATE accounts SET author_id = author_id WHERE id = $1 RETURNING author_id', params: [accountId] };
  const linkedId = firstRow(linked, (r) => numOrNull(r.author_id));
  if (linkedId !== null && (yield { sql: 'SELECT id FROM authors WHERE id = $1', params: [linkedId] }).length === 1) return linkedId;
  const named = firstRow(yield { sql: 'SELECT id FROM authors WHERE username = $1 ORDER BY id LIMIT 1', params: [username] }, idOf);
  let id = named;
  if (id === null || !(yield* madeForAccountPlan(id, accountId))) {
    id = yield* unusedId('authors');
    changes.authors.put.push({ id, username: named === null ? username : `${username} (account ${accountId})` });
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
  const rows = yield {
    sql: `SELECT r.id FROM record_changes r JOIN contributions c ON r.what = 'approved contribution ' || c.id
      WHERE r.list = 'authors' AND r.record_id = $1 AND r.before_json IS NULL AND c.account_id = $2
        AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.author_id = $3) LIMIT 1`,
    params: [authorId, accountId, authorId],
  };
  return rows.length === 1;
}

/** An id never used in the list, nor by a record a change through the site made and an undo took back. */
export function* unusedId(list: ListName): Plan<number> {
  const rows = yield {
    sql: `SELECT max(n) AS n FROM (SELECT max(id) AS n FROM ${list} UNION ALL SELECT max(record_id) AS n FROM record_changes WHERE list = $1) t`,
    params: [list],
  };
  return (firstRow(rows, (r) => numOrNull(r.n)) ?? 0) + 1;
}

/** A record as the store holds it (the form apply reads and compares), or null. */
export function* storedRecordPlan(list: ListName, id: number, d: Dialect): Plan<CatalogueRecord | null> {
  return firstRow(yield { sql: `SELECT ${recordColumnList(list, list, d.categoryIds)} FROM ${list} WHERE id = $1`, params: [id] }, (r) => recordFromRow(list, r));
}

/** Every record a change through the site put or removed, before and after (as stored once written), with who and when. */
export function* historyPlan(d: Dialect, changes: ChangeSet, before: Stored, by: { accountId: number; now: number; what: string; version: number | null }): Plan<void> {
  for (const list of CATALOGUE_LISTS) {
    const was: ReadonlyMap<number, CatalogueRecord> = before[list];
    const put: readonly CatalogueRecord[] = changes[list].put;
    for (const recordId of [...put.map((r) => r.id), ...changes[list].remove]) {
      const prior = was.get(recordId) ?? null;
      const after = yield* storedRecordPlan(list, recordId, d);
      if (JSON.stringify(prior) === JSON.stringify(after)) continue;
      yield {
        sql: 'INSERT INTO record_changes (list, record_id, account_id, at, what, before_json, after_json, change_version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        params: [list, recordId, by.accountId, by.now, by.what, prior === null ? null : JSON.stringify(prior), after === null ? null : JSON.stringify(after), by.version],
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
  /** The catalogue version the change made: every record it changed shares it (null: kept before versions were). */
  version: number | null;
}

const CHANGE_COLUMNS = `r.id, r.list, r.record_id, a.username, r.at, r.what, r.before_json, r.after_json, r.change_version
  FROM record_changes r LEFT JOIN accounts a ON a.id = r.account_id`;

const listOf = oneOf(CATALOGUE_LISTS);

/** A record as historyPlan kept it (storedRecordPlan's, as JSON), or null. */
function keptRecord(cell: unknown): CatalogueRecord | null {
  if (cell === null || cell === undefined) return null;
  const record: unknown = JSON.parse(text(cell));
  if (!isKeptRecord(record)) throw new TypeError('a record kept in the history is not an object with an id');
  return record;
}

function toChange(r: Cells): RecordChange {
  const list = listOf(r.list);
  return {
    id: num(r.id), list, recordId: num(r.record_id), username: textOrNull(r.username),
    at: num(r.at), what: text(r.what), before: keptRecord(r.before_json), after: keptRecord(r.after_json),
    version: numOrNull(r.change_version),
  };
}

/** A record's latest changes through the site, newest first, at most `limit`. */
export function* recordHistoryPlan(list: ListName, recordId: number, limit: number): Plan<RecordChange[]> {
  return readRows(yield { sql: `SELECT ${CHANGE_COLUMNS} WHERE r.list = $1 AND r.record_id = $2 ORDER BY r.id DESC LIMIT $3`, params: [list, recordId, limit] }, toChange);
}

/** Every record of one change, in the order written: those of its version, or the row alone (kept before versions were). */
export function* changeRowsPlan(change: Pick<RecordChange, 'id' | 'version'>): Plan<RecordChange[]> {
  if (change.version === null) return readRows(yield { sql: `SELECT ${CHANGE_COLUMNS} WHERE r.id = $1`, params: [change.id] }, toChange);
  return readRows(yield { sql: `SELECT ${CHANGE_COLUMNS} WHERE r.change_version = $1 ORDER BY r.id`, params: [change.version] }, toChange);
}

export function* recordChangePlan(changeId: number): Plan<RecordChange | null> {
  return firstRow(yield { sql: `SELECT ${CHANGE_COLUMNS} WHERE r.id = $1`, params: [changeId] }, toChange);
}

/**
 * The contribution a record was published from, if any, told in the same transaction whether
 * its record is still published: withdrawn when an undo took it back, published again when
 * an undo of that undo put it back (so its author's page never links a record that is gone).
 */
export function* followRecordPlan(list: ListName, recordId: number): Plan<void> {
  const kind = CONTRIBUTION_KINDS.find((k) => KIND_LISTS[k] === list);
  if (kind === undefined) return;
  yield {
    sql: `UPDATE contributions SET state = CASE WHEN EXISTS (SELECT 1 FROM ${list} r WHERE r.id = $1 AND r.published) THEN 'published' ELSE 'withdrawn' END
      WHERE record_id = $2 AND kind = $3 AND state IN ('published', 'withdrawn')`,
    params: [recordId, recordId, kind],
  };
}
