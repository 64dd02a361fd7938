// What one test process works out and another can reuse, kept in node_modules/.cache/ (safe
// to delete): the answer checkers (kept-validators.ts) and imported catalogues (kept-imports.ts).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';

export const KEPT_DIR = path.join(ROOT, 'node_modules', '.cache', 'heritage-api-tests');

/** `file` written by `write` beside it, then renamed: processes running side by side never read half a file. */
export function keepFile(file: string, write: (partial: string) => void): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  write(partial);
  fs.renameSync(partial, file);
}
