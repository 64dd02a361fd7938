// The change file's shape as a TypeBox schema: the catalogue's own record schemas
// (catalogue/schema.ts, the same `$defs`), grouped per list into `put` and `remove`.
// The rules between records (ids, references, the stored catalogue) are in validate.ts and
// store/apply/apply-changes.ts.
import { Type, type Static } from '@sinclair/typebox';
import type { CatalogueFile } from '../catalogue/schema.js';
import { DEFINITIONS, Id } from '../catalogue/schema.js';
import type { ListName } from '../catalogue/lists.js';
import { RECORD_DEFINITIONS } from '../catalogue/structure.js';
import { CHANGES_FORMAT, type ChangeFile } from './format.js';

function listChanges<L extends ListName>(list: L) {
  const record = Type.Unsafe<CatalogueFile[L][number]>(Type.Ref(`#/$defs/${RECORD_DEFINITIONS[list]}`));
  return Type.Object(
    { put: Type.Optional(Type.Array(record)), remove: Type.Optional(Type.Array(Id)) },
    { additionalProperties: false },
  );
}

export const ChangeFileSchema = Type.Object(
  {
    format: Type.Literal(CHANGES_FORMAT, { messages: { type: `must be "${CHANGES_FORMAT}"` } }),
    authors: Type.Optional(listChanges('authors')),
    categories: Type.Optional(listChanges('categories')),
    sites: Type.Optional(listChanges('sites')),
    features: Type.Optional(listChanges('features')),
    images: Type.Optional(listChanges('images')),
    documents: Type.Optional(listChanges('documents')),
    media: Type.Optional(listChanges('media')),
  },
  { additionalProperties: false, $defs: DEFINITIONS, messages: { type: 'the top level must be a JSON object' } },
);

// The schema and the type format.ts declares describe one shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<Static<typeof ChangeFileSchema>, ChangeFile> = true;
void sameShape;
