// Every rule of the format, checked record by record as a file streams past: each record's
// shape (the list's schema), then the rules between records with compact id maps (ids
// unique, usernames unique, references naming a record, no category twice in a feature).
// A reference into a list not read yet is kept aside and judged at the end. Records that
// pass go on to a sink while the file has no problem; the top level is checked at the end.
import { footprintWarnings } from './footprint.js';
import type { Problem } from './format.js';
import type { CatalogueEvents } from './json-reader.js';
import { DEFAULT_CATALOGUE_LIMITS, count, describeLimit, type CatalogueLimits } from './limits.js';
import { perList, type CatalogueSink, type ListName } from './lists.js';
import { normaliseRecord } from './normalise.js';
import { filePosition, formatPath, isPlainObject, type LocatedProblem, type PathSegment } from './paths.js';
import { ProblemList } from './problem-list.js';
import type { FileGeometry } from './schema.js';
import { quote } from './strings.js';
import type { StructureCheck } from './structure.js';

/** Ties at one place in the file keep this order (the order of the whole-file checks). */
const PHASE = { shape: 0, duplicateId: 1, username: 2, reference: 3, category: 4 } as const;

/** `{list}[i].{key}` must be the id of a record in `target` (a feature's categories aside). */
export const REFERENCES: Partial<Record<ListName, readonly { key: string; target: ListName; noun: string }[]>> = {
  features: [{ key: 'site', target: 'sites', noun: 'site' }],
  ...Object.fromEntries((['images', 'documents', 'media'] as const).map((list) => [list, [
    { key: 'feature', target: 'features', noun: 'feature' },
    { key: 'author', target: 'authors', noun: 'author' },
  ]])),
};

interface Deferred {
  target: ListName;
  id: number;
  position: number[];
  segments: PathSegment[];
  message: string;
  phase: number;
}

/** Record counts of a valid file, for the command's summary. */
export type CatalogueCounts = Record<ListName, number> & { published: Record<'images' | 'documents' | 'media', number> };

/** A plain GeoJSON FeatureCollection is the likeliest wrong file: say what it is and what to do. */
export const NOT_A_CATALOGUE_GEOJSON =
  'this is a plain GeoJSON FeatureCollection, not a heritage catalogue. A catalogue is one JSON object with "format": "heritage-catalogue/1" and the lists authors, categories, sites, features, images, documents and media; each of its features has id, feature_type, b_number, b_name, street, postcode, address, current, site, categories, tags and a Polygon or MultiPolygon geometry, as plain keys (no "properties"). Make one record of each GeoJSON feature, its properties becoming those keys: see "The catalogue file" in docs/site.md, and `heritage-api demo --out example.json` for a whole example.';

/** Warnings: what a file may hold but GIS tools call invalid (invalid footprints), listed like problems; they refuse nothing. */
export interface CheckWarnings {
  warnings: Problem[];
  warningTotal: number;
}

export type CheckResult = ({ ok: true; counts: CatalogueCounts } | { ok: false; problems: Problem[]; total: number }) & CheckWarnings;

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

export class CatalogueChecker implements CatalogueEvents {
  private readonly problems = new ProblemList();
  private readonly warnings = new ProblemList();
  /** The top level with each streamed list as `[]`, for the top-level schema. */
  private readonly skeleton: Record<string, unknown> = {};
  private topLevel: { value: unknown } | null = null;
  private readonly places = new Map<ListName, number>();
  /** Per list: id → index of the first record holding it. */
  private readonly ids = new Map<ListName, Map<number, number>>();
  /** Lists with a record that has no usable id: references into them cannot be judged. */
  private readonly unjudgeable = new Set<ListName>();
  private readonly usernames = new Map<string, number>();
  private readonly deferred: Deferred[] = [];
  /** Lists read to their end. */
  private readonly read = new Set<ListName>();
  private readonly counts = emptyCounts();
  /** Problems of top-level values that only the text shows, listed with the top level's at the end. */
  private readonly textProblems: LocatedProblem[] = [];

  constructor(
    private readonly structure: StructureCheck,
    private readonly sink?: CatalogueSink,
    private readonly limits: CatalogueLimits = DEFAULT_CATALOGUE_LIMITS,
  ) {}

  rootValue(key: string, value: unknown, problems: readonly LocatedProblem[] = []): void {
    // An own property even for `__proto__`, so that the schema sees the key the file has.
    Object.defineProperty(this.skeleton, key, { value, writable: true, enumerable: true, configurable: true });
    for (const p of problems) this.textProblems.push({ segments: [key, ...p.segments], message: p.message });
  }

  listStart(list: ListName): void {
    this.skeleton[list] = [];
    this.places.set(list, Object.keys(this.skeleton).indexOf(list));
    this.ids.set(list, new Map());
  }

  listEnd(list: ListName): void {
    this.read.add(list);
  }

  notAnObject(value: unknown): void {
    this.topLevel = { value };
  }

  record(list: ListName, index: number, value: unknown, textProblems: readonly LocatedProblem[] = []): void {
    const before = this.problems.total;
    const base = [this.places.get(list) ?? 0, index];
    const add = (into: ProblemList, phase?: number) => (p: LocatedProblem) =>
      into.add([...base, ...filePosition(value, p.segments)], { segments: [list, index, ...p.segments], message: p.message }, phase);
    textProblems.forEach(add(this.problems, PHASE.shape));
    // undefined: a record past the size limit, no longer built.
    if (value !== undefined) recordProblems(this.structure.problems(value, list), value, list, this.limits, textProblems).forEach(add(this.problems, PHASE.shape));
    const valid = this.problems.total === before;
    // A valid feature's footprint as GIS tools judge it: warnings, not problems.
    if (valid && list === 'features') footprintWarnings((value as { geometry: FileGeometry }).geometry).forEach(add(this.warnings));
    if (isPlainObject(value)) this.relations(list, index, value, base);
    else this.unjudgeable.add(list);
    if (valid) this.accept(list, value);
  }

  /** The file's problems (the first PROBLEM_LIMIT in file order), or its record counts. */
  finish(): CheckResult {
    if (this.skeleton['type'] === 'FeatureCollection') return CatalogueChecker.refuseWhole(NOT_A_CATALOGUE_GEOJSON);
    if (this.topLevel !== null) {
      for (const p of this.structure.problems(this.topLevel.value)) this.problems.add([], p);
    } else {
      for (const p of withoutPlacesOf(this.structure.problems(this.skeleton), this.textProblems)) this.problems.add(filePosition(this.skeleton, p.segments), p, PHASE.shape);
      for (const p of this.textProblems) this.problems.add(filePosition(this.skeleton, p.segments), p, PHASE.shape);
      this.judgeDeferred();
    }
    const warnings = { warnings: this.warnings.listed(), warningTotal: this.warnings.total };
    if (this.problems.total === 0) return { ok: true, counts: this.counts, ...warnings };
    return { ok: false, problems: this.problems.listed(), total: this.problems.total, ...warnings };
  }

  /** A problem of the file as a whole replaces every other. */
  static refuseWhole(message: string): CheckResult {
    return { ok: false, problems: [{ path: '$', message }], total: 1, warnings: [], warningTotal: 0 };
  }

  private accept(list: ListName, value: unknown): void {
    if (this.problems.total > 0) return;
    this.counts[list]++;
    if ((list === 'images' || list === 'documents' || list === 'media') && !(isPlainObject(value) && value['published'] === false)) this.counts.published[list]++;
    this.sink?.add(list, normaliseRecord(list, value));
  }

  private relations(list: ListName, index: number, record: Record<string, unknown>, base: number[]): void {
    const at = (key: string) => [...base, placeOf(record, key)];
    const id = record['id'];
    if (!isId(id)) this.unjudgeable.add(list);
    else this.unique(this.idsOf(list), id, index, list, 'id', at('id'), PHASE.duplicateId);
    const username = record['username'];
    if (list === 'authors' && typeof username === 'string' && username !== '') this.unique(this.usernames, username, index, list, 'username', at('username'), PHASE.username);
    for (const { key, target, noun } of REFERENCES[list] ?? []) {
      const value = record[key];
      if (isInteger(value)) this.reference(target, value, at(key), [list, index, key], `there is no ${noun} with id ${value} in ${target}`, PHASE.reference);
    }
    if (list === 'features') this.featureCategories(index, record['categories'], at('categories'));
  }

  private unique<V>(first: Map<V, number>, value: V, index: number, list: ListName, key: string, position: number[], phase: number): void {
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, index);
    else this.problems.add(position, { segments: [list, index, key], message: `duplicate ${key} ${typeof value === 'string' ? quote(value) : JSON.stringify(value)}: ${formatPath([list, earlier])} has it too` }, phase);
  }

  /** Each of a feature's categories must exist, and be listed once. */
  private featureCategories(index: number, categories: unknown, position: number[]): void {
    if (!Array.isArray(categories)) return;
    const first = new Map<unknown, number>();
    categories.forEach((value: unknown, j) => {
      if (!isInteger(value)) return;
      const earlier = first.get(value);
      const segments = ['features', index, 'categories', j];
      if (earlier !== undefined) this.problems.add([...position, j], { segments, message: categoryTwice(value, earlier) }, PHASE.category);
      else this.reference('categories', value, [...position, j], segments, `there is no category with id ${value} in categories`, PHASE.category);
      first.set(value, earlier ?? j);
    });
  }

  /** Judged now when the target list has been read whole, otherwise at the end. */
  private reference(target: ListName, id: number, position: number[], segments: PathSegment[], message: string, phase: number): void {
    if (!this.read.has(target)) {
      this.deferred.push({ target, id, position, segments, message, phase });
      return;
    }
    if (!this.unjudgeable.has(target) && !this.idsOf(target).has(id)) this.problems.add(position, { segments, message }, phase);
  }

  /** A list's ids so far (made at its start, listStart). */
  private idsOf(list: ListName): Map<number, number> {
    let ids = this.ids.get(list);
    if (ids === undefined) this.ids.set(list, (ids = new Map()));
    return ids;
  }

  private judgeDeferred(): void {
    for (const d of this.deferred) {
      const ids = this.ids.get(d.target);
      if (ids === undefined || this.unjudgeable.has(d.target)) continue;
      if (!ids.has(d.id)) this.problems.add(d.position, { segments: d.segments, message: d.message }, d.phase);
    }
    this.deferred.length = 0;
  }
}

/** A record's shape (`structural`) and footprint size; a place the text already refused is not judged again. */
function recordProblems(structural: LocatedProblem[], record: unknown, list: ListName, limits: CatalogueLimits, textProblems: readonly LocatedProblem[]): LocatedProblem[] {
  return [...withoutPlacesOf(structural, textProblems), ...footprintProblems(record, list, limits)];
}

/** A footprint past the positions limit (what a schema cannot count). */
export function footprintProblems(record: unknown, list: ListName, limits: CatalogueLimits): LocatedProblem[] {
  const problems: LocatedProblem[] = [];
  const geometry = list === 'features' && isPlainObject(record) ? record['geometry'] : undefined;
  const positions = isPlainObject(geometry) ? countPositions(geometry['coordinates']) : 0;
  if (positions > limits.maxPositions) {
    problems.push({ segments: ['geometry', 'coordinates'], message: `has ${count(positions)} positions: ${describeLimit('maxPositions', limits)}` });
  }
  return problems;
}

export const categoryTwice = (category: unknown, earlier: number): string => `category ${category} is listed twice (also at categories[${earlier}])`;

function withoutPlacesOf(problems: LocatedProblem[], taken: readonly LocatedProblem[]): LocatedProblem[] {
  if (taken.length === 0) return problems;
  const places = new Set(taken.map((p) => formatPath(p.segments)));
  return problems.filter((p) => !places.has(formatPath(p.segments)));
}

/** Positions are the lists whose first item is a number, at whatever depth. */
function countPositions(node: unknown): number {
  if (!Array.isArray(node)) return 0;
  if (typeof node[0] === 'number') return 1;
  let total = 0;
  for (const child of node) total += countPositions(child);
  return total;
}

/** A key's place among its record's keys; a missing key sorts after those present. */
function placeOf(record: Record<string, unknown>, key: string): number {
  const keys = Object.keys(record);
  const place = keys.indexOf(key);
  return place === -1 ? keys.length : place;
}

export function emptyCounts(): CatalogueCounts {
  return { ...perList(() => 0), published: { images: 0, documents: 0, media: 0 } };
}
