// Compiled answer checkers kept between test processes. Compiling the OpenAPI document's body
// schemas cost each of some 80 test processes about 0.2 s of CPU; the first process to need
// them writes them as Ajv's standalone code (a CommonJS module) under a digest of the
// document, in node_modules/.cache/, and every later one loads that instead. A changed
// document, options or Ajv has another digest, so a stale file is never read.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { KEPT_DIR, keepFile } from './kept-files.js';

type Json = Record<string, any>;

const requireHere = createRequire(import.meta.url);

/**
 * A validator for each schema (by its key), compiled by `ajv` (which holds the document's
 * components) or loaded as compiled by an earlier process. `root` turns a body schema into
 * the schema Ajv compiles (a $ref into the document).
 */
export function keptValidators(
  ajv: Ajv2020,
  document: Json,
  schemas: Map<string, Json>,
  root: (schema: Json) => Json,
  dir = KEPT_DIR,
): Map<string, ValidateFunction> {
  const keys = [...schemas.keys()].sort();
  const file = path.join(dir, `answers-${digest(document, keys)}.cjs`);
  const exportName = (i: number) => `v${i}`;
  if (fs.existsSync(file)) {
    const kept = requireHere(file) as Record<string, ValidateFunction>;
    return new Map(keys.map((key, i) => [key, kept[exportName(i)]!]));
  }
  const ids = keys.map((key, i) => {
    const id = `heritage-api-answer-${i}`;
    ajv.addSchema(root(schemas.get(key)!), id);
    return id;
  });
  const compiled = new Map(keys.map((key, i) => [key, ajv.getSchema(ids[i]!)!]));
  const code = standalone.default(ajv, Object.fromEntries(ids.map((id, i) => [exportName(i), id])));
  keepFile(file, (partial) => fs.writeFileSync(partial, code));
  return compiled;
}

function digest(document: Json, keys: string[]): string {
  const ajvVersion = (requireHere('ajv/package.json') as { version: string }).version;
  return crypto.createHash('sha256').update(JSON.stringify([ajvVersion, keys, document])).digest('hex').slice(0, 16);
}
