// The command line: parses arguments and dispatches to one function per command.
// Nothing runs at import time; bin/heritage-api calls main().
import { Command, InvalidArgumentError, Option } from 'commander';
import { CATALOGUE_LIMITS } from '../catalogue/limits.js';
import { ConfigError } from '../config.js';
import { SETTINGS } from '../settings/table.js';
import { StoreError } from '../store/store.js';
import { runDemo } from './demo.js';
import { runExport } from './export.js';
import { runHarvest } from './harvest.js';
import { runImport } from './import.js';
import { runMigrate } from './migrate.js';
import { CliError } from './io.js';
import { runServe } from './serve.js';
import { runValidate } from './validate.js';

const DB_HELP = `SQLite database file or postgres:// URL (env DATABASE_URL; default ${SETTINGS.database.default})`;
const SCHEMA_HELP = `PostgreSQL schema holding the catalogue (env DATABASE_SCHEMA; default ${SETTINGS.databaseSchema.default})`;

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

/** The record limits as flags of a command that reads catalogue files (import, validate). */
function withLimitFlags(command: Command): Command {
  for (const l of Object.values(CATALOGUE_LIMITS)) {
    command.option(`${l.flag} <n>`, `refuse a record past ${l.defaultValue.toLocaleString('en-GB')} ${l.unit} (env ${l.env}); see README, The catalogue file`);
  }
  return command;
}

/** The limit flags commander gave, as settings (checked by loadConfig). */
function limitSettings(o: Record<string, string | undefined>) {
  return { maxStringChars: o['maxStringChars'], maxPositions: o['maxPositions'], maxRecordBytes: o['maxRecordBytes'] };
}

function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('heritage-api')
    .description('A fast, read-only JSON/GeoJSON API for catalogues of mapped historic buildings and places.')
    .showHelpAfterError('(add --help for usage)');
  const done = (run: Promise<number>) => run.then(setExit);

  program.command('serve').description('serve the API over HTTP')
    .option('--db <path>', DB_HELP)
    .option('--schema <name>', SCHEMA_HELP)
    .option('--workers <n>', 'server processes sharing the port; a worker that dies is restarted (default 1)', positiveWhole, 1)
    .option('--port <port>', 'port to listen on (env PORT; default 8000)')
    .option('--host <host>', 'address to listen on (env HOST; default 127.0.0.1)')
    .option('--base-url <url>', 'absolute base of every link, e.g. https://example.org (env BASE_URL; default: from the Host header)')
    .option('--allowed-hosts <list>', 'comma-separated Host names accepted; .example.org for subdomains, * for any (env ALLOWED_HOSTS; default localhost,127.0.0.1,[::1] and the base URL\'s host)')
    .option('--media-root <dir>', 'serve the files of this folder under /media/ (env MEDIA_ROOT)')
    .option('--trust-proxy', 'honour X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For (env TRUST_PROXY=1)')
    .addOption(new Option('--log-level <level>', 'log level (env LOG_LEVEL; default info)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .addOption(new Option('--log-format <format>', 'json lines, or pretty for a terminal (env LOG_FORMAT; default json)').choices(['json', 'pretty']))
    .option('--compress', 'gzip or brotli bodies by Accept-Encoding, each compressed once (env COMPRESS=1)')
    .option('--init-demo', 'when the database file does not exist, build the demo catalogue into it first (what npm start does)')
    .option('--shutdown-delay-ms <ms>', 'on SIGTERM, /readyz answers 503 and new connections are still served this long before the listener closes (env SHUTDOWN_DELAY_MS; default 5000)')
    .action((o) => done(runServe({
      database: o.db, databaseSchema: o.schema, workers: o.workers, port: o.port, host: o.host, baseUrl: o.baseUrl, allowedHosts: o.allowedHosts,
      mediaRoot: o.mediaRoot, trustProxy: o.trustProxy ? '1' : undefined, logLevel: o.logLevel, initDemo: o.initDemo,
      logFormat: o.logFormat, compress: o.compress ? '1' : undefined, shutdownDelayMs: o.shutdownDelayMs,
    })));

  withLimitFlags(program.command('import').description('replace the whole catalogue with a catalogue file, in one transaction')
    .argument('<file>', 'catalogue file (heritage-catalogue/1), or - for standard input')
    .option('--db <path>', `${DB_HELP}; created (or migrated) when needed`)
    .option('--schema <name>', SCHEMA_HELP))
    .action((file, o) => done(runImport(file, { db: o.db, schema: o.schema, ...limitSettings(o) })));

  program.command('migrate').description('create or upgrade the database tables (import does this by itself)')
    .option('--db <path>', DB_HELP)
    .option('--schema <name>', SCHEMA_HELP)
    .action((o) => done(runMigrate({ db: o.db, schema: o.schema })));

  program.command('export').description('write the stored catalogue as a catalogue file')
    .option('--db <path>', DB_HELP)
    .option('--schema <name>', SCHEMA_HELP)
    .option('--out <file>', 'output file (default: standard output)')
    .action((o) => done(runExport({ db: o.db, schema: o.schema, out: o.out })));

  withLimitFlags(program.command('validate').description('check a catalogue file without touching any database')
    .argument('<file>', 'catalogue file, or - for standard input'))
    .action((file, o) => done(runValidate(file, limitSettings(o))));

  program.command('demo').description('write a deterministic, realistic demo catalogue of Whitechapel')
    .option('--out <file>', 'output file (default: standard output)')
    .option('--scale <s>', 'size; 1 is the real catalogue (about 4,000 features)', positiveNumber, 1)
    .option('--seed <n>', 'random seed; the same seed gives the same file', wholeNumber, 1)
    .action((o) => done(runDemo({ out: o.out, scale: o.scale, seed: o.seed })));

  program.command('harvest').description('mirror a running API of this spec into a catalogue file')
    .argument('<url>', 'the API root, e.g. https://example.org/api/v1/')
    .option('--out <file>', 'output file (default: standard output); an unfinished harvest is kept next to it, in <file>.harvest-state')
    .option('--media <dir>', 'also download every image file and category thumbnail into this folder')
    .option('--concurrency <n>', 'requests at once', positiveWhole, 2)
    .option('--delay <ms>', 'pause after each request, in milliseconds', wholeNumber, 0)
    .option('--resume', 'continue an interrupted harvest instead of starting again')
    .option('--max-restarts <n>', 'walks of a collection to start again when the source changes under the harvest', wholeNumber, 3)
    .addOption(new Option('--backoff-ms <ms>').argParser(wholeNumber).default(1000).hideHelp())
    .action((url, o) => done(runHarvest(url, {
      out: o.out, media: o.media, concurrency: o.concurrency, delay: o.delay, resume: o.resume === true,
      maxRestarts: o.maxRestarts, backoffMs: o.backoffMs,
    })));

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
    process.stderr.write(`heritage-api: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
