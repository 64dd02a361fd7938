import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function temporaryDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-api-test-'));
}
