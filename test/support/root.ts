// The project's folder, from the compiled copy of the tests (compiled-tests.ts) too: the
// package root found there is dist-test/, whose package.json is a link to the real one, so
// the real path of that file names the project.
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/package-files.js';

export const ROOT = path.dirname(fs.realpathSync(path.join(PACKAGE_ROOT, 'package.json')));
