// The commands' flags that are settings, as the settings table makes them: which command takes
// which flag, their --help sentence, and what commander parsed back as settings.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { givenSettings, helpText } from '../../src/cli/setting-flags.js';
import { SETTINGS, type Setting } from '../../src/settings/table.js';

describe('setting flags', () => {
  const program = buildProgram(() => {});
  const flagsOf = (name: string) => program.commands.find((command) => command.name() === name)?.options.map((option) => option.flags);

  // Every flag each command had before the table, in the table's order, then the command's own.
  const commands: [string, string[]][] = [
    ['serve', ['--db <path>', '--schema <name>', '--port <port>', '--host <host>', '--base-url <url>', '--allowed-hosts <list>', '--media-root <dir>', '--primary-url <url>',
      '--trust-proxy', '--log-level <level>', '--compress', '--contributions', '--log-format <format>', '--shutdown-delay-ms <ms>', '--workers <n>', '--init-demo']],
    ['import', ['--db <path>', '--schema <name>', '--max-string-chars <n>', '--max-positions <n>', '--max-record-bytes <n>']],
    ['migrate', ['--db <path>', '--schema <name>']],
    ['export', ['--db <path>', '--schema <name>', '--out <file>', '--format <format>', '--collection <name>']],
    ['validate', ['--max-string-chars <n>', '--max-positions <n>', '--max-record-bytes <n>']],
    ['diff', ['--max-string-chars <n>', '--max-positions <n>', '--max-record-bytes <n>', '-o, --out <file>']],
  ];
  for (const [name, flags] of commands) test(`${name}: ${flags.join(' ')}`, () => assert.deepEqual(flagsOf(name), flags));

  test('--log-level and --log-format offer their values', () => {
    const serve = program.commands.find((command) => command.name() === 'serve');
    const choices = (long: string) => serve?.options.find((option) => option.long === long)?.argChoices;
    assert.deepEqual(choices('--log-level'), ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
    assert.deepEqual(choices('--log-format'), ['json', 'pretty']);
  });

  const help: [Setting<unknown>, string][] = [
    [SETTINGS.port, 'port to listen on (env PORT; default 8000)'],
    [SETTINGS.database, 'SQLite database file or postgres:// URL (env DATABASE_URL; default ./data/catalogue.db)'],
    [SETTINGS.trustProxy, 'honour X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For (env TRUST_PROXY=1)'],
    [SETTINGS.mediaRoot, 'serve the files of this folder under /media/ (env MEDIA_ROOT)'],
    [SETTINGS.maxPositions, 'most positions in one footprint, all its rings together (env CATALOGUE_MAX_POSITIONS; default 2000)'],
  ];
  for (const [setting, expected] of help) test(`--help: ${expected}`, () => assert.equal(helpText(setting), expected));

  test('what commander parsed, as settings: a switch given is 1; flags the command does not take and its own are left out', () => {
    const parsed = { db: 'x.db', trustProxy: true, compress: undefined, port: '9', workers: 3, initDemo: true, maxPositions: '5' };
    assert.deepEqual(givenSettings('serve', parsed), { database: 'x.db', trustProxy: '1', port: '9' });
    assert.deepEqual(givenSettings('validate', parsed), { maxPositions: '5' });
    assert.deepEqual(givenSettings('migrate', {}), {});
  });
});
