// A record's history for editors (issue 47): each change with who, when and what, and its
// fields' changes in words (record-diff.ts), newest first; the latest can be undone, and an
// undo takes back every record of that change at once.
import type { CatalogueRecord, ListName } from '../../catalogue/lists.js';
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { FEATURE_TYPES } from '../../catalogue/format.js';
import { KIND_WORDS, LIST_WORDS } from '../../editing/field-words.js';
import { fieldChanges } from '../../editing/record-diff.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PATHS, EDIT_LISTS, EDIT_PATHS } from '../../site/paths.js';
import type { Labels, TouchedRecord } from '../../store/contributions/change-plans.js';
import type { RecordChange } from '../../store/contributions/contribution-plans.js';
import { approvedContribution, namesOf, recordLink, touchedLink, undoneChange, when, whatText, who } from './change-words.js';
import { EDIT_CHANGE_PAGES } from './templates.js';

export interface HistoryView {
  list: ListName;
  id: number;
  /** The record as stored now (null: not in the catalogue). */
  current: CatalogueRecord | null;
  /** Its changes, newest first. */
  changes: readonly RecordChange[];
  /** Whether there are older changes than those shown. */
  more: boolean;
  /** The other records of each change, by version. */
  companions: ReadonlyMap<number, { records: TouchedRecord[]; count: number }>;
  labels: Labels;
  csrf: string;
  problem: string | null;
}

export function htmlHistory(at: PageAt, h: HistoryView): string {
  const names = namesOf(h.labels);
  const known = h.current ?? h.changes.find((c) => c.after !== null)?.after ?? h.changes.find((c) => c.before !== null)?.before ?? null;
  const self = recordLink(at, h.list, h.id, h.labels, known);
  const heading = `History of ${self.label}`;
  const latest = h.changes[0];
  // The latest change is offered for undo while the record is still as it left it (an import or `apply` since would be overwritten).
  const undoable = latest !== undefined && JSON.stringify(latest.after) === JSON.stringify(h.current);
  const shown = new Set(h.changes.map((c) => c.id));
  return EDIT_CHANGE_PAGES.render('history', {
    page: page(at, { title: heading, heading, crumbs: [homeCrumb(at), { href: `${at.baseUrl}${EDIT_PATHS.recent}`, label: 'Latest changes' }], alternates: [], description: heading }),
    about: aboutText(h.list, h.id, h.current, h.labels),
    recordHref: self.recordHref,
    editHref: h.current !== null && EDIT_LISTS.some((l) => l === h.list) ? `${at.baseUrl}${EDIT_PATHS.record(editList(h.list), h.id)}` : null,
    recentHref: `${at.baseUrl}${EDIT_PATHS.recent}`,
    csrf: h.csrf, problem: h.problem, more: h.more,
    changes: h.changes.map((c) => {
      const others = c.version === null ? null : h.companions.get(c.version);
      const companions = (others?.records ?? []).filter((o) => !(o.list === h.list && o.recordId === h.id)).slice(0, 10).map((o) => touchedLink(at, o, h.labels));
      const undone = undoneChange(c.what);
      const approved = approvedContribution(c.what);
      return {
        review: approved === null ? null : `${at.baseUrl}${CONTRIBUTE_PATHS.review(approved)}`,
        id: c.id, whatText: whatText(c.what), username: who(c.username), ...when(c.at),
        undone: undone !== null && shown.has(undone) ? `#change-${undone}` : null,
        fate: c.before === null ? 'added' : c.after === null ? 'removed' : 'changed',
        fields: fieldChanges(h.list, c.before, c.after, names),
        companions, moreCompanions: Math.max(0, (others?.count ?? 1) - 1 - companions.length),
        undo: c === latest && undoable ? `${at.baseUrl}${CONTRIBUTE_PATHS.revert(h.list, h.id, c.id)}` : null,
        undoLabel: (others?.count ?? 1) > 1 ? `Undo this change (all ${others?.count} records)` : 'Undo this change',
      };
    }),
  });
}

const editList = (list: ListName) => EDIT_LISTS.find((l) => l === list) ?? 'features';

/** A feature by its kind ("place", "open space"), any other record by its list's word. */
function kindOf(list: ListName, current: CatalogueRecord | null): string {
  const type: unknown = current !== null && list === 'features' ? Reflect.get(current, F.type) : undefined;
  const kind = FEATURE_TYPES.find((t) => t === type);
  return kind === undefined ? LIST_WORDS[list].one : KIND_WORDS[kind];
}

/** "A building, number 12, in the catalogue." / "A picture, number 8: not published (only editors see it)." */
function aboutText(list: ListName, id: number, current: CatalogueRecord | null, labels: Labels): string {
  const kind = kindOf(list, current);
  const article = /^[aeiou]/.test(kind) ? 'An' : 'A';
  if (current === null) return `${article} ${kind}, number ${id}: not in the catalogue now.`;
  const published = labels[list].get(id)?.published ?? true;
  return published ? `${article} ${kind}, number ${id}, in the catalogue.` : `${article} ${kind}, number ${id}: not published (only editors see it).`;
}
