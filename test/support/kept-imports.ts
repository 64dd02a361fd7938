// Imports kept between test processes. Many suites import the same catalogue into a fresh
// SQLite file before they start (a test catalogue of over a thousand footprints costs a
// second or more: its crowded tiles are made then). The first process writes a copy of the
// file its import made, under a digest of the catalogue and of the code that made it (every
// file of src/ and the lockfile), in node_modules/.cache/; a later import of that catalogue
// into a fresh file is that copy. Import itself stays tested where it is the subject: the
// suites that run the `import` command (cli, import-refusals, large-catalogue, the
// replica's), every import into PostgreSQL, and this file's own first imports.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalogue } from '../../src/catalogue/format.js';
import { KEPT_DIR, keepFile } from './kept-files.js';
import { ROOT } from './root.js';

const IMPORTS_DIR = path.join(KEPT_DIR, 'imports');

let codeDigest: string | undefined;

/** Every file of src/ and the lockfile: a change to any of them makes other files. */
function digestOfCode(): string {
  const hash = crypto.createHash('sha256');
  const files = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((f) => path.join('src', f)).sort();
  for (const file of [...files, 'package-lock.json']) {
    const full = path.join(ROOT, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The SQLite file `file` (not yet there) as `importFresh` makes it from `catalogue`: copied
 * from the kept one when there is one, else imported and kept. `dir` for the tests of this.
 */
export async function keptImport(file: string, catalogue: Catalogue, importFresh: () => Promise<void>, dir = IMPORTS_DIR): Promise<void> {
  codeDigest ??= digestOfCode();
  const catalogueDigest = crypto.createHash('sha256').update(JSON.stringify(catalogue)).digest('hex').slice(0, 16);
  const kept = path.join(dir, `${codeDigest}-${catalogueDigest}.db`);
  if (fs.existsSync(kept)) {
    fs.copyFileSync(kept, file);
    return;
  }
  await importFresh();
  keep(file, kept);
}

/** The copy kept; those made by older code removed. */
function keep(file: string, kept: string): void {
  const dir = path.dirname(kept);
  const current = `${codeDigest}-`;
  if (fs.existsSync(dir)) for (const old of fs.readdirSync(dir)) if (!old.startsWith(current)) fs.rmSync(path.join(dir, old), { force: true });
  keepFile(kept, (partial) => fs.copyFileSync(file, partial));
}
