// The command line the tests spawn: the bundle users run (dist/bin/heritage-api.js, see
// scripts/build-cli.mjs), built first when any source is newer. Loading every module
// through tsx in each child process cost about a second of CPU a spawn, more than most of
// those tests' own work.
import fs from 'node:fs';
import path from 'node:path';
import { buildCommandLine, CLI_BUNDLE } from '../../scripts/build-cli.mjs';
import { ROOT } from './root.js';

export const CLI_ENTRY = CLI_BUNDLE;

const BUNDLE_SCRIPT = path.join(ROOT, 'scripts/build-cli.mjs');

/**
 * Builds dist/ as `npm run build` does (tsc, whose modules some tests load, then the bundle)
 * when src/ or the bundle's script has changed since; the same check every file may run.
 */
export function ensureCliBuilt(): void {
  if (!cliBuildIsStale()) return;
  buildCommandLine();
}

function cliBuildIsStale(): boolean {
  const built = modifiedAt(CLI_ENTRY);
  return built === null || Math.max(newestIn(path.join(ROOT, 'src')), fs.statSync(BUNDLE_SCRIPT).mtimeMs) > built;
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
