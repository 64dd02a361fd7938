// Bundles the command line (src/cli/bin.ts, the code it loads and its packages) into
// dist/bin/: heritage-api.js and the chunks its commands load, run by bin/heritage-api.
// Loaded module by module (tsc's dist/), `serve` spent 0.55 s of CPU before it listened,
// most of it finding, reading and compiling a thousand files one at a time; bundled, 0.26 s
// (the same for every command and every `--workers` process). `npm run build` runs it after
// tsc, whose type check it relies on (esbuild only strips types); the tests rebuild it when
// src/ is newer (test/support/cli-entry.ts), and bundle themselves the same way.
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

export async function buildCli() {
  fs.rmSync(CLI_OUT, { recursive: true, force: true });
  await esbuild.build({ ...NODE_BUNDLE, entryPoints: { 'heritage-api': 'src/cli/bin.ts' }, outdir: CLI_OUT, external: LEFT_OUT });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildCli();
  process.stderr.write(`Bundled the command line into ${path.relative(ROOT, CLI_BUNDLE)}.\n`);
}
