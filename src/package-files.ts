// The project's own files beside the code: package.json and the map page's build (dist/web/).
// Found by walking up from this module, not by a fixed number of `..`: the code runs from
// src/ (tsx), from the command line's bundle in dist/cli/ and its chunks, and from the
// tests' compiled copy in dist-test/, each at another depth.
import fs from 'node:fs';
import path from 'node:path';

const PACKAGE_NAME = 'heritage-api';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}

export const PACKAGE_ROOT = packageRoot(import.meta.dirname);

export const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** dist/web/: the map explorer built by scripts/build-web.mjs. */
export const WEB_BUILD_DIR = path.join(PACKAGE_ROOT, 'dist', 'web') + path.sep;
