// What the commands tell the person running them: problems, summaries, and progress
// lines on a terminal only (pipes and logs get just the outcome).
import type { CatalogueCounts, CheckWarnings } from '../catalogue/checker.js';
import type { Catalogue, Problem } from '../catalogue/format.js';

/** How messages name a file given on the command line (`-`: standard input). */
export function sourceName(file: string): string {
  return file === '-' ? 'standard input' : file;
}

/** Every problem listed, or the first ones of `total` and how many more there are. */
export function printProblems(source: string, problems: Problem[], total = problems.length, verdict = 'is not a valid catalogue', word = 'problem'): void {
  const noun = total === 1 ? word : `${word}s`;
  process.stderr.write(`${source} ${verdict} (${total} ${noun}):\n`);
  for (const p of problems) process.stderr.write(`  ${p.path}: ${p.message}\n`);
  if (total > problems.length) process.stderr.write(`  … and ${total - problems.length} more (the first ${problems.length} in file order are listed)\n`);
}

/** What the file may hold but GIS tools call invalid: listed like problems, refusing nothing. */
export function printWarnings(source: string, { warnings, warningTotal }: CheckWarnings): void {
  if (warningTotal > 0) printProblems(source, warnings, warningTotal, 'has footprints GIS tools call invalid, accepted as they are', 'warning');
}

export function summarise(catalogue: Catalogue): string {
  const published = (list: { published: boolean }[]) => list.filter((r) => r.published).length;
  return summariseCounts({
    authors: catalogue.authors.length, categories: catalogue.categories.length, sites: catalogue.sites.length,
    features: catalogue.features.length, images: catalogue.images.length, documents: catalogue.documents.length, media: catalogue.media.length,
    published: { images: published(catalogue.images), documents: published(catalogue.documents), media: published(catalogue.media) },
  });
}

export function summariseCounts(c: CatalogueCounts): string {
  return [
    `${c.features} features`,
    `${c.images} images (${c.published.images} published)`,
    `${c.documents} documents (${c.published.documents} published)`,
    `${c.media} media (${c.published.media} published)`,
    `${c.authors} authors`,
    `${c.categories} categories`,
    `${c.sites} sites`,
  ].join(', ');
}

/** A step of long work: announced on a terminal, timed, and returned. */
export async function step<T>(label: string, work: () => T | Promise<T>): Promise<T> {
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  if (tty) process.stderr.write(`${label}…`);
  const result = await work();
  if (tty) process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

export function seconds(startedAt: number): string {
  return `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
}

/** Where progress goes: a terminal gets one line redrawn in place, anything else log lines. */
export interface ProgressOutput {
  tty: boolean;
  columns: number;
  write(text: string): void;
  now(): number;
}

export interface ProgressCounts {
  done: number;
  total: number | null;
  pages?: number;
  totalPages?: number | null;
}

const REDRAW_MS = 100;
const LOG_EVERY_MS = 10_000;

function stderrOutput(): ProgressOutput {
  return {
    tty: process.stderr.isTTY === true,
    columns: process.stderr.columns || 100,
    write: (text) => process.stderr.write(text),
    now: () => performance.now(),
  };
}

/**
 * Progress of long work measured in units (records, files): done of total, pages, rate
 * and estimated time left. The rate counts only what this run did (a resumed harvest
 * starts with work already done).
 */
export class ProgressDisplay {
  private readonly started: number;
  private baseline: number | null = null;
  private last: ProgressCounts = { done: 0, total: null };
  private lastShown = -Infinity;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly unit: string,
    private readonly out: ProgressOutput = stderrOutput(),
  ) {
    this.started = out.now();
    // A log gets its first line after one interval, not at once: "1/? pages" says nothing yet.
    if (!out.tty) this.lastShown = this.started;
  }

  update(counts: ProgressCounts): void {
    this.baseline ??= counts.done;
    this.last = counts;
    const now = this.out.now();
    if (now - this.lastShown < (this.out.tty ? REDRAW_MS : LOG_EVERY_MS)) return;
    this.lastShown = now;
    this.show();
  }

  /** A line of its own (a retry, a restart), above the progress line on a terminal. */
  note(message: string): void {
    if (this.out.tty && this.drawn) this.out.write('\r\x1b[K');
    this.out.write(`${message}\n`);
    if (this.out.tty && this.drawn) this.show();
  }

  /** The final state; a terminal's line is left in place. */
  finish(): void {
    if (!this.out.tty) return;
    this.show();
    this.out.write('\n');
    this.drawn = false;
  }

  private show(): void {
    const line = formatProgress(this.label, this.unit, this.last, this.out.now() - this.started, this.baseline ?? 0);
    if (this.out.tty) {
      this.out.write(`\r\x1b[K${line.slice(0, Math.max(20, this.out.columns - 1))}`);
      this.drawn = true;
    } else {
      this.out.write(`${line}\n`);
    }
  }
}

const count = (n: number) => n.toLocaleString('en-GB');

/** e.g. `Harvesting: 1,200/8,120 records, 12/82 pages, 410 records/s, about 17 s left` */
export function formatProgress(label: string, unit: string, c: ProgressCounts, elapsedMs: number, baseline: number): string {
  const parts = [`${count(c.done)}/${c.total === null ? '?' : count(c.total)} ${unit}`];
  if (c.pages !== undefined) parts.push(`${count(c.pages)}/${c.totalPages == null ? '?' : count(c.totalPages)} pages`);
  const rate = elapsedMs > 0 ? ((c.done - baseline) * 1000) / elapsedMs : 0;
  if (rate > 0) parts.push(`${count(Math.round(rate))} ${unit}/s`);
  if (rate > 0 && c.total !== null && c.done < c.total) parts.push(`about ${Math.ceil(Math.max(0, c.total - c.done) / rate)} s left`);
  return `${label}: ${parts.join(', ')}`;
}

/** e.g. `Finishing: step 3 of 9, search text of features, 12.3 s` */
export function formatStep(label: string, done: number, total: number, step: string, elapsedMs: number): string {
  return `${label}: step ${Math.min(done + 1, total)} of ${total}, ${step}, ${(elapsedMs / 1000).toFixed(1)} s`;
}

const STEP_REDRAW_MS = 1000;

/**
 * Work in a known number of named steps (finishing an import): a terminal gets one line,
 * redrawn as each step begins and each second (the clock; a synchronous step holds it);
 * anything else nothing, as the outcome line follows.
 */
export class StepDisplay {
  private readonly started: number;
  private current: { done: number; total: number; step: string } | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly label: string,
    private readonly out: ProgressOutput = stderrOutput(),
  ) {
    this.started = out.now();
  }

  /** A FinishProgress: step `done + 1` of `total` begins. */
  readonly update = (done: number, total: number, step: string): void => {
    if (!this.out.tty) return;
    this.current = { done, total, step };
    this.show();
    this.timer ??= setInterval(() => this.show(), STEP_REDRAW_MS).unref();
  };

  /** Every step done: the line says so, with the time taken, and is left in place. */
  finish(): void {
    clearInterval(this.timer);
    if (!this.out.tty || !this.current) return;
    const seconds = ((this.out.now() - this.started) / 1000).toFixed(1);
    this.out.write(`\r\x1b[K${this.label}: ${this.current.total} steps, ${seconds} s\n`);
  }

  private show(): void {
    if (!this.current) return;
    const { done, total, step } = this.current;
    const line = formatStep(this.label, done, total, step, this.out.now() - this.started);
    this.out.write(`\r\x1b[K${line.slice(0, Math.max(20, this.out.columns - 1))}`);
  }
}
