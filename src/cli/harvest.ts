// `harvest URL`: mirror a running API of this spec into a catalogue file (and, with
// --media, its files). The file is validated like an import and written atomically; the
// state of an unfinished harvest stays next to it for --resume.
import fs from 'node:fs';
import type { Catalogue } from '../catalogue/format.js';
import { catalogueChunks } from '../catalogue/dump.js';
import { validateCatalogue } from '../catalogue/validate.js';
import { HarvestError, StateFileError } from '../harvest/errors.js';
import { harvestApi, type Harvested, type HarvestRun } from '../harvest/harvest.js';
import { mirrorMedia } from '../harvest/media.js';
import { stateFileFor } from '../harvest/state.js';
import { CliError, writeOutput } from './io.js';
import { PACKAGE_VERSION } from '../package-files.js';
import { printProblems, ProgressDisplay, seconds, step, summarise } from './report.js';

export interface HarvestOptions {
  out?: string;
  media?: string;
  concurrency: number;
  delay: number;
  resume: boolean;
  maxRestarts: number;
  /** Hidden: the first backoff step, so tests do not wait long. */
  backoffMs: number;
}

const MAX_ATTEMPTS = 8;
const REQUEST_TIMEOUT_MS = 60_000;

export async function runHarvest(url: string, options: HarvestOptions): Promise<number> {
  const started = performance.now();
  const statePath = stateFileOption(options);
  const progress = new ProgressDisplay('Harvesting', 'records');
  const harvested = await harvestOrExplain(harvestApi(harvestRun(url, options, statePath, progress)), statePath);
  progress.finish();
  const result = validateCatalogue(harvested.rebuilt.file);
  if (!result.ok) {
    printProblems(`The catalogue harvested from ${url}`, result.problems, result.total);
    return 1;
  }
  if (options.media !== undefined) await mirrorMediaOrExplain(harvested, options.media, statePath);
  await step(`Writing ${options.out ?? 'standard output'}`, () => writeOutput(catalogueChunks(result.catalogue), options.out));
  harvested.state.remove();
  report(result.catalogue, url, harvested, started);
  return 0;
}

/** The state file next to --out; none when writing to standard output. */
function stateFileOption(options: HarvestOptions): string | null {
  if (!Number.isSafeInteger(options.concurrency) || options.concurrency < 1) throw new CliError('--concurrency must be a whole number above 0.');
  const out = options.out;
  if (out === undefined || out === '-') {
    if (options.resume) throw new CliError('--resume needs --out: the state of a harvest is kept next to its output file.');
    return null;
  }
  const statePath = stateFileFor(out);
  const exists = fs.existsSync(statePath);
  if (options.resume && exists) process.stderr.write(`Resuming the harvest kept in ${statePath}.\n`);
  if (options.resume && !exists) process.stderr.write(`No harvest to resume (${statePath} does not exist): starting from the beginning.\n`);
  if (!options.resume && exists) process.stderr.write(`${statePath} holds an unfinished harvest; starting again (add --resume to continue it).\n`);
  return statePath;
}

function harvestRun(url: string, options: HarvestOptions, statePath: string | null, progress: ProgressDisplay): HarvestRun {
  return {
    url,
    statePath,
    resume: options.resume,
    settings: {
      concurrency: options.concurrency,
      delayMs: options.delay,
      backoffMs: options.backoffMs,
      maxAttempts: MAX_ATTEMPTS,
      maxRestarts: options.maxRestarts,
      timeoutMs: REQUEST_TIMEOUT_MS,
      userAgent: `heritage-api/${PACKAGE_VERSION} harvest`,
    },
    reporter: {
      note: (message) => progress.note(message),
      progress: (t) => progress.update({ done: t.records, total: t.totalRecords, pages: t.pages, totalPages: t.totalPages }),
    },
  };
}

/** A harvest that stops says why, and where the pages fetched so far are kept. */
async function harvestOrExplain<T>(work: Promise<T>, statePath: string | null): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof HarvestError)) throw error;
    const kept = statePath !== null && !(error instanceof StateFileError) && fs.existsSync(statePath) ? ` What was fetched is kept in ${statePath}; add --resume to continue.` : '';
    throw new CliError(`harvest stopped: ${error.message}${kept}`);
  }
}

async function mirrorMediaOrExplain(harvested: Harvested, dir: string, statePath: string | null): Promise<void> {
  const progress = new ProgressDisplay('Media files', 'files');
  const files = harvested.rebuilt.files;
  const outcome = await harvestOrExplain(mirrorMedia(harvested.client, dir, files, (done, total) => progress.update({ done, total })), statePath);
  progress.finish();
  const megabytes = (outcome.bytes / 1e6).toFixed(1);
  process.stderr.write(`Media files in ${dir}: ${outcome.downloaded} downloaded (${megabytes} MB), ${outcome.kept} already there.\n`);
  if (outcome.missing.length === 0) return;
  const shown = outcome.missing.slice(0, 10).map((p) => `  ${p}\n`).join('');
  const more = outcome.missing.length > 10 ? `  … and ${outcome.missing.length - 10} more\n` : '';
  const noun = outcome.missing.length === 1 ? '1 file is' : `${outcome.missing.length} files are`;
  process.stderr.write(`warning: ${noun} missing on the source (404/410):\n${shown}${more}`);
}

function report(catalogue: Catalogue, url: string, harvested: Harvested, started: number): void {
  const { requests, retries } = harvested.client.stats;
  process.stderr.write(`Harvested ${summarise(catalogue)} from ${url} in ${seconds(started)} (${requests} requests, ${retries} retried).\n`);
}
