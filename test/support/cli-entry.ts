// The command line the tests spawn: the bundle users run (dist/bin/heritage-api.js, see
// scripts/build-cli.mjs), built first when any source is newer. Loading every module
// through tsx in each child process cost about a second of CPU a spawn, more than most of
// those tests' own work.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI_BUNDLE } from '../../scripts/build-cli.mjs';
import { ROOT } from './root.js';

export const CLI_ENTRY = CLI_BUNDLE;

/**
 * Builds dist/ as `npm run build` does (tsc, whose modules some tests load, then the bundle)
 * when src/ has changed since; the same check every file may run.
 */
export function ensureCliBuilt(): void {
  if (!cliBuildIsStale()) return;
  const steps = [[path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], [path.join(ROOT, 'scripts/build-cli.mjs')]];
  for (const step of steps) {
    const built = spawnSync(process.execPath, step, { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`${path.basename(step[0]!)} failed, so the command line cannot be tested`);
  }
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
