// The command line: parses arguments and dispatches to one function per command.
// Nothing runs at import time; bin/heritage-api calls main(). Each command's module is
// loaded when that command runs: the server's (Fastify, both database drivers, Redis) take
// about a second of CPU to load, which `validate`, `demo` or `--help` need not spend.
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../config.js';
import { StoreError } from '../store/store.js';
import { DOWNLOAD_FORMATS, isDownloadFormat } from '../ogc/downloads.js';
import { CliError } from './io.js';
import { addSettingFlags, givenSettings } from './setting-flags.js';
import { errorMessage } from '../caught.js';

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a number above 0.');
  return n;
}

function positiveWhole(value: string): number {
  const n = wholeNumber(value);
  if (n < 1) throw new InvalidArgumentError('must be a whole number above 0.');
  return n;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be a whole number.');
  return Number(value);
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('heritage-api')
    .description('A fast, read-only JSON/GeoJSON API for catalogues of mapped historic buildings and places.')
    .showHelpAfterError('(add --help for usage)');
  const done = (run: Promise<number>) => run.then(setExit);

  addSettingFlags(program.command('serve').description('serve the API over HTTP'), 'serve')
    .option('--workers <n>', 'server processes sharing the port; a worker that dies is restarted (default 1)', positiveWhole, 1)
    .option('--init-demo', 'when the database file does not exist, build the demo catalogue into it first (what npm start does)')
    .action((o) => done(import('./serve.js').then(({ runServe }) => runServe({ ...givenSettings('serve', o), workers: o.workers, initDemo: o.initDemo }))));

  addSettingFlags(program.command('import').description('replace the whole catalogue with a catalogue file, in one transaction')
    .argument('<file>', 'catalogue file (heritage-catalogue/1), or - for standard input'), 'import')
    .action((file, o) => done(import('./import.js').then(({ runImport }) => runImport(file, givenSettings('import', o)))));

  addSettingFlags(program.command('apply').description('add, replace and remove a few records (a change file), in one transaction')
    .argument('<file>', 'change file (heritage-changes/1), or - for standard input'), 'apply')
    .option('--dry-run', 'check the file against the stored catalogue and say what would change, changing nothing')
    .action((file, o) => done(import('./apply.js').then(({ runApply }) => runApply(file, givenSettings('apply', o), { dryRun: o.dryRun === true }))));

  addSettingFlags(program.command('migrate').description('create or upgrade the database tables (import does this by itself)'), 'migrate')
    .action((o) => done(import('./migrate.js').then(({ runMigrate }) => runMigrate(givenSettings('migrate', o)))));

  addSettingFlags(program.command('export').description('write the stored catalogue as a catalogue file, or one collection as a GIS file'), 'export')
    .option('--out <file>', 'output file (default: standard output)')
    .addOption(new Option('--format <format>', 'catalogue (the file import reads), or one collection\'s published records as a GIS file').choices(['catalogue', ...DOWNLOAD_FORMATS]).default('catalogue'))
    .option('--collection <name>', 'with a GIS format: features, images, documents or media', 'features')
    .action((o) => done(import('./export.js').then(({ runExport, runFormatExport }) => (isDownloadFormat(o.format)
      ? runFormatExport(givenSettings('export', o), o.format, o.collection, o.out)
      : runExport(givenSettings('export', o), o.out)))));

  addSettingFlags(program.command('validate').description('check a catalogue file without touching any database')
    .argument('<file>', 'catalogue file, or - for standard input'), 'validate')
    .action((file, o) => done(import('./validate.js').then(({ runValidate }) => runValidate(file, givenSettings('validate', o)))));

  addSettingFlags(program.command('diff').description('write the change file (heritage-changes/1) that turns one catalogue file into another')
    .argument('<old>', 'the catalogue file as it was, or - for standard input')
    .argument('<new>', 'the catalogue file as it is now, or -'), 'diff')
    .option('-o, --out <file>', 'output file (default: standard output)')
    .action((oldFile, newFile, o) => done(import('./diff.js').then(({ runDiff }) => runDiff(oldFile, newFile, o.out, givenSettings('diff', o)))));

  const users = program.command('users').description('the contributors\' accounts (CONTRIBUTIONS): add, change the role of, disable, reset the password of and list them');
  const roles = `contributor, editor or admin`;
  addSettingFlags(users.command('add').description('add an account; its password is the first line of standard input')
    .argument('<name>', 'the account name').option('--role <role>', roles, 'contributor')
    .option('--author', 'link the account to the catalogue author of exactly this name: the one account credited as that author'), 'users')
    .action((name, o) => done(import('./users.js').then(({ runUsersAdd }) => runUsersAdd(name, o.role, o.author === true, givenSettings('users', o)))));
  addSettingFlags(users.command('role').description('change an account\'s role').argument('<name>', 'the account name').argument('<role>', roles), 'users')
    .action((name, role, o) => done(import('./users.js').then(({ runUsersRole }) => runUsersRole(name, role, givenSettings('users', o)))));
  addSettingFlags(users.command('disable').description('disable an account and end its sessions at once').argument('<name>', 'the account name'), 'users')
    .action((name, o) => done(import('./users.js').then(({ runUsersDisable }) => runUsersDisable(name, givenSettings('users', o)))));
  addSettingFlags(users.command('reset').description('print a link (one line) that sets the account\'s password once, within an hour; it replaces the account\'s earlier link. Absolute from BASE_URL, else from HOST and PORT')
    .argument('<name>', 'the account name'), 'users')
    .action((name, o) => done(import('./users.js').then(({ runUsersReset }) => runUsersReset(name, givenSettings('users', o)))));
  addSettingFlags(users.command('list').description('every account: name, role, state and when it was made, tab-separated'), 'users')
    .action((o) => done(import('./users.js').then(({ runUsersList }) => runUsersList(givenSettings('users', o)))));

  program.command('demo').description('write a deterministic, realistic demo catalogue of Whitechapel')
    .option('--out <file>', 'output file (default: standard output)')
    .option('--scale <s>', 'size; 1 is the real catalogue (about 4,000 features)', positiveNumber, 1)
    .option('--seed <n>', 'random seed; the same seed gives the same file', wholeNumber, 1)
    .action((o) => done(import('./demo.js').then(({ runDemo }) => runDemo({ out: o.out, scale: o.scale, seed: o.seed }))));

  program.command('harvest').description('mirror a running API of this spec into a catalogue file')
    .argument('<url>', 'the API root, e.g. https://example.org/api/v1/')
    .option('--out <file>', 'output file (default: standard output); an unfinished harvest is kept next to it, in <file>.harvest-state')
    .option('--media <dir>', 'also download every image file and category thumbnail into this folder')
    .option('--concurrency <n>', 'requests at once', positiveWhole, 2)
    .option('--delay <ms>', 'pause after each request, in milliseconds', wholeNumber, 0)
    .option('--resume', 'continue an interrupted harvest instead of starting again')
    .option('--max-restarts <n>', 'walks of a collection to start again when the source changes under the harvest', wholeNumber, 3)
    .addOption(new Option('--backoff-ms <ms>').argParser(wholeNumber).default(1000).hideHelp())
    .action((url, o) => done(import('./harvest.js').then(({ runHarvest }) => runHarvest(url, {
      out: o.out, media: o.media, concurrency: o.concurrency, delay: o.delay, resume: o.resume === true,
      maxRestarts: o.maxRestarts, backoffMs: o.backoffMs,
    }))));

  return program;
}

const KNOWN_ERRORS = [CliError, ConfigError, StoreError];

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram((code) => {
    process.exitCode = code;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (!KNOWN_ERRORS.some((kind) => error instanceof kind)) throw error;
    process.stderr.write(`heritage-api: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  }
}
