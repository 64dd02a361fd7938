// npm test runs the test files as JavaScript, compiled here from test/ and src/ into
// dist-test/ (git-ignored), one file for one file, by esbuild, as tsx would compile them.
// Under tsx every module a test process loads is resolved and loaded through loader hooks
// on another thread: about a second of CPU more per test file (of some 70) than the same
// files compiled. Everything the tests read beside the code (package.json, README.md, the
// fixtures, dist/, scripts/) is a link to the real one, so paths relative to a module
// find the same files. Run by before-run.ts, each time whole (under half a second).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './root.js';

export const COMPILED_DIR = path.join(ROOT, 'dist-test');

/** The links in dist-test/ (relative to it) and what they point to. */
const LINKS: [string, string][] = [
  ['package.json', '../package.json'],
  ['README.md', '../README.md'],
  ['dist', '../dist'],
  ['scripts', '../scripts'],
  ['test/fixtures', '../../test/fixtures'],
];

export async function compileTests(): Promise<void> {
  fs.rmSync(COMPILED_DIR, { recursive: true, force: true });
  const entryPoints = ['src', 'test'].flatMap((dir) =>
    fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f)),
  );
  // The map page's code runs in the browser; the tests share one module of it.
  entryPoints.push('web/events.ts');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: COMPILED_DIR,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(COMPILED_DIR, link));
}
