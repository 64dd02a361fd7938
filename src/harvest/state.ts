// What a harvest has fetched so far, so `--resume` continues instead of starting again.
// The state file sits next to the output and is append-only JSON Lines: one line per
// page as it arrives, so a killed harvest loses at most the page being written (a torn
// last line is ignored). Without an output file the state lives in memory only.
import fs from 'node:fs';
import path from 'node:path';
import { COLLECTIONS, type Collection } from '../constants.js';
import { StateFileError } from './errors.js';

const STATE_VERSION = 1;

/** How a collection was split into pages when its walk began. */
export interface PagePlan {
  count: number;
  pageLength: number;
  lastPage: number;
}

interface CollectionState {
  plan: PagePlan | null;
  pages: Map<number, unknown[]>;
}

type StateLine =
  | { kind: 'harvest'; version: number; source: string }
  | ({ kind: 'plan'; collection: Collection } & PagePlan)
  | { kind: 'page'; collection: Collection; page: number; records: unknown[] }
  | { kind: 'restart'; collection: Collection };

export function stateFileFor(out: string): string {
  return `${out}.harvest-state`;
}

export class HarvestState {
  private readonly collections: Record<Collection, CollectionState> = { features: fresh(null), images: fresh(null), documents: fresh(null), media: fresh(null) };

  private constructor(private readonly file: string | null) {}

  /** A fresh state (an old file is replaced), or the one a previous run left (`resume`). */
  static open(file: string | null, source: string, resume: boolean): HarvestState {
    const state = new HarvestState(file);
    if (file !== null && resume && fs.existsSync(file)) state.replay(file, source);
    state.rewrite(source);
    return state;
  }

  plan(collection: Collection): PagePlan | null {
    return this.entry(collection).plan;
  }

  pages(collection: Collection): ReadonlyMap<number, unknown[]> {
    return this.entry(collection).pages;
  }

  /** A new walk of the collection: pages of any earlier plan are dropped. */
  setPlan(collection: Collection, plan: PagePlan): void {
    this.collections[collection] = fresh(plan);
    this.append({ kind: 'plan', collection, ...plan });
  }

  addPage(collection: Collection, page: number, records: unknown[]): void {
    this.entry(collection).pages.set(page, records);
    this.append({ kind: 'page', collection, page, records });
  }

  restart(collection: Collection): void {
    this.collections[collection] = fresh(null);
    this.append({ kind: 'restart', collection });
  }

  /** After the catalogue is written, nothing is left to resume. */
  remove(): void {
    if (this.file !== null) fs.rmSync(this.file, { force: true });
  }

  private entry(collection: Collection): CollectionState {
    return this.collections[collection];
  }

  private append(line: StateLine): void {
    if (this.file !== null) fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }

  private replay(file: string, source: string): void {
    const lines = readLines(file);
    const header = lines[0];
    if (header?.kind !== 'harvest' || header.version !== STATE_VERSION) {
      throw new StateFileError(`${file} is not a harvest state file this version can resume; remove it to start again.`);
    }
    if (header.source !== source) {
      throw new StateFileError(`${file} is the state of a harvest of ${header.source}, not ${source}; remove it or harvest that URL.`);
    }
    for (const line of lines.slice(1)) this.apply(line);
  }

  private apply(line: StateLine): void {
    if (line.kind === 'plan') this.collections[line.collection] = fresh(planOf(line));
    else if (line.kind === 'page') this.entry(line.collection).pages.set(line.page, line.records);
    else if (line.kind === 'restart') this.collections[line.collection] = fresh(null);
  }

  /** The file holds exactly what is kept: header, plans and pages (torn or dropped lines go). */
  private rewrite(source: string): void {
    if (this.file === null) return;
    fs.mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    const lines: StateLine[] = [{ kind: 'harvest', version: STATE_VERSION, source }];
    for (const collection of COLLECTIONS) {
      const { plan, pages } = this.collections[collection];
      if (plan === null) continue;
      lines.push({ kind: 'plan', collection, ...plan });
      for (const [page, records] of pages) lines.push({ kind: 'page', collection, page, records });
    }
    fs.writeFileSync(temporary, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    fs.renameSync(temporary, this.file);
  }
}

const fresh = (plan: PagePlan | null): CollectionState => ({ plan, pages: new Map() });

function planOf(line: PagePlan): PagePlan {
  return { count: line.count, pageLength: line.pageLength, lastPage: line.lastPage };
}

/** Every whole line; reading stops at the first that does not parse (a write cut short by a kill). */
function readLines(file: string): StateLine[] {
  const lines: StateLine[] = [];
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (text === '') continue;
    try {
      const line: unknown = JSON.parse(text);
      if (!isStateLine(line)) break;
      lines.push(line);
    } catch {
      break;
    }
  }
  return lines;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null;
const isCollection = (value: unknown): value is Collection => COLLECTIONS.some((c) => c === value);
const isNumber = (value: unknown): value is number => typeof value === 'number';

/** A line this module wrote (one of another shape ends the reading, as a torn one does). */
function isStateLine(value: unknown): value is StateLine {
  if (!isObject(value)) return false;
  switch (value.kind) {
    case 'harvest': return isNumber(value.version) && typeof value.source === 'string';
    case 'plan': return isCollection(value.collection) && isNumber(value.count) && isNumber(value.pageLength) && isNumber(value.lastPage);
    case 'page': return isCollection(value.collection) && isNumber(value.page) && Array.isArray(value.records);
    case 'restart': return isCollection(value.collection);
    default: return false;
  }
}
