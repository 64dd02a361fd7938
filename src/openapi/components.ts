// The wire shapes of render/schemas.ts as OpenAPI 3.1 components: every exported schema with
// a title becomes `#/components/schemas/<title>`, and wherever one shape is nested in
// another (an Author in an Image) the copy refers to it with `$ref`. Nothing is written
// twice: the TypeBox objects the tests check bodies against are the source.
import type { TSchema } from '@sinclair/typebox';
import * as wireShapes from '../render/schemas.js';

export type JsonObject = Record<string, unknown>;

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A copy of a JSON object's members (none when it is not an object). */
export const membersOf = (value: unknown): JsonObject => (typeof value === 'object' && value !== null ? { ...value } : {});

function titledSchemas(): Map<object, string> {
  const names = new Map<object, string>();
  for (const value of Object.values(wireShapes)) {
    const title: unknown = typeof value === 'object' && value !== null && 'title' in value ? value.title : undefined;
    if (typeof value === 'object' && typeof title === 'string') names.set(value, title);
  }
  return names;
}

const NAMES = titledSchemas();

/** The component name of a wire-shape schema (its title). */
export function componentName(schema: TSchema): string {
  const name = NAMES.get(schema);
  if (name === undefined) throw new Error(`schema without a title: ${JSON.stringify(schema).slice(0, 80)}`);
  return name;
}

/** A shape named by the endpoint table (render/shape-names.ts), checked to be some schema's title. */
export function knownComponent(name: string): string {
  if (![...NAMES.values()].includes(name)) throw new Error(`no wire shape is titled ${name}`);
  return name;
}

/** A deep copy in JSON Schema 2020-12 (OpenAPI 3.1's dialect), named shapes replaced by $ref. */
function toOpenApi(value: unknown, root: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => toOpenApi(item, root));
  if (value === null || typeof value !== 'object') return value;
  const name = NAMES.get(value);
  if (name !== undefined && value !== root) return schemaRef(name);
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    // TypeBox writes tuples in draft-07 form; 2020-12 says prefixItems, and items: false for "no more".
    if (key === 'items' && Array.isArray(item)) copy.prefixItems = toOpenApi(item, root);
    else if (key === 'additionalItems') copy.items = item;
    else copy[key] = toOpenApi(item, root);
  }
  return copy;
}

export function componentSchemas(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const [schema, name] of NAMES) schemas[name] = toOpenApi(schema, schema);
  return schemas;
}
