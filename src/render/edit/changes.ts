// A change file's page for editors (issue 47): the form to send one, every problem of a file
// refused (by JSON path), and the preview of one accepted: record by record what it adds,
// replaces (field by field, the history's words) and removes, with the form that applies it.
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import type { Problem } from '../../catalogue/format.js';
import type { ChangeSet } from '../../changes/format.js';
import { fieldChanges, recordLabel } from '../../editing/record-diff.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { EDIT_PATHS } from '../../site/paths.js';
import type { Before, Labels } from '../../store/contributions/change-plans.js';
import { namesOf, recordLink } from './change-words.js';
import { EDIT_CHANGE_PAGES } from './templates.js';

/** A file that passed every check, as its preview shows it and its form carries it. */
export interface Preview {
  name: string;
  changes: ChangeSet;
  /** The records it touches as stored when it was judged. */
  before: Before;
  labels: Labels;
  /** The normalised file, its digest of the records as stored, and the seal that binds both to this editor's session. */
  text: string;
  seen: string;
  seal: string;
}

export interface ChangesView {
  csrf: string;
  /** What the text field shows again. */
  text: string;
  problem: string | null;
  /** A refused file's name and problems (by JSON path), the first of `total`. */
  refused: { name: string; problems: readonly Problem[]; total: number } | null;
  preview: Preview | null;
  maxBytes: number;
}

type Fate = 'Added' | 'Replaced' | 'Removed';

interface PreviewRecord<L extends ListName = ListName> {
  list: L;
  id: number;
  fate: Fate;
  before: CatalogueRecord<L> | null;
  after: CatalogueRecord<L> | null;
}

/** What the file does to each record it names, in file order by list; records it leaves as they are only counted. */
export function previewRecords(changes: ChangeSet, before: Before): { records: PreviewRecord[]; unchanged: number } {
  const records: PreviewRecord[] = [];
  let unchanged = 0;
  for (const list of CATALOGUE_LISTS) {
    const stored: ReadonlyMap<number, CatalogueRecord> = before[list];
    const put: readonly CatalogueRecord[] = changes[list].put;
    for (const after of put) {
      const was = stored.get(after.id) ?? null;
      if (was !== null && JSON.stringify(was) === JSON.stringify(after)) unchanged++;
      else records.push({ list, id: after.id, fate: was === null ? 'Added' : 'Replaced', before: was, after });
    }
    for (const id of changes[list].remove) {
      const was = stored.get(id) ?? null;
      if (was === null) unchanged++;
      else records.push({ list, id, fate: 'Removed', before: was, after: null });
    }
  }
  return { records, unchanged };
}

export function htmlChanges(at: PageAt, v: ChangesView): string {
  const heading = v.preview ? 'A change file\'s preview' : 'Apply a change file';
  return EDIT_CHANGE_PAGES.render('changes', {
    page: page(at, { title: heading, heading, crumbs: [homeCrumb(at), { href: `${at.baseUrl}${EDIT_PATHS.recent}`, label: 'Latest changes' }], alternates: [], description: 'Send a change file, see what it would change, then apply it.' }),
    csrf: v.csrf, text: v.text, problem: v.problem, action: `${at.baseUrl}${EDIT_PATHS.changes}`, recentHref: `${at.baseUrl}${EDIT_PATHS.recent}`,
    maxText: `${Math.round(v.maxBytes / 1024).toLocaleString('en-GB')} KB`,
    name: v.refused?.name ?? '', total: v.refused?.total ?? 0,
    problems: (v.refused?.problems ?? []).map((p) => ({ path: p.path, message: p.message })),
    preview: v.preview === null ? null : previewView(at, v.preview),
  });
}

function previewView(at: PageAt, p: Preview) {
  const names = namesOf(p.labels, p.changes);
  const { records, unchanged } = previewRecords(p.changes, p.before);
  return {
    name: p.name, text: p.text, seen: p.seen, seal: p.seal, unchanged,
    unchangedText: `${unchanged.toLocaleString('en-GB')} ${unchanged === 1 ? 'record it names is' : 'records it names are'} already as the file gives ${unchanged === 1 ? 'it' : 'them'}: no change.`,
    records: records.map((r) => {
      const shown = r.after ?? r.before;
      const link = recordLink(at, r.list, r.id, p.labels, shown);
      return { ...link, label: shown === null ? link.label : recordLabel(r.list, shown), fate: r.fate, fields: fieldChanges(r.list, r.before, r.after, names) };
    }),
  };
}
