// The command line the tests spawn: compiled (dist/cli/bin.js), as users run it, and built
// first when any source is newer. Loading every module through tsx in each child process
// cost about a second of CPU a spawn, more than most of those tests' own work.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';

export const CLI_ENTRY = path.join(ROOT, 'dist/cli/bin.js');

/** Builds dist/ with tsc when src/ has changed since; the same check every file may run. */
export function ensureCliBuilt(): void {
  if (!cliBuildIsStale()) return;
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const built = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('tsc -p tsconfig.build.json failed, so the command line cannot be tested');
}

function cliBuildIsStale(): boolean {
  const built = modifiedAt(CLI_ENTRY);
  return built === null || newestIn(path.join(ROOT, 'src')) > built;
}

function modifiedAt(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
