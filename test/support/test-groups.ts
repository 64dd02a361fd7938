// Many small test files run several to a process. A file's own work is often less than
// starting a process for it: loading the bundle and its packages, and the JIT's warm-up
// that every process pays again (fourteen HTTP files took 14.3 s of CPU one to a process,
// 6.0 s in one). A group is an entry file that imports its files, each inside a suite named
// by the file: the file's tests are that suite's, and its top-level before and after hooks
// run around them alone (node's test runner scopes hooks registered during an async suite's
// function to it), so one file's servers are closed before the next file's tests start.
// Files are grouped by folder, and those that set the store to PostgreSQL for the process
// (on-postgres.ts) only with each other: a file's store stays what it was in a process of
// its own. run-tests.ts leaves out the files it runs alone or first.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Files per process: a group should take seconds, not the whole pass. */
export const GROUP_SIZE = 8;

/** `files` in runs of at most `size`, as evenly as that allows, in their order. */
export function chunk<T>(files: readonly T[], size: number): T[][] {
  const count = Math.ceil(files.length / size);
  const chunks: T[][] = [];
  for (let i = 0; i < count; i++) chunks.push(files.slice(Math.round((i * files.length) / count), Math.round(((i + 1) * files.length) / count)));
  return chunks;
}

/** The entry's text: each file imported inside a suite named by its path below `testDir`. */
export function entryText(files: readonly string[], testDir: string): string {
  const suites = files.map((file) => {
    const name = path.relative(testDir, file).replace(/\.(ts|js)$/, '');
    return `describe(${JSON.stringify(name)}, async () => { await import(${JSON.stringify(pathToFileURL(file).href)}); });`;
  });
  return ["import { describe } from 'node:test';", ...suites, ''].join('\n');
}

/** Which files may share a process: the folder, and whether the file sets the store to PostgreSQL. */
export function groupKey(file: string, testDir: string): string {
  const folder = path.dirname(path.relative(testDir, file)).replace(/^\.$/, 'top');
  return /\bonPostgres\(/.test(fs.readFileSync(file, 'utf8')) ? `${folder}-on-postgres` : folder;
}

/** Writes into `dir` an entry for each group of `files`, named by its key and number; their paths. */
export function writeGroups(files: readonly string[], dir: string, testDir: string): string[] {
  const byKey = new Map<string, string[]>();
  for (const file of files) {
    const key = groupKey(file, testDir);
    byKey.set(key, [...(byKey.get(key) ?? []), file]);
  }
  return [...byKey].flatMap(([key, keyed]) => chunk(keyed, GROUP_SIZE).map((group, i) => {
    const entry = path.join(dir, `${key}-${i + 1}.test.mjs`);
    fs.writeFileSync(entry, entryText(group, testDir));
    return entry;
  }));
}
