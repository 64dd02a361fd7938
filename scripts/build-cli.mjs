// Builds the command line (src/cli/bin.ts) into dist/cli/: one bundle of our code and the
// packages it runs on, and a chunk for each command, which bin.ts loads when it is asked for.
// A process loading some 1,000 modules one by one spent about 40% of `serve`'s start-up on
// it (0.40 s to listening); bundled, 0.24 s. Not minified, so a stack trace in a log names a
// readable line of dist/cli/ (each module's code follows a `// src/...` comment there).
// `npm run build` runs it; the tests run it when src/ changed (test/support/cli-entry.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI_OUT = path.join(ROOT, 'dist', 'cli');

/**
 * Packages left to node's own loading: better-sqlite3 finds its compiled addon beside its
 * own files; pino-pretty is loaded only for a terminal; swagger-ui-dist is a folder of files
 * served as they are; pg-native is pg's optional driver, not installed.
 */
const LEFT_OUT = ['better-sqlite3', 'pino-pretty', 'swagger-ui-dist', 'pg-native'];

/** What our code bundled for node needs, the command line's and the tests' compiled copy alike. */
export const NODE_BUNDLE = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: LEFT_OUT,
  // CommonJS packages inside an ES module bundle still call require() for node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
};

export async function buildCli() {
  // Everything in dist/ but the map page's build: also what tsc once wrote there, module by module.
  for (const entry of fs.existsSync(path.join(ROOT, 'dist')) ? fs.readdirSync(path.join(ROOT, 'dist')) : []) {
    if (entry !== 'web') fs.rmSync(path.join(ROOT, 'dist', entry), { recursive: true, force: true });
  }
  await esbuild.build({ ...NODE_BUNDLE, absWorkingDir: ROOT, entryPoints: ['src/cli/bin.ts'], outdir: CLI_OUT, chunkNames: 'chunks/[name]-[hash]' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildCli();
