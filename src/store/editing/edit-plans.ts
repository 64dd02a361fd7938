// An editor's save (issue 47) as apply's planned change: the record put or removed exactly as
// the form was made from it, or nothing. Each form carries the version of the record it
// showed (a digest of the stored record); inside the writer's transaction the stored record
// is read again, and a save over a newer version changes nothing and says what the record is
// now, so that the editor's page can show both. Two editors of different records never meet.
import type { CatalogueRecord, ListName } from '../../catalogue/lists.js';
import { emptyChangeSet, putRecord, type ChangeSet } from '../../changes/format.js';
import type { EditList } from '../../site/paths.js';
import type { PlannedChange } from '../apply/apply-changes.js';
import { followRecordPlan, historyPlan, jsonDigest, storedRecordPlan, unusedId } from '../contributions/contribution-plans.js';
import type { Plan } from '../read-plans.js';
import { firstRow, num, readRows } from '../rows.js';

/** A record's version as its form carries it: null (none) for a record that is not there. */
export const recordVersion = (record: CatalogueRecord | null): string => jsonDigest(record);

/** Why a save changed nothing: the record is gone, or was changed since the form was made (as it is now). */
export type EditRefusal = { why: 'gone' } | { why: 'newer'; current: CatalogueRecord };

/** A save, and once applied, what it did. */
export interface EditChange extends PlannedChange {
  refusal(): EditRefusal | null;
  /** The record's id: a new record's once its id is found. */
  recordId(): number | null;
}

export interface RecordSave {
  list: EditList;
  /** null: a new record, its id found in the transaction. */
  id: number | null;
  /** The record as checked (checkRecord), its id and author to be set here. */
  record: CatalogueRecord;
  /** A credit to a name no author has: the author made by this save. */
  authorName: string | null;
  /** The version the form showed (recordVersion); ignored for a new record. */
  seen: string;
  editorId: number;
  now: number;
}

/** An editor's record, put: an edit of the version seen, or a new record. */
export function saveChange(save: RecordSave): EditChange {
  let refusal: EditRefusal | null = null;
  let id = save.id;
  return {
    refusal: () => refusal,
    recordId: () => id,
    *changes(dialect): Plan<ChangeSet> {
      const changes = emptyChangeSet();
      if (save.id !== null) {
        refusal = yield* staleness(save.list, save.id, save.seen, dialect);
        if (refusal !== null) return changes;
      }
      id ??= yield* unusedId(save.list);
      const record: Record<string, unknown> = { ...save.record, id };
      if (save.authorName !== null) record['author'] = yield* authorNamed(save.authorName, changes);
      putRecord(changes, save.list, storedShape(save.list, record));
      return changes;
    },
    *alongside(dialect, changes, before, version) {
      yield* historyPlan(dialect, changes, before, { accountId: save.editorId, now: save.now, what: save.id === null ? 'added' : 'edited', version });
      if (id !== null) yield* followRecordPlan(save.list, id);
    },
  };
}

export interface RecordRemoval {
  list: EditList;
  id: number;
  seen: string;
  /** A building's attachments the editor was shown and agreed to remove with it: their digest (attachmentsDigest). */
  attached: string;
  editorId: number;
  now: number;
}

/** Which attachments a building has, by list: what goes with it when it is removed. */
export type Attachments = Record<'images' | 'documents' | 'media', number[]>;

/** The lists whose records are attached to a building. */
export const ATTACHED_LISTS = ['images', 'documents', 'media'] as const;

export function* attachmentsPlan(featureId: number): Plan<Attachments> {
  const of = function* (list: (typeof ATTACHED_LISTS)[number]): Plan<number[]> {
    return readRows(yield { sql: `SELECT id FROM ${list} WHERE feature_id = $1 ORDER BY id`, params: [featureId] }, (r) => num(r.id));
  };
  return { images: yield* of('images'), documents: yield* of('documents'), media: yield* of('media') };
}

export const attachmentsDigest = (attached: Attachments): string => jsonDigest(attached);

/** A record removed, a building with the attachments the editor agreed to; nothing when either changed since. */
export function removeChange(removal: RecordRemoval): EditChange & { attachmentsNow(): Attachments | null } {
  let refusal: EditRefusal | null = null;
  let attachmentsNow: Attachments | null = null;
  return {
    refusal: () => refusal,
    recordId: () => removal.id,
    attachmentsNow: () => attachmentsNow,
    *changes(dialect): Plan<ChangeSet> {
      const changes = emptyChangeSet();
      refusal = yield* staleness(removal.list, removal.id, removal.seen, dialect);
      if (refusal !== null) return changes;
      if (removal.list === 'features') {
        const attached = yield* attachmentsPlan(removal.id);
        if (attachmentsDigest(attached) !== removal.attached) {
          attachmentsNow = attached;
          return changes;
        }
        for (const list of ATTACHED_LISTS) changes[list].remove.push(...attached[list]);
      }
      changes[removal.list].remove.push(removal.id);
      return changes;
    },
    *alongside(dialect, changes, before, version) {
      yield* historyPlan(dialect, changes, before, { accountId: removal.editorId, now: removal.now, what: 'removed', version });
      for (const list of ATTACHED_LISTS) for (const id of changes[list].remove) yield* followRecordPlan(list, id);
    },
  };
}

/** The stored record against the version a form showed: null when they agree. */
function* staleness(list: ListName, id: number, seen: string, dialect: Parameters<PlannedChange['changes']>[0]): Plan<EditRefusal | null> {
  const current = yield* storedRecordPlan(list, id, dialect);
  if (current === null) return { why: 'gone' };
  return recordVersion(current) === seen ? null : { why: 'newer', current };
}

/** The author of this name, or one made now under it (in the same change). */
function* authorNamed(username: string, changes: ChangeSet): Plan<number> {
  const found = firstRow(yield { sql: 'SELECT id FROM authors WHERE username = $1 ORDER BY id LIMIT 1', params: [username] }, (r) => num(r.id));
  if (found !== null) return found;
  const made = changes.authors.put.find((a) => a.username === username);
  if (made !== undefined) return made.id;
  const id = yield* unusedId('authors');
  changes.authors.put.push({ id, username });
  return id;
}

/** The checked record with its id and author set: still the list's record (checkRecord made it one). */
function storedShape<L extends EditList>(_list: L, record: Record<string, unknown>): CatalogueRecord<L> {
  // checkRecord normalised every other field; only the id and the author's id are set here, both integers.
  return record as CatalogueRecord<L>;
}
