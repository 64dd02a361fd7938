// npm test runs the test files as JavaScript, built here from test/ into dist-test/
// (git-ignored) by esbuild: each test file bundled with our code and the packages it runs
// on, in chunks shared between the files.
// Under tsx every module a test process loads is resolved and loaded through loader hooks
// on another thread, about a second of CPU more per test file than compiled; and a server's
// thousand modules loaded one by one cost another third of a second a file. Everything the
// tests read beside the code (package.json, README.md, the fixtures, dist/, scripts/) is a
// link to the real one, so paths found from a module find the same files. Run by
// before-run.ts, each time whole (about a second).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { LEFT_OUT, NODE_BUNDLE } from '../../scripts/build-cli.mjs';
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

function devDependencies(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  return Object.keys(manifest.devDependencies);
}

/** The build scripts the tests call find the project from their own place: loaded from there. */
const scriptsInPlace: esbuild.Plugin = {
  name: 'scripts-in-place',
  setup(build) {
    build.onResolve({ filter: /\/scripts\/[\w-]+\.mjs$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path), external: true }));
  },
};

export async function compileTests(): Promise<void> {
  fs.rmSync(COMPILED_DIR, { recursive: true, force: true });
  const entryPoints = fs.readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join('test', f));
  await esbuild.build({
    ...NODE_BUNDLE,
    entryPoints,
    outdir: COMPILED_DIR,
    outbase: '.',
    // The packages the command line leaves to node, and the test tools (Playwright, the OpenAPI checkers, …), the dev dependencies.
    external: [...LEFT_OUT, ...devDependencies()],
    plugins: [scriptsInPlace],
  });
  for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(COMPILED_DIR, link));
}
