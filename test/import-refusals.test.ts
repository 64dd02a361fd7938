// Files only the text can show to be bad (issue 15) imported into each store: SQLite and
// PostgreSQL give the same refusal, by JSON path, and the stored catalogue does not change.
// Before, a NUL imported into SQLite and broke PostgreSQL with the driver's raw message.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { runCli } from './support/cli.js';
import { importInto } from './support/server.js';
import { createTestDatabase, postgresUnavailableReason, type StoreKind, type TestDatabase } from './support/stores.js';
import { temporaryDir } from './support/temporary.js';

let dir: string;
before(() => {
  dir = temporaryDir();
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The test catalogue's file with one record's text changed. */
function fileWith(change: (text: string) => string): string {
  const text = formatCatalogue(buildTestCatalogue());
  const changed = change(text);
  assert.notEqual(changed, text, 'the change applies');
  return changed;
}

const BAD_FILES: { name: string; text: () => string; problems: RegExp[]; flags?: string[] }[] = [
  {
    name: 'an escaped NUL and a lone surrogate',
    text: () => fileWith((t) => t.replace('"title":"', '"title":"\\u0000').replace('"username":"', '"username":"\\ud800')),
    problems: [/authors\[0\]\.username: must not contain a lone UTF-16 surrogate/, /images\[0\]\.title: must not contain the NUL character/],
  },
  {
    name: 'published false, then true',
    text: () => fileWith((t) => t.replace(/("id":\d+,"feature":\d+,"author":\d+,"title":"[^"]*","file")/, '"published":false,$1').replace(/"published":(true|false)\}/, '"published":true}')),
    problems: [/images\[0\]\.published: the key "published" is given twice/],
  },
  {
    name: 'a record over a limit set by a flag',
    text: () => formatCatalogue(buildTestCatalogue()),
    flags: ['--max-positions', '4'],
    problems: [/features\[\d+\]\.geometry\.coordinates: has \d+ positions: the limit is 4 positions/],
  },
];

function storeSuite(kind: StoreKind): void {
  let database: TestDatabase;
  let before_: string;
  before(async () => {
    database = createTestDatabase(kind);
    await importInto(database.settings, buildTestCatalogue());
    before_ = (await runCli(['export', ...database.args])).stdout;
  });
  after(() => database.drop());

  for (const { name, text, problems, flags = [] } of BAD_FILES) {
    test(`${name}: exit 1, every problem by path, nothing changed`, async () => {
      const file = path.join(dir, `${kind}-${name.replaceAll(' ', '-')}.json`);
      fs.writeFileSync(file, text());
      const result = await runCli(['import', file, ...database.args, ...flags]);
      assert.equal(result.code, 1, result.stderr);
      for (const problem of problems) assert.match(result.stderr, problem);
      assert.doesNotMatch(result.stderr, /invalid byte sequence|\n\s+at /);
      const validated = await runCli(['validate', file, ...flags]);
      assert.equal(validated.code, 1);
      assert.equal(result.stderr, validated.stderr, 'import and validate say the same');
      assert.equal((await runCli(['export', ...database.args])).stdout, before_);
    });
  }
}

describe('SQLite', () => storeSuite('sqlite'));

describe('PostgreSQL', async () => {
  const reason = await postgresUnavailableReason();
  if (reason === null) return storeSuite('postgres');
  test(`on PostgreSQL: ${reason}`, { skip: process.env.HERITAGE_TEST_POSTGRES !== 'required' && reason }, () => assert.fail(reason));
});
