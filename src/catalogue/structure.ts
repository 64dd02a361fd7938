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
import { CatalogueFileSchema, type DefinitionName } from './schema.js';

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

const ROOT = 'catalogue';
/** Each list's record schema among the root's `$defs`. */
export const RECORD_DEFINITIONS: Record<ListName, DefinitionName> = {
  authors: 'Author', categories: 'Category', sites: 'Site', features: 'Feature', images: 'Image', documents: 'Document', media: 'Media',
};

/**
 * The file's schemas, compiled when made (tens of milliseconds, which a process that never
 * validates, such as `serve`, does not pay) and kept by whoever checks files with them.
 */
export class StructureCheck {
  private readonly ajv = createAjv().addSchema(CatalogueFileSchema, ROOT);
  private readonly validators = new Map<ListName | typeof ROOT, ValidateFunction>();

  /**
   * Every structural problem of `value` (the file's top level, or a record of `list`, its
   * paths then relative to the record), one per path, in the order Ajv found them.
   */
  problems(value: unknown, list?: ListName): LocatedProblem[] {
    const validate = this.validator(list);
    if (validate(value)) return [];
    const errors = validate.errors ?? [];
    validate.errors = null; // its errors hold parts of the file: let them go with the result
    return onePerPath(errors.map(problemFromAjvError));
  }

  /**
   * The whole file's schema, or one list's record schema (records are checked one by one).
   * Kept once found: Ajv resolves the reference on every getSchema, a fifth of a large
   * file's structural check.
   */
  private validator(list?: ListName): ValidateFunction {
    const key = list ?? ROOT;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.getSchema(list === undefined ? ROOT : `${ROOT}#/$defs/${RECORD_DEFINITIONS[list]}`);
      if (validate === undefined) throw new Error(`no schema for ${key}`);
      this.validators.set(key, validate);
    }
    return validate;
  }
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
