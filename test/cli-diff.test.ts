// `diff OLD NEW` as a child process: the change file on standard output or in a file, every
// kind of change in every list, identical files, refused files. Expected change files are
// written out by hand from each edit of the test catalogue.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import type { Catalogue } from '../src/catalogue/format.js';
import { CATALOGUE_LISTS, type ListName } from '../src/catalogue/lists.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { runCli } from './support/cli.js';
import { temporaryDir } from './support/temporary.js';

const EMPTY = '{"format":"heritage-changes/1"\n}\n';

let dir: string;
let oldFile: string;
before(() => {
  dir = temporaryDir();
  oldFile = writeFile('old.json', formatCatalogue(baseCatalogue()));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function writeFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

type Loose = Record<string, unknown> & { id: number };
const recordsOf = (c: Catalogue, list: ListName) => c[list] as unknown as Loose[];

/** The test catalogue with a record nothing refers to in the lists that have none, so that each list can lose one. */
function baseCatalogue(): Catalogue {
  const catalogue = buildTestCatalogue();
  catalogue.authors.push({ id: 8, username: 'spare' });
  catalogue.categories.push({ id: 9, name: 'Spare', description: '', thumbnail: 'categories/spare.png' });
  catalogue.sites.push({ id: 2, name: 'Spare site' });
  return catalogue;
}

/** Ids that some record refers to, per list. */
function referenced(c: Catalogue): Record<string, Set<unknown>> {
  const attached = [...c.images, ...c.documents, ...c.media];
  return {
    authors: new Set(attached.map((r) => r.author)),
    features: new Set(attached.map((r) => r.feature)),
    sites: new Set(c.features.map((f) => f.site)),
    categories: new Set(c.features.flatMap((f) => f.categories)),
  };
}

/**
 * The base catalogue with, in every list, the first record nothing refers to removed, the
 * first other one changed, and a copy of the last added with a new id (written first, so
 * the file is out of id order); and the change file that says so, from the same edits.
 */
function editEveryList(): { next: Catalogue; expected: Record<string, unknown> } {
  const next = baseCatalogue();
  const inUse = referenced(next);
  const expected: Record<string, unknown> = { format: 'heritage-changes/1' };
  for (const list of CATALOGUE_LISTS) {
    const records = recordsOf(next, list);
    const [removed] = records.splice(records.findIndex((r) => !inUse[list]?.has(r.id)), 1);
    const changed = records[0]!;
    const key = list === 'authors' ? 'username' : list === 'features' ? 'address' : list === 'documents' ? 'body' : list === 'media' ? 'url' : list === 'images' ? 'title' : 'name';
    changed[key] = `${String(changed[key])}-corrected`;
    const added: Loose = { ...records.at(-1)!, id: 900 + CATALOGUE_LISTS.indexOf(list) };
    if (list === 'authors') added['username'] = 'new.author';
    records.unshift(added);
    expected[list] = { put: changed.id < added.id ? [changed, added] : [added, changed], remove: [removed!.id] };
  }
  return { next, expected };
}

describe('diff', () => {
  test('every kind of change in every list, on standard output; a summary on standard error', async () => {
    const { next, expected } = editEveryList();
    const result = await runCli(['diff', oldFile, writeFile('edited.json', formatCatalogue(next))]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), expected);
    assert.deepEqual(Object.keys(JSON.parse(result.stdout)), ['format', ...CATALOGUE_LISTS]);
    assert.match(result.stderr, /^Changes from .*old\.json and .*edited\.json: authors: 2 put, 1 removed; categories: 2 put, 1 removed; .*; media: 2 put, 1 removed \(\d+\.\d s\)\.\n$/);
  });

  test('-o writes the same bytes to a file, and nothing on standard output', async () => {
    const newFile = writeFile('edited-o.json', formatCatalogue(editEveryList().next));
    const out = path.join(dir, 'out', 'changes.json');
    const toFile = await runCli(['diff', oldFile, newFile, '-o', out]);
    assert.equal(toFile.code, 0, toFile.stderr);
    assert.equal(toFile.stdout, '');
    const toStdout = await runCli(['diff', oldFile, newFile]);
    assert.equal(fs.readFileSync(out, 'utf8'), toStdout.stdout);
    assert.deepEqual(fs.readdirSync(path.dirname(out)), ['changes.json']);
  });

  test('identical catalogues, written differently: the empty change file and a message saying so', async () => {
    // Pretty-printed, search_str and published left out where they are the defaults.
    const file = JSON.parse(formatCatalogue(baseCatalogue())) as Record<string, Loose[]>;
    delete file['features']![1]!['search_str'];
    for (const image of file['images']!) if (image['published'] === true) delete image['published'];
    const result = await runCli(['diff', oldFile, writeFile('same.json', JSON.stringify(file, null, 2))]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, EMPTY);
    assert.match(result.stderr, /^No difference: .*old\.json and .*same\.json hold the same catalogue/);
  });

  test('--help names both files and -o', async () => {
    const result = await runCli(['diff', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^Usage: heritage-api diff \[options\] <old> <new>\n/);
    assert.match(result.stdout, /-o, --out <file>/);
  });

  test('the old file from standard input', async () => {
    const { next, expected } = editEveryList();
    const result = await runCli(['diff', '-', writeFile('edited-stdin.json', formatCatalogue(next))], { input: fs.readFileSync(oldFile) });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), expected);
  });
});

describe('diff refuses bad files, writing nothing', () => {
  function broken(): string {
    const catalogue = buildTestCatalogue() as unknown as Record<string, Loose[]>;
    catalogue['images']![0]!['author'] = 999;
    catalogue['media']![0]!['colour'] = 'red';
    return JSON.stringify(catalogue);
  }

  test('a bad new file: exit 1, its problems by JSON path, no output file', async () => {
    const out = path.join(dir, 'refused.json');
    const result = await runCli(['diff', oldFile, writeFile('bad-new.json', broken()), '-o', out]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /bad-new\.json is not a valid catalogue \(2 problems\):\n {2}images\[0\]\.author: there is no author with id 999 in authors\n {2}media\[0\]/);
    assert.ok(!fs.existsSync(out));
  });

  test('a bad old file: exit 1, and the problems of both files listed', async () => {
    const result = await runCli(['diff', writeFile('bad-old.json', broken()), writeFile('not-json.json', '{"format": ')]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /bad-old\.json is not a valid catalogue \(2 problems\)/);
    assert.match(result.stderr, /not-json\.json is not a valid catalogue \(1 problem\):\n {2}\$: the file is not valid JSON/);
  });

  test('a record past a limit given as a flag is refused', async () => {
    const result = await runCli(['diff', oldFile, oldFile, '--max-string-chars', '20']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /is not a valid catalogue/);
    assert.match(result.stderr, /--max-string-chars/);
  });

  test('a missing file: one sentence', async () => {
    const result = await runCli(['diff', oldFile, path.join(dir, 'missing.json')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^heritage-api: cannot read .*missing\.json: no such file\n$/);
  });

  test('both files from standard input: one sentence', async () => {
    const result = await runCli(['diff', '-', '-'], { input: '' });
    assert.equal(result.code, 1);
    assert.equal(result.stderr, 'heritage-api: only one of the two files can be standard input (-)\n');
  });
});
