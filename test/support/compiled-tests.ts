// npm test runs the test files as JavaScript, built here from test/ into dist-test/
// (git-ignored) by esbuild: each test file bundled with our code and the packages it runs
// on, in chunks shared between the files.
// Under tsx every module a test process loads is resolved and loaded through loader hooks
// on another thread, about a second of CPU more per test file than compiled; and a server's
// thousand modules loaded one by one cost another third of a second a file. Everything the
// tests read beside the code (package.json, README.md, docs/, the fixtures, dist/, scripts/) is a
// link to the real one, so paths found from a module find the same files. Run by
// before-run.ts, each time whole (about a second).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from './root.js';

export const COMPILED_DIR = path.join(ROOT, 'dist-test');

/** The links in dist-test/ (relative to it) and what they point to. */
const LINKS: [string, string][] = [
  ['package.json', '../package.json'],
  ['README.md', '../README.md'],
  ['docs', '../docs'],
  ['dist', '../dist'],
  ['scripts', '../scripts'],
  ['test/fixtures', '../../test/fixtures'],
];

/**
 * Packages left to node's own loading: better-sqlite3 finds its compiled addon beside its
 * own files; pino-pretty is loaded only for a terminal; swagger-ui-dist is a folder of files
 * served as they are; pg-native is pg's optional driver, not installed; and the test tools
 * (Playwright, the OpenAPI checkers, …), the dev dependencies.
 */
const LEFT_OUT = ['better-sqlite3', 'pino-pretty', 'swagger-ui-dist', 'pg-native'];

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
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // CommonJS packages inside an ES module bundle still call require() for node's own modules.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: ROOT,
    entryPoints,
    outdir: COMPILED_DIR,
    outbase: '.',
    // Some 130 files sharing most of their code: chunks, each compiled once per process.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    external: [...LEFT_OUT, ...devDependencies()],
    plugins: [scriptsInPlace],
  });
  for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(COMPILED_DIR, link));
}
