// `apply CHANGES.json`: a change file checked on its own, then judged and applied against the
// stored catalogue in one transaction (store.applyChanges); `--dry-run` says what would
// change and changes nothing. A file the catalogue already holds as given is a no-op.
import fs from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { CATALOGUE_LISTS } from '../catalogue/lists.js';
import { ChangeValidator } from '../changes/validate.js';
import { loadConfig, type RawSettings } from '../config.js';
import type { ChangeSummary, ListOutcome } from '../store/apply/apply-changes.js';
import { describeDatabase, openStore } from '../store/open.js';
import { CliError } from './io.js';
import { printProblems, seconds, sourceName } from './report.js';
import { errorCode, errorMessage } from '../caught.js';

export interface ApplyCommandOptions {
  dryRun: boolean;
}

export async function runApply(file: string, settings: RawSettings, options: ApplyCommandOptions): Promise<number> {
  const started = performance.now();
  const config = loadConfig(settings);
  const name = sourceName(file);
  const check = new ChangeValidator(config.catalogueLimits).parseBytes(await readChangeFile(file));
  if (!check.ok) {
    printProblems(name, check.problems, check.total, 'is not a valid change file');
    return 1;
  }
  const store = await openStore(config);
  try {
    const outcome = await store.applyChanges(check.changes, { dryRun: options.dryRun });
    const database = describeDatabase(config);
    if (!outcome.ok) {
      printProblems(name, outcome.problems, outcome.total, `cannot be applied to ${database}; nothing was changed`);
      return 1;
    }
    const changes = describeSummary(outcome.summary);
    if (changes === '') process.stderr.write(`Nothing to change: ${database} already holds ${name} as given; the catalogue version stays as it was.\n`);
    else if (options.dryRun) process.stderr.write(`Dry run: applying ${name} to ${database} would change ${changes}. Nothing was changed.\n`);
    else process.stderr.write(`Applied ${name} to ${database} in ${seconds(started)}: ${changes}. Catalogue version ${outcome.version}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function readChangeFile(file: string): Promise<Buffer> {
  if (file === '-') return buffer(process.stdin);
  try {
    return await fs.promises.readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${errorCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error)}`);
  }
}

const SHOWN_IDS = 10;

/** `features: 1 added (12), 2 replaced (3, 4); images: 1 removed (9)`, or '' when nothing changes. */
export function describeSummary(summary: ChangeSummary): string {
  return CATALOGUE_LISTS.map((list) => {
    const parts = describeList(summary[list]);
    return parts === '' ? '' : `${list}: ${parts}`;
  }).filter((part) => part !== '').join('; ');
}

function describeList(outcome: ListOutcome): string {
  const part = (ids: number[], word: string) => {
    if (ids.length === 0) return '';
    const shown = ids.slice(0, SHOWN_IDS).join(', ') + (ids.length > SHOWN_IDS ? ', …' : '');
    return `${ids.length} ${word} (${shown})`;
  };
  return [part(outcome.added, 'added'), part(outcome.replaced, 'replaced'), part(outcome.removed, 'removed')].filter((p) => p !== '').join(', ');
}
