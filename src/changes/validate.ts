// A change file checked on its own, before any store is asked: its text (read.ts), its shape
// (the catalogue's record schemas inside the change file's schema, schema.ts), each record's
// limits, and the rules within the file (an id put twice or removed twice, put and removed,
// a username twice, a category twice in a feature). Every problem by JSON path, in file
// order; a file with any is refused whole. What the stored catalogue decides (references,
// removals still used) is the store's part (store/apply/apply-changes.ts).
import type { ValidateFunction } from 'ajv';
import { categoryTwice, footprintProblems } from '../catalogue/checker.js';
import type { Problem } from '../catalogue/format.js';
import { DEFAULT_CATALOGUE_LIMITS, count, describeLimit, type CatalogueLimits } from '../catalogue/limits.js';
import { CATALOGUE_LISTS, type ListName } from '../catalogue/lists.js';
import { problemFromAjvError } from '../catalogue/messages.js';
import { normaliseRecord } from '../catalogue/normalise.js';
import { filePosition, formatPath, isPlainObject, type LocatedProblem, type PathSegment } from '../catalogue/paths.js';
import { ProblemList } from '../catalogue/problem-list.js';
import { parsedStringProblems, quote } from '../catalogue/strings.js';
import { createAjv, onePerPath } from '../catalogue/ajv.js';
import { emptyChangeSet, putRecord, type ChangeSet } from './format.js';
import { readChangeBytes } from './read.js';
import { CHANGE_FILE_SCHEMA } from './compiled-schema.js';

export type ChangeCheck = { ok: true; changes: ChangeSet } | { ok: false; problems: Problem[]; total: number };

/** The change file's schema (schema.ts, as compiled-schema.ts holds it) compiled once, for every file its owner checks. */
export class ChangeValidator {
  private readonly schema: ValidateFunction = createAjv().compile(CHANGE_FILE_SCHEMA);

  constructor(private readonly limits: CatalogueLimits = DEFAULT_CATALOGUE_LIMITS) {}

  /** A change file's bytes → its normalised changes, or every problem it has. */
  parseBytes(bytes: Uint8Array): ChangeCheck {
    const read = readChangeBytes(bytes, this.limits);
    if (!read.ok) return { ok: false, problems: [{ path: '$', message: read.message }], total: 1 };
    return this.check(read.value, read.problems);
  }

  /** A parsed change file → its normalised changes, or every problem it has. */
  validate(value: unknown): ChangeCheck {
    return this.check(value, parsedStringProblems(value, this.limits));
  }

  private check(value: unknown, textProblems: readonly LocatedProblem[]): ChangeCheck {
    const problems = new ProblemList();
    const add = (p: LocatedProblem) => problems.add(filePosition(value, p.segments), p);
    const taken = new Set(textProblems.map((p) => formatPath(p.segments)));
    textProblems.forEach(add);
    for (const p of this.structure(value)) if (!taken.has(formatPath(p.segments))) add(p);
    if (isPlainObject(value)) {
      for (const list of CATALOGUE_LISTS) {
        const changes = value[list];
        if (isPlainObject(changes)) withinList(list, changes, this.limits).forEach(add);
      }
    }
    if (problems.total > 0) return { ok: false, problems: problems.listed(), total: problems.total };
    return { ok: true, changes: normalise(value) };
  }

  private structure(value: unknown): LocatedProblem[] {
    if (this.schema(value)) return [];
    const errors = this.schema.errors ?? [];
    this.schema.errors = null;
    return onePerPath(errors.map(problemFromAjvError));
  }
}

/** The rules within one list of the file: record limits, ids, usernames, a feature's categories. */
function withinList(list: ListName, changes: Record<string, unknown>, limits: CatalogueLimits): LocatedProblem[] {
  const put = Array.isArray(changes['put']) ? changes['put'] : [];
  const remove = Array.isArray(changes['remove']) ? changes['remove'] : [];
  const problems: LocatedProblem[] = [];
  const putAt = new Map<unknown, number>();
  const usernames = new Map<unknown, number>();
  put.forEach((record: unknown, i) => {
    const at: PathSegment[] = [list, 'put', i];
    problems.push(...recordLimits(record, list, limits).map((p) => ({ segments: [...at, ...p.segments], message: p.message })));
    if (!isPlainObject(record)) return;
    const twice = (seen: Map<unknown, number>, key: string) => {
      const v = record[key];
      if (v === undefined) return;
      const earlier = seen.get(v);
      if (earlier === undefined) seen.set(v, i);
      else problems.push({ segments: [...at, key], message: `duplicate ${key} ${typeof v === 'string' ? quote(v) : JSON.stringify(v)}: ${formatPath([list, 'put', earlier])} has it too` });
    };
    twice(putAt, 'id');
    if (list === 'authors') twice(usernames, 'username');
    if (list === 'features' && Array.isArray(record['categories'])) problems.push(...repeatedCategories(record['categories'], at));
  });
  const removeAt = new Map<unknown, number>();
  remove.forEach((id: unknown, j) => {
    const segments = [list, 'remove', j];
    const earlier = removeAt.get(id);
    if (earlier !== undefined) problems.push({ segments, message: `id ${JSON.stringify(id)} is listed twice (also at ${formatPath([list, 'remove', earlier])})` });
    else removeAt.set(id, j);
    const putIndex = putAt.get(id);
    if (putIndex !== undefined) problems.push({ segments, message: `id ${JSON.stringify(id)} is both put (${formatPath([list, 'put', putIndex])}) and removed: a record is either replaced or removed` });
  });
  return problems;
}

/** What the catalogue's reader checks per record: positions in a footprint, bytes of JSON. */
function recordLimits(record: unknown, list: ListName, limits: CatalogueLimits): LocatedProblem[] {
  const bytes = Buffer.byteLength(JSON.stringify(record) ?? '');
  if (bytes > limits.maxRecordBytes) return [{ segments: [], message: `is more than ${count(limits.maxRecordBytes)} bytes of JSON: ${describeLimit('maxRecordBytes', limits)}` }];
  return footprintProblems(record, list, limits);
}

function repeatedCategories(categories: unknown[], at: PathSegment[]): LocatedProblem[] {
  const first = new Map<unknown, number>();
  const problems: LocatedProblem[] = [];
  categories.forEach((value, j) => {
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, j);
    else problems.push({ segments: [...at, 'categories', j], message: categoryTwice(value, earlier) });
  });
  return problems;
}

/** A valid file → every list's records normalised as import stores them, removals as given. */
function normalise(file: unknown): ChangeSet {
  const changes = emptyChangeSet();
  for (const list of CATALOGUE_LISTS) {
    const given = isPlainObject(file) ? file[list] : undefined;
    if (!isPlainObject(given)) continue;
    if (Array.isArray(given.put)) for (const record of given.put) putRecord(changes, list, normaliseRecord(list, record));
    if (Array.isArray(given.remove)) changes[list].remove.push(...given.remove.filter((id) => typeof id === 'number'));
  }
  return changes;
}
