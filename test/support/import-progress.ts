// What `import` tells the person running it, on a terminal (a pseudo-terminal made by
// util-linux's `script`) and through a pipe, on the tests' store.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatCatalogue } from '../../src/catalogue/dump.js';
import { buildTestCatalogue, FEATURE_COUNT } from './catalogue.js';
import { CLI_ENTRY, ensureCliBuilt } from './cli-entry.js';
import { runCli } from './cli.js';
import { createTestDatabase, type TestDatabase } from './stores.js';
import { temporaryDir } from './temporary.js';

const SCRIPT = '/usr/bin/script';

/** Runs the command under a pseudo-terminal and gives back everything it wrote there. */
function runOnTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  ensureCliBuilt();
  const command = [process.execPath, CLI_ENTRY, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(SCRIPT, ['-qefc', command, '/dev/null'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, COLUMNS: '200' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export function importProgressSuite(): void {
  let dir: string;
  let file: string;
  let db: TestDatabase;
  before(() => {
    dir = temporaryDir();
    file = path.join(dir, 'catalogue.json');
    fs.writeFileSync(file, formatCatalogue(buildTestCatalogue()));
    db = createTestDatabase();
  });
  after(async () => {
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('through a pipe: only the outcome, no progress line and no terminal codes', async () => {
    const result = await runCli(['import', file, ...db.args]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`^Imported ${FEATURE_COUNT} features, [^\\n]*\\.\\n$`));
  });

  test('on a terminal: each finishing step is named and counted, then the time it all took', { skip: !fs.existsSync(SCRIPT) && `${SCRIPT} is missing` }, async () => {
    const { code, output } = await runOnTerminal(['import', file, ...db.args]);
    assert.equal(code, 0, output);
    const shown = [...output.matchAll(/Finishing: step (\d+) of (\d+), ([^,]+), \d+\.\d s/g)];
    const total = Number(shown[0]?.[2]);
    // Counted from 1 to the total in order (a long step is redrawn as its clock moves).
    assert.deepEqual([...new Set(shown.map((m) => Number(m[1])))], Array.from({ length: total }, (_, i) => i + 1));
    assert.ok(shown.some((m) => m[3] === 'search text of features'), output);
    assert.ok(shown.some((m) => m[3] === 'commit'), output);
    assert.match(output, new RegExp(`\\r\\x1b\\[KFinishing: ${total} steps, \\d+\\.\\d s\\r?\\n`));
    assert.match(output, new RegExp(`Imported ${FEATURE_COUNT} features`));
  });
}
