// The project's folder. From the compiled copy of the tests (compiled-tests.ts) too: its
// package.json is a link to the real one, so the real path of that file names the project.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.dirname(fs.realpathSync(path.resolve(import.meta.dirname, '../../package.json')));
