// The latest changes across the catalogue (issue 47): each change once, newest first, with
// who, when, what, and the records it touched, each linked to its history (and its page).
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PATHS, EDIT_PATHS } from '../../site/paths.js';
import type { ChangeGroup, Labels } from '../../store/contributions/change-plans.js';
import { touchedLink, when, whatText, who } from './change-words.js';
import { EDIT_CHANGE_PAGES } from './templates.js';

export interface RecentView {
  changes: readonly ChangeGroup[];
  labels: Labels;
  /** The cursor of the older page, or null when this is the oldest. */
  next: number | null;
  csrf: string;
}

const FATE_WORDS = { added: 'Added', changed: 'Changed', removed: 'Removed' } as const;

export function htmlRecent(at: PageAt, r: RecentView): string {
  const heading = 'Latest changes';
  return EDIT_CHANGE_PAGES.render('recent', {
    page: page(at, { title: heading, heading, crumbs: [homeCrumb(at)], alternates: [], description: 'The latest changes made to the catalogue through this site.' }),
    csrf: r.csrf, changesHref: `${at.baseUrl}${EDIT_PATHS.changes}`,
    nextHref: r.next === null ? null : `${at.baseUrl}${EDIT_PATHS.recent}?before=${r.next}`,
    changes: r.changes.map((c) => {
      const first = c.records[0];
      return {
        whatText: whatText(c.what), username: who(c.username), ...when(c.at),
        records: c.records.map((t) => ({ ...touchedLink(at, t, r.labels), fate: FATE_WORDS[t.fate] })),
        more: c.count - c.records.length,
        undo: c.latest && first !== undefined ? `${at.baseUrl}${CONTRIBUTE_PATHS.revert(first.list, first.recordId, c.id)}` : null,
        undoLabel: c.count > 1 ? `Undo this change (all ${c.count} records)` : 'Undo this change',
      };
    }),
  });
}
