// The structural check: the TypeBox schemas compiled by Ajv, every error collected, each
// turned into a problem. One problem per path: Ajv may refuse one value on several counts
// (`type` and `const`, `maxItems` and `additionalItems`), and one mistake should read as one.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { FORMAT_PROBLEMS } from './formats.js';
import { isClosedRing } from './geometry.js';
import { problemFromAjvError } from './messages.js';
import { formatPath, type LocatedProblem } from './paths.js';
import { CatalogueFileSchema, type CatalogueFile } from './schema.js';

function createAjv(): Ajv {
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

// Compiled on first use, not at import: compiling takes tens of milliseconds that a
// process which never validates (`serve`) should not pay.
let compiled: ValidateFunction<CatalogueFile> | undefined;

function catalogueValidator(): ValidateFunction<CatalogueFile> {
  compiled ??= createAjv().compile<CatalogueFile>(CatalogueFileSchema);
  return compiled;
}

/** Every structural problem of `value`, one per path, in the order Ajv found them. */
export function structuralProblems(value: unknown): LocatedProblem[] {
  const validate = catalogueValidator();
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  validate.errors = null; // its errors hold parts of the file: let them go with the result
  const seen = new Set<string>();
  const problems: LocatedProblem[] = [];
  for (const error of errors) {
    const problem = problemFromAjvError(error);
    const path = formatPath(problem.segments);
    if (seen.has(path)) continue;
    seen.add(path);
    problems.push(problem);
  }
  return problems;
}
