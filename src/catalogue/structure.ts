// The structural check: the TypeBox schemas compiled by Ajv (ajv.ts), every error collected,
// each turned into a problem, one per path.
import type { ValidateFunction } from 'ajv';
import { createAjv, onePerPath } from './ajv.js';
import { problemFromAjvError } from './messages.js';
import type { LocatedProblem } from './paths.js';
import type { ListName } from './lists.js';
import { CatalogueFileSchema, type DefinitionName } from './schema.js';

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
