// Every response body is checked against the JSON Schemas of the spec's shapes.
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';

// Not checked against the meta-schema (its compilation cost every process 20–50 ms): these
// shapes are the OpenAPI document's components, which http/openapi.test.ts validates whole.
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
const compiled = new Map<TSchema, ValidateFunction>();

export function assertMatches(schema: TSchema, body: unknown): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  assert.ok(validate(body), `${schema.title ?? 'schema'}: ${ajv.errorsText(validate.errors)}`);
}
