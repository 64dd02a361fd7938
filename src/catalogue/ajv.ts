// Ajv as every file format made of catalogue records compiles it (the catalogue file's
// schema in structure.ts, the change file's in changes/validate.ts), and one problem per path:
// Ajv may refuse one value on several counts (`type` and `const`, `maxItems` and
// `additionalItems`), and one mistake should read as one. Apart from the schemas, so that a
// change file is checked without loading TypeBox (changes/compiled-schema.ts).
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { FORMAT_PROBLEMS } from './formats.js';
import { isClosedRing } from './geometry.js';
import { formatPath, type LocatedProblem } from './paths.js';

/** Ajv with the format's own formats and keywords: every file format made of catalogue records compiles with it. */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, discriminator: true, allowUnionTypes: true, strict: true, inlineRefs: false });
  // CommonJS default export seen from an ES module: the plugin is its `default`.
  addFormats.default(ajv, ['date']);
  for (const [name, problem] of Object.entries(FORMAT_PROBLEMS)) {
    ajv.addFormat(name, { type: 'string', validate: (value) => problem(value) === undefined });
  }
  ajv.addKeyword({ keyword: 'closedRing', type: 'array', schemaType: 'boolean', validate: (_: boolean, ring: unknown[]) => isClosedRing(ring) });
  ajv.addKeyword({ keyword: 'messages', schemaType: 'object' });
  return ajv;
}

export function onePerPath(problems: readonly LocatedProblem[]): LocatedProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const path = formatPath(problem.segments);
    if (seen.has(path)) return false;
    seen.add(path);
    return true;
  });
}
