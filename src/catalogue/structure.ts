// The structural check: the TypeBox schemas compiled by Ajv, every error collected, each
// turned into a problem. One problem per path: Ajv may refuse one value on several counts
// (`type` and `const`, `maxItems` and `additionalItems`), and one mistake should read as one.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { FORMAT_PROBLEMS } from './formats.js';
import { isClosedRing } from './geometry.js';
import { problemFromAjvError } from './messages.js';
import { formatPath, type LocatedProblem } from './paths.js';
import type { ListName } from './lists.js';
import { CatalogueFileSchema } from './schema.js';

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
let compiled: Ajv | undefined;

const ROOT = 'catalogue';
const RECORD_DEFINITIONS: Record<ListName, string> = {
  authors: 'Author', categories: 'Category', sites: 'Site', features: 'Feature', images: 'Image', documents: 'Document', media: 'Media',
};

/** The whole file's schema, or one list's record schema (records are checked one by one). */
function validator(list?: ListName): ValidateFunction {
  compiled ??= createAjv().addSchema(CatalogueFileSchema, ROOT);
  const validate = compiled.getSchema(list === undefined ? ROOT : `${ROOT}#/$defs/${RECORD_DEFINITIONS[list]}`);
  if (validate === undefined) throw new Error(`no schema for ${list ?? ROOT}`);
  return validate;
}

/**
 * Every structural problem of `value` (the file's top level, or a record of `list`, its
 * paths then relative to the record), one per path, in the order Ajv found them.
 */
export function structuralProblems(value: unknown, list?: ListName): LocatedProblem[] {
  const validate = validator(list);
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
