// The file formats' JSON Schemas as published (docs/*.schema.json): the TypeBox schemas the
// validators compile, in JSON Schema 2020-12, without our own keywords (`messages`,
// `closedRing`) or OpenAPI's `discriminator`, which other validators do not know. What a
// schema cannot say (rings closed, ids unique, references, the stored catalogue) is checked
// by `validate` and `apply`, with the same paths.
import type { TSchema } from '@sinclair/typebox';
import { CATALOGUE_FORMAT } from '../catalogue/format.js';
import { isPlainObject } from '../catalogue/paths.js';
import { CatalogueFileSchema } from '../catalogue/schema.js';
import { CHANGES_FORMAT } from './format.js';
import { ChangeFileSchema } from './schema.js';

const OURS = new Set(['messages', 'closedRing', 'discriminator']);

/**
 * A schema's JSON without our keywords (TypeBox's own markers are symbols: JSON leaves them
 * out), tuples in 2020-12 form as openapi/components.ts writes them: prefixItems, and
 * items: false for "no more".
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (OURS.has(key)) continue;
    if (key === 'items' && Array.isArray(child)) copy['prefixItems'] = plain(child);
    else if (key === 'additionalItems') copy['items'] = child;
    else copy[key] = plain(child);
  }
  return copy;
}

function published(schema: TSchema, format: string, title: string, description: string): object {
  const copy = plain(schema);
  if (!isPlainObject(copy)) throw new TypeError(`the ${format} schema is not an object`);
  const { $defs, ...root } = copy;
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title: `${title} (${format})`, description, ...root, $defs };
}

export const PUBLISHED_SCHEMAS = {
  'heritage-catalogue-1.schema.json': () => published(CatalogueFileSchema, CATALOGUE_FORMAT, 'A heritage-api catalogue file',
    'Every record of the catalogue. Ids unique per list, usernames unique, references naming records of the file, closed rings: checked by `heritage-api validate`.'),
  'heritage-changes-1.schema.json': () => published(ChangeFileSchema, CHANGES_FORMAT, 'A heritage-api change file',
    'Records to put (add, or replace by id) and ids to remove, per list of the catalogue. Ids not repeated, references naming records stored or put, no removed record still used, closed rings: checked by `heritage-api apply` (and `--dry-run`).'),
} as const;

/** The published file's text: two-space JSON and a final newline. */
export function publishedSchemaText(name: keyof typeof PUBLISHED_SCHEMAS): string {
  return `${JSON.stringify(PUBLISHED_SCHEMAS[name](), null, 2)}\n`;
}

/**
 * changes/compiled-schema.ts, written from the TypeBox schema (test/unit/published-schemas.test.ts,
 * UPDATE_SCHEMAS=1): the change file's schema whole, our keywords kept, as ChangeValidator
 * compiles it. TypeBox's 200 modules took 95 ms of CPU to load in every `apply`.
 */
export function compiledChangeSchemaText(): string {
  return `// Written from changes/schema.ts by UPDATE_SCHEMAS=1 node --import tsx --test test/unit/published-schemas.test.ts
// (which fails while this differs): the change file's schema as ChangeValidator compiles it,
// so that checking a change file loads neither TypeBox nor the catalogue's schema modules.
export const CHANGE_FILE_SCHEMA: Readonly<Record<string, unknown>> = ${JSON.stringify(ChangeFileSchema, null, 2)};
`;
}
