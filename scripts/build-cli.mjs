// Bundles the command line (src/cli/bin.ts, the code it loads and most of its packages) into
// dist/bin/: heritage-api.js and the chunks its commands load, run by bin/heritage-api.
// Loaded module by module (tsc's dist/), `serve` spent 0.55 s of CPU before it listened,
// most of it finding, reading and compiling a thousand files one at a time; bundled, 0.36 s
// (the same for every command and every `--workers` process). Fastify with its plugins,
// pino and prom-client are left to node: bundled too, serve started in 0.26 s, but its
// every cached answer cost 157,000 instructions against 106,000 (valgrind, as
// bench/instructions.ts counts them); left out, 104,000. `npm run build` runs this after
// tsc, whose type check it relies on (esbuild only strips types); the tests rebuild it when
// src/ is newer (test/support/cli-entry.ts), and bundle themselves with the same options.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI_OUT = path.join(ROOT, 'dist', 'bin');
export const CLI_BUNDLE = path.join(CLI_OUT, 'heritage-api.js');

/**
 * Packages left to node's own loading: better-sqlite3 finds its compiled addon beside its
 * own files; pino-pretty is loaded only for a terminal; swagger-ui-dist is a folder of files
 * served as they are; pg-native is pg's optional driver, not installed.
 */
export const LEFT_OUT = ['better-sqlite3', 'pino-pretty', 'swagger-ui-dist', 'pg-native'];

/** How src/ is bundled for node, here and for the tests: ES modules in shared chunks, CommonJS packages given a require(). */
export const NODE_BUNDLE = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS packages inside an ES module bundle still call require() for node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  sourcemap: 'linked',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  absWorkingDir: ROOT,
};

/** Packages the server runs slower bundled (above): loaded by node from node_modules. */
export const SERVED_AS_PUBLISHED = ['fastify', '@fastify/*', 'pino', 'prom-client'];

export async function buildCli() {
  fs.rmSync(CLI_OUT, { recursive: true, force: true });
  await esbuild.build({ ...NODE_BUNDLE, entryPoints: { 'heritage-api': 'src/cli/bin.ts' }, outdir: CLI_OUT, external: [...LEFT_OUT, ...SERVED_AS_PUBLISHED] });
}

/** What `npm run build` does for the command line, as node arguments: tsc's type check and dist/, then this bundle. */
const CLI_BUILD_STEPS = [
  [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')],
  [fileURLToPath(import.meta.url)],
];

/** Those steps, each in its own node, output shown (the tests and the bench build what bin/heritage-api runs). */
export function buildCommandLine() {
  for (const step of CLI_BUILD_STEPS) {
    const built = spawnSync(process.execPath, step, { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`${path.basename(step[0])} failed, so the command line could not be built`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildCli();
  process.stderr.write(`Bundled the command line into ${path.relative(ROOT, CLI_BUNDLE)}.\n`);
}
