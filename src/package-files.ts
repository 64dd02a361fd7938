// The project's own files beside the code: package.json and the map page's build (dist/web/).
// Found by walking up from this module, not by a fixed number of `..`: the code runs from
// src/ (tsx), from dist/ (tsc), and bundled into the chunks of the tests' copy in
// dist-test/, each at another depth.
import fs from 'node:fs';
import path from 'node:path';

const PACKAGE_NAME = 'heritage-api';

interface Manifest {
  name?: string;
  version: string;
}

/** The nearest folder above `from` whose package.json is ours, and that manifest, read once. */
function findPackage(from: string): { root: string; manifest: Manifest } {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const manifest = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : null;
    if (manifest?.name === PACKAGE_NAME) return { root: dir, manifest };
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}

const found = findPackage(import.meta.dirname);

export const PACKAGE_ROOT = found.root;

export const PACKAGE_VERSION = found.manifest.version;

/** dist/web/: the map explorer built by scripts/build-web.mjs. */
export const WEB_BUILD_DIR = path.join(PACKAGE_ROOT, 'dist', 'web') + path.sep;
