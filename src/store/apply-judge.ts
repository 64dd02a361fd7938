// A change file judged against the stored catalogue, as it would be after the whole file:
// every reference a record put makes names a record that is stored (and not removed) or put;
// no record that stays still uses one removed; a username stays unique. Each problem at its
// JSON path in the change file.
import { REFERENCES } from '../catalogue/checker.js';
import { fieldsOf } from '../catalogue/fields.js';
import type { Problem } from '../catalogue/format.js';
import { CATALOGUE_LISTS, perList, type CatalogueRecord, type ListName } from '../catalogue/lists.js';
import { comparePositions, formatPath, type PathSegment } from '../catalogue/paths.js';
import { quote } from '../catalogue/strings.js';
import type { ChangeSet } from '../changes/format.js';
import type { ApplyDriver, Stored } from './apply-changes.js';

/** A reference from one list into another: a column of the list's table, or a feature's categories. */
interface Use {
  list: ListName;
  key: string;
  target: ListName;
  noun: string;
}

const USES: readonly Use[] = [
  ...CATALOGUE_LISTS.flatMap((list) => (REFERENCES[list] ?? []).map((r) => ({ list, ...r }))),
  { list: 'features', key: 'categories', target: 'categories', noun: 'category' },
];

const SHOWN_IDS = 5;

export async function judgeChanges(driver: ApplyDriver, changes: ChangeSet, stored: Stored): Promise<Problem[]> {
  const after = new CatalogueAfter(changes);
  const problems: Problem[] = [];
  for (const use of USES) problems.push(...await references(driver, changes, after, use));
  for (const use of USES) problems.push(...await stillUsed(driver, changes, stored, after, use));
  problems.push(...await usernames(driver, changes, after));
  return inListOrder(problems);
}

/** By list (in the catalogue's order), put before remove, then index; stable, so a place's problems keep their order. */
function inListOrder(problems: Problem[]): Problem[] {
  const place = ({ path }: Problem) => {
    const [, list = '', part = '', index = '0'] = /^(\w+)\.(put|remove)\[(\d+)\]/.exec(path) ?? [];
    return [CATALOGUE_LISTS.findIndex((name) => name === list), part === 'put' ? 0 : 1, Number(index)];
  };
  return problems.map((p) => ({ p, at: place(p) })).sort((a, b) => comparePositions(a.at, b.at)).map(({ p }) => p);
}

/** Which ids the file puts and removes, per list. */
class CatalogueAfter {
  readonly put: Record<ListName, Set<number>>;
  readonly removed: Record<ListName, Map<number, number>>;

  constructor(changes: ChangeSet) {
    this.put = perList((list) => new Set(changes[list].put.map((r: CatalogueRecord) => r.id)));
    this.removed = perList((list) => new Map(changes[list].remove.map((id, j) => [id, j])));
  }

  /** Whether a stored record of the list is still there, unchanged, after the file. */
  untouched(list: ListName, id: number): boolean {
    return !this.put[list].has(id) && !this.removed[list].has(id);
  }
}

/** Each reference the records put make: into a record put, or one stored and not removed. */
async function references(driver: ApplyDriver, changes: ChangeSet, after: CatalogueAfter, use: Use): Promise<Problem[]> {
  const made: { segments: PathSegment[]; id: number }[] = [];
  changes[use.list].put.forEach((record, i) => {
    const fields: Readonly<Record<string, unknown>> = record;
    const value = fields[use.key];
    if (Array.isArray(value)) value.forEach((id: number, j) => made.push({ segments: [use.list, 'put', i, use.key, j], id }));
    else if (typeof value === 'number') made.push({ segments: [use.list, 'put', i, use.key], id: value });
  });
  const asked = [...new Set(made.map((m) => m.id).filter((id) => !after.put[use.target].has(id)))];
  const d = driver.dialect;
  const rows = asked.length === 0 ? [] : await driver.query(`SELECT id FROM ${use.target} WHERE ${d.idIn('id', '$1')}`, [d.idsParam(asked)]);
  const storedIds = new Set(rows.map((r) => Number(r['id'])));
  const problems: Problem[] = [];
  for (const { segments, id } of made) {
    if (after.put[use.target].has(id)) continue;
    const removedAt = after.removed[use.target].get(id);
    const path = formatPath(segments);
    if (removedAt !== undefined && storedIds.has(id)) problems.push({ path, message: `${use.noun} ${id} is removed by this file (${formatPath([use.target, 'remove', removedAt])})` });
    else if (!storedIds.has(id)) problems.push({ path, message: `there is no ${use.noun} with id ${id} in ${use.target}, stored or put by this file` });
  }
  return problems;
}

/** Each removal of a record that records staying (stored, neither put nor removed) still use. */
async function stillUsed(driver: ApplyDriver, changes: ChangeSet, stored: Stored, after: CatalogueAfter, use: Use): Promise<Problem[]> {
  const removed = changes[use.target].remove.filter((id) => stored[use.target].has(id));
  if (removed.length === 0) return [];
  const d = driver.dialect;
  const sql = use.key === 'categories'
    ? `SELECT feature_id AS id, category_id AS target FROM feature_categories WHERE ${d.idIn('category_id', '$1')} ORDER BY feature_id`
    : `SELECT id, ${columnOf(use)} AS target FROM ${use.list} WHERE ${d.idIn(columnOf(use), '$1')} ORDER BY id`;
  const users = new Map<number, number[]>();
  for (const row of await driver.query(sql, [d.idsParam(removed)])) {
    const id = Number(row['id']);
    if (!after.untouched(use.list, id)) continue;
    const target = Number(row['target']);
    users.set(target, [...(users.get(target) ?? []), id]);
  }
  return changes[use.target].remove.flatMap((id, j) => {
    const ids = users.get(id);
    if (!ids) return [];
    const shown = ids.slice(0, SHOWN_IDS).join(', ') + (ids.length > SHOWN_IDS ? ` and ${ids.length - SHOWN_IDS} more` : '');
    return [{ path: formatPath([use.target, 'remove', j]), message: `${use.noun} ${id} is still used by ${use.list} ${shown} (their ${use.key}): remove them too, or put them without it, in this file` }];
  });
}

function columnOf(use: Use): string {
  const field = fieldsOf(use.list).find((f) => f.key === use.key);
  if (!field) throw new Error(`${use.list} has no field ${use.key}`);
  return field.column;
}

/** A username put must not be held by a stored author that stays. */
async function usernames(driver: ApplyDriver, changes: ChangeSet, after: CatalogueAfter): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const [i, author] of changes.authors.put.entries()) {
    const rows = await driver.query('SELECT id FROM authors WHERE username = $1', [author.username]);
    const holder = rows.map((r) => Number(r['id'])).find((id) => id !== author.id && after.untouched('authors', id));
    if (holder !== undefined) problems.push({ path: formatPath(['authors', 'put', i, 'username']), message: `duplicate username ${quote(author.username)}: author ${holder} has it` });
  }
  return problems;
}
