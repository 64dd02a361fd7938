// What the editors' pages of changes share: a moment in UTC to the minute, a record named and
// linked (its history, and its page when it has a public one), what a change's `what` says
// in words, and the names of referenced records for record-diff.ts.
import type { CatalogueRecord, ListName } from '../../catalogue/lists.js';
import type { ChangeSet } from '../../changes/format.js';
import { LIST_WORDS } from '../../editing/field-words.js';
import { labelFromJsonPrefix, recordLabel, type Names } from '../../editing/record-diff.js';
import type { PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PATHS, SITE_COLLECTIONS, SITE_PATHS } from '../../site/paths.js';
import type { Labels, TouchedRecord } from '../../store/contributions/change-plans.js';

/** `2026-12-06 12:59 UTC`, and its ISO form for `<time datetime>`. */
export function when(ms: number): { when: string; iso: string } {
  const iso = new Date(ms).toISOString();
  return { when: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`, iso: `${iso.slice(0, 16)}Z` };
}

/** A record as the pages link it: its label, kind and number, its history, and its public page (published ones). */
export interface RecordLink {
  list: ListName;
  id: number;
  label: string;
  kind: string;
  historyHref: string;
  recordHref: string | null;
}

/** `known`: the record as it was, or its label, when it may no longer be stored. */
export function recordLink(at: PageAt, list: ListName, id: number, labels: Labels, known?: CatalogueRecord | string | null): RecordLink {
  const stored = labels[list].get(id);
  const knownLabel = typeof known === 'string' ? known : known ? recordLabel(list, known) : null;
  const label = stored?.label || (knownLabel ?? `${LIST_WORDS[list].one} ${id}`);
  const collection = SITE_COLLECTIONS.find((c) => c === list);
  const recordHref = collection !== undefined && stored?.published === true ? `${at.baseUrl}${SITE_PATHS.record(collection, id)}` : null;
  return { list, id, label: stored === undefined ? `${label} (not in the catalogue now)` : label, kind: LIST_WORDS[list].one, historyHref: `${at.baseUrl}${CONTRIBUTE_PATHS.history(list, id)}`, recordHref };
}

/** A record a change touched, linked: a removed one named as it was. */
export const touchedLink = (at: PageAt, t: TouchedRecord, labels: Labels): RecordLink =>
  recordLink(at, t.list, t.recordId, labels, t.wasPrefix === null ? null : labelFromJsonPrefix(t.list, t.wasPrefix));

/** The names record-diff.ts shows references by: stored records' labels, and those a change file puts (which win). */
export function namesOf(labels: Labels, changes?: ChangeSet): Names {
  return (list, id) => {
    const put: readonly CatalogueRecord[] = changes?.[list].put ?? [];
    const given = put.find((r) => r.id === id);
    if (given !== undefined) return recordLabel(list, given);
    return labels[list].get(id)?.label ?? null;
  };
}

/** A change's `what` as a heading: the words the site kept, a capital first. */
export function whatText(what: string): string {
  const undone = /^undid change (\d+)$/.exec(what);
  const text = undone ? `Undid change ${undone[1]}` : what;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The change an undo undid, as the number in its `what` (null: not an undo). */
export function undoneChange(what: string): number | null {
  const undone = /^undid change (\d+)$/.exec(what);
  return undone ? Number(undone[1]) : null;
}

/** The contribution an approval published, as the number in its `what` (null: not an approval): its review is linked. */
export function approvedContribution(what: string): number | null {
  const approved = /^approved contribution (\d+)$/.exec(what);
  return approved ? Number(approved[1]) : null;
}

/** Who made a change: their account's name, or words for an account removed since. */
export const who = (username: string | null): string => username ?? 'an account since removed';
