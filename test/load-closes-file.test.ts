// A catalogue file import opens is closed whatever happens, also when the store refuses before
// reading it (a replica, a database it cannot open). Left to the garbage collector, node
// closed it with a warning on standard error, after import's one-sentence refusal: a run of
// postgres/replica.test once found "Closing file descriptor 17 on garbage collection" there.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { openCatalogueFile } from '../src/cli/catalogue-stream.js';
import { loadCatalogue } from '../src/cli/load.js';
import { loadConfig } from '../src/config.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { temporaryDir } from './support/temporary.js';

const dir = temporaryDir();
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The files this process holds open, by what they are (Linux: /proc/self/fd). */
function openFiles(): string[] {
  return fs.readdirSync('/proc/self/fd').map((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '';
    }
  });
}

test('a store that cannot be opened: the refusal is thrown, and the catalogue file is no longer open', async () => {
  const file = path.join(dir, 'catalogue.json');
  fs.writeFileSync(file, formatCatalogue(buildTestCatalogue()));
  // A folder where the database file should be: SQLite cannot open it.
  const config = loadConfig({ database: dir }, {});
  const source = await openCatalogueFile(file);
  assert.ok(openFiles().includes(file), 'the file is open before the load');
  await assert.rejects(loadCatalogue(config, source));
  assert.equal(openFiles().includes(file), false, 'the file was left open');
});
