// The shape of a catalogue file as TypeBox schemas: every key, its type, and the per-value
// rules (ranges, formats, ring closure). Rules between records (ids, references) are in
// references.ts. Our two keywords (structure.ts): `messages`, an annotation giving a clearer
// word for a keyword's failure (messages.ts), and `closedRing`.
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { CATALOGUE_FORMAT, FEATURE_TYPES, type FeatureType } from './format.js';
import { DATE_FORM } from './formats.js';
import { LATITUDE_LIMIT, LONGITUDE_LIMIT } from './geometry.js';

export type DefinitionName = 'PolygonCoordinates' | 'Geometry' | 'Author' | 'Category' | 'Site' | 'Feature' | 'Image' | 'Document' | 'Media';

/**
 * A `$ref` to one of the root's `$defs`. Ajv (with `inlineRefs: false`) compiles each as a
 * function of its own; inlined, the whole file is one function too big for V8 to optimise,
 * which made validation five times slower.
 */
export function ref<T extends TSchema>(name: DefinitionName): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>(Type.Ref(`#/$defs/${name}`));
}

function coordinate(name: string, limit: number) {
  const range = `${name} must be within [-${limit}, ${limit}]`;
  return Type.Number({ minimum: -limit, maximum: limit, messages: { type: `${name} must be a finite number`, minimum: range, maximum: range } });
}

const Longitude = coordinate('longitude', LONGITUDE_LIMIT);
const Latitude = coordinate('latitude', LATITUDE_LIMIT);

const POSITION_SIZE = 'a position must be exactly two numbers, [longitude, latitude]';

const Position = Type.Tuple([Longitude, Latitude], {
  messages: { type: POSITION_SIZE, minItems: POSITION_SIZE, maxItems: POSITION_SIZE, additionalItems: POSITION_SIZE },
});

const Ring = Type.Array(Position, {
  minItems: 4,
  closedRing: true,
  messages: { minItems: 'a ring must have at least 4 positions' },
});

const PolygonCoordinates = Type.Array(Ring, {
  minItems: 1,
  messages: { minItems: 'a polygon must have at least one ring' },
});

const Polygon = Type.Object(
  { type: Type.Literal('Polygon'), coordinates: ref<typeof PolygonCoordinates>('PolygonCoordinates') },
  { additionalProperties: false },
);

const MultiPolygon = Type.Object(
  {
    type: Type.Literal('MultiPolygon'),
    coordinates: Type.Array(ref<typeof PolygonCoordinates>('PolygonCoordinates'), {
      minItems: 1,
      messages: { minItems: 'a MultiPolygon must have at least one polygon' },
    }),
  },
  { additionalProperties: false },
);

/** A geometry as a file may hold it. */
export type FileGeometry = Static<typeof Polygon> | Static<typeof MultiPolygon>;

/**
 * A discriminated `oneOf` (not TypeBox's `anyOf` union) so that Ajv checks only the branch
 * `type` names: one mistake inside a Polygon is one problem, not one per branch.
 */
const Geometry = Type.Unsafe<FileGeometry>({
  type: 'object',
  discriminator: { propertyName: 'type' },
  oneOf: [MultiPolygon, Polygon],
});

export const Id = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  messages: { minimum: 'must be a positive integer', maximum: 'must be a safe integer (at most 2^53 - 1)' },
});

/** A reference only needs to be an integer: whether it names a record is checked later. */
const Reference = Type.Integer();

const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
const NullableInteger = Type.Unsafe<number | null>({ type: ['integer', 'null'] });

/** The words for an optional key that holds null or another type (clarifications.md). */
function whenPresent(word: string) {
  return { type: `must be ${word} when present (leave the key out rather than use null)` };
}

/** `enum`, not a union of literals: one problem for a wrong value, not one per literal. */
const FeatureTypeSchema = Type.Unsafe<FeatureType>({ type: 'string', enum: [...FEATURE_TYPES] });

const MediaPath = Type.String({ format: 'media-path' });
const CalendarDate = Type.String({ format: 'date', messages: { type: DATE_FORM } });
const NullableCalendarDate = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  format: 'date',
  messages: { type: `${DATE_FORM} or null` },
});
const Published = Type.Optional(Type.Boolean({ messages: whenPresent('a boolean') }));

function record<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

const Author = record({
  id: Id,
  username: Type.String({ minLength: 1, messages: { minLength: 'must not be empty' } }),
});

const Category = record({ id: Id, name: Type.String(), description: Type.String(), thumbnail: MediaPath });

const Site = record({ id: Id, name: Type.String() });

const Feature = record({
  id: Id,
  feature_type: FeatureTypeSchema,
  b_number: NullableString,
  b_name: NullableString,
  street: NullableString,
  postcode: Type.String(),
  address: Type.String(),
  current: NullableInteger,
  site: NullableInteger,
  categories: Type.Array(Reference),
  tags: Type.Array(Type.String()),
  search_str: Type.Optional(Type.String({ messages: whenPresent('a string') })),
  geometry: ref<typeof Geometry>('Geometry'),
});

const Image = record({
  id: Id,
  feature: Reference,
  author: Reference,
  title: Type.String(),
  file: MediaPath,
  description: Type.String(),
  copyright: Type.Boolean(),
  created: NullableCalendarDate,
  published: Published,
});

const Document = record({
  id: Id,
  feature: Reference,
  author: Reference,
  title: Type.String(),
  body: Type.String(),
  created: CalendarDate,
  last_edited: CalendarDate,
  published: Published,
});

const Media = record({
  id: Id,
  feature: Reference,
  author: Reference,
  title: Type.String(),
  url: Type.String({ format: 'http-url' }),
  published: Published,
});

/** The records' and geometry's schemas, the `$defs` of every file format made of these records (the change file's too). */
export const DEFINITIONS: Record<DefinitionName, TSchema> = { PolygonCoordinates, Geometry, Author, Category, Site, Feature, Image, Document, Media };

export const CatalogueFileSchema = Type.Object(
  {
    format: Type.Literal(CATALOGUE_FORMAT, { messages: { type: `must be "${CATALOGUE_FORMAT}"` } }),
    authors: Type.Array(ref<typeof Author>('Author')),
    categories: Type.Array(ref<typeof Category>('Category')),
    sites: Type.Array(ref<typeof Site>('Site')),
    features: Type.Array(ref<typeof Feature>('Feature')),
    images: Type.Array(ref<typeof Image>('Image')),
    documents: Type.Array(ref<typeof Document>('Document')),
    media: Type.Array(ref<typeof Media>('Media')),
  },
  { additionalProperties: false, $defs: DEFINITIONS, messages: { type: 'the top level must be a JSON object' } },
);

/** What a file may hold, before normalisation into a `Catalogue`. */
export type CatalogueFile = Static<typeof CatalogueFileSchema>;
export type FileFeature = CatalogueFile['features'][number];
