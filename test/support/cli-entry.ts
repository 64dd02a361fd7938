// The command line the tests spawn: built (dist/cli/bin.js, scripts/build-cli.mjs), as users
// run it, and built first when any source is newer. Loading every module through tsx in each
// child process cost about a second of CPU a spawn, more than most of those tests' own work.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';

export const CLI_ENTRY = path.join(ROOT, 'dist/cli/bin.js');

const BUILD_SCRIPT = path.join(ROOT, 'scripts/build-cli.mjs');

/** Builds dist/cli/ when src/ (or the build script) has changed since; the same check every file may run. */
export function ensureCliBuilt(): void {
  if (!cliBuildIsStale()) return;
  const built = spawnSync(process.execPath, [BUILD_SCRIPT], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('scripts/build-cli.mjs failed, so the command line cannot be tested');
}

function cliBuildIsStale(): boolean {
  const built = modifiedAt(CLI_ENTRY);
  return built === null || Math.max(newestIn(path.join(ROOT, 'src')), modifiedAt(BUILD_SCRIPT) ?? 0) > built;
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
