// The rules between records, which a schema cannot state: ids unique within their list,
// usernames unique, references naming a record of the same file, no category twice in one
// feature. They run on a file that may also be structurally wrong, so they look only at
// values of the right type (a wrong type is already a problem of its own) and skip a list
// that is not a list (rather than report every reference into it).
import { formatPath, isPlainObject, type LocatedProblem } from './paths.js';

type ListName = 'authors' | 'categories' | 'sites' | 'features' | 'images' | 'documents' | 'media';
type FileRecord = Record<string, unknown>;

const ID_LISTS: readonly ListName[] = ['authors', 'categories', 'sites', 'features', 'images', 'documents', 'media'];

/** `{list}[i].{key}` must be the id of a record in `target`. */
const REFERENCES: readonly { list: ListName; key: string; target: ListName; noun: string }[] = [
  { list: 'features', key: 'site', target: 'sites', noun: 'site' },
  ...(['images', 'documents', 'media'] as const).flatMap((list) => [
    { list, key: 'feature', target: 'features' as const, noun: 'feature' },
    { list, key: 'author', target: 'authors' as const, noun: 'author' },
  ]),
];

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/** The list's records that are objects, as `visit(record, index)`; nothing for a non-list. */
function eachRecord(root: FileRecord, list: ListName, visit: (record: FileRecord, index: number) => void): void {
  const records = root[list];
  if (!Array.isArray(records)) return;
  for (let i = 0; i < records.length; i++) {
    const record: unknown = records[i];
    if (isPlainObject(record)) visit(record, i);
  }
}

/** A second record whose `key` holds a value an earlier record already holds. */
function duplicateValues(root: FileRecord, list: ListName, key: string, isCandidate: (value: unknown) => boolean): LocatedProblem[] {
  const first = new Map<unknown, number>();
  const problems: LocatedProblem[] = [];
  eachRecord(root, list, (record, i) => {
    const value = record[key];
    if (!isCandidate(value)) return;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, i);
    else problems.push({ segments: [list, i, key], message: `duplicate ${key} ${JSON.stringify(value)}: ${formatPath([list, earlier])} has it too` });
  });
  return problems;
}

/**
 * The ids of a list, or undefined when references into it cannot be judged: it is not a
 * list, or one of its records has no usable id (a reference may have meant that record,
 * and the bad id is already a problem of its own).
 */
function idsOf(root: FileRecord, list: ListName): Set<number> | undefined {
  const records = root[list];
  if (!Array.isArray(records)) return undefined;
  const ids = new Set<number>();
  for (const record of records as unknown[]) {
    const id = isPlainObject(record) ? record['id'] : undefined;
    if (!isId(id)) return undefined;
    ids.add(id);
  }
  return ids;
}

function danglingReferences(root: FileRecord, ids: ReadonlyMap<ListName, Set<number> | undefined>): LocatedProblem[] {
  const problems: LocatedProblem[] = [];
  for (const { list, key, target, noun } of REFERENCES) {
    const targetIds = ids.get(target);
    if (targetIds === undefined) continue;
    eachRecord(root, list, (record, i) => {
      const value = record[key];
      if (Number.isInteger(value) && !targetIds.has(value as number)) {
        problems.push({ segments: [list, i, key], message: `there is no ${noun} with id ${value} in ${target}` });
      }
    });
  }
  return problems;
}

/** Each of a feature's categories must exist, and be listed once. */
function featureCategoryProblems(root: FileRecord, categoryIds: Set<number> | undefined): LocatedProblem[] {
  const problems: LocatedProblem[] = [];
  eachRecord(root, 'features', (feature, i) => {
    const categories = feature['categories'];
    if (!Array.isArray(categories)) return;
    const first = new Map<unknown, number>();
    categories.forEach((value: unknown, j) => {
      if (!Number.isInteger(value)) return;
      const earlier = first.get(value);
      const segments = ['features', i, 'categories', j];
      if (earlier !== undefined) problems.push({ segments, message: `category ${value} is listed twice (also at categories[${earlier}])` });
      else if (categoryIds !== undefined && !categoryIds.has(value as number)) problems.push({ segments, message: `there is no category with id ${value} in categories` });
      first.set(value, earlier ?? j);
    });
  });
  return problems;
}

/** Every problem between records of `root` (the file's top level, whatever it holds). */
export function referenceProblems(root: unknown): LocatedProblem[] {
  if (!isPlainObject(root)) return [];
  const isUsername = (value: unknown) => typeof value === 'string' && value !== '';
  const ids = new Map((['authors', 'categories', 'sites', 'features'] as const).map((list) => [list, idsOf(root, list)]));
  return [
    ...ID_LISTS.flatMap((list) => duplicateValues(root, list, 'id', isId)),
    ...duplicateValues(root, 'authors', 'username', isUsername),
    ...danglingReferences(root, ids),
    ...featureCategoryProblems(root, ids.get('categories')),
  ];
}
