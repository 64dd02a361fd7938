// JSON Schemas of every wire shape of the spec: the one description of the responses,
// used by the tests to check every body (and later by the OpenAPI document).
import { Type, type TSchema } from '@sinclair/typebox';
import { DOCUMENT_KEYS, FEATURE_KEYS as F } from '../catalogue/fields.js';
import { LIST_SHAPES, OPENAPI_SHAPE, RECORD_SHAPES, ROOT_SHAPE } from './shape-names.js';

const Id = Type.Integer({ minimum: 1 });
const Url = Type.String({ pattern: '^https?://' });
const Date = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const closed = { additionalProperties: false } as const;

export const FeatureTypeSchema = Type.Union(
  ['WHITECHAPEL_BUILDING', 'GREATER_WHITECHAPEL', 'PLACE', 'OPEN_SPACE'].map((t) => Type.Literal(t)),
  { title: 'FeatureType' },
);

export const AuthorSchema = Type.Object({ id: Id, username: Type.String() }, { ...closed, title: 'Author' });

const Position = Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -90, maximum: 90 })]);
const Ring = Type.Array(Position, { minItems: 4 });
export const GeometrySchema = Type.Object(
  { type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Ring, { minItems: 1 }), { minItems: 1 }) },
  { ...closed, title: 'Geometry' },
);

export const CategorySchema = Type.Object(
  { id: Id, name: Type.String(), description: Type.String(), thumbnail: Url },
  { ...closed, title: 'Category' },
);
export const SiteSchema = Type.Object({ id: Id, name: Type.String() }, { ...closed, title: 'Site' });

export const AttachmentSummarySchema = Type.Object(
  { id: Id, title: Type.String(), author: AuthorSchema },
  { ...closed, title: 'AttachmentSummary' },
);

export const ListedFeatureSchema = Type.Object(
  {
    id: Id,
    type: Type.Literal('Feature'),
    geometry: GeometrySchema,
    properties: Type.Object(
      {
        [F.name]: Nullable(Type.String()),
        [F.address]: Type.String(),
        [F.postalCode]: Type.String(),
        street: Nullable(Type.String()),
        categories: Type.Array(CategorySchema),
        count: Type.Integer({ minimum: 0 }),
        current: Nullable(Type.Integer()),
        site: Nullable(SiteSchema),
        [F.type]: FeatureTypeSchema,
        documents: Type.Array(AttachmentSummarySchema),
        images: Type.Array(AttachmentSummarySchema),
        media: Type.Array(AttachmentSummarySchema),
      },
      closed,
    ),
  },
  { ...closed, title: RECORD_SHAPES.features },
);

const nestedProperties = {
  [F.number]: Type.String(),
  [F.name]: Type.String(),
  [F.street]: Type.String(),
  [F.address]: Type.String(),
  [F.type]: FeatureTypeSchema,
  count: Type.Integer({ minimum: 0 }),
};

export const SearchableFeatureSchema = Type.Object(
  {
    id: Id,
    type: Type.Literal('Feature'),
    geometry: GeometrySchema,
    properties: Type.Object({ ...nestedProperties, [F.searchText]: Type.String() }, closed),
    tags: Type.Array(Type.String()),
  },
  { ...closed, title: 'SearchableFeature' },
);

export const MediaFeatureSchema = Type.Object(
  { id: Id, type: Type.Literal('Feature'), geometry: GeometrySchema, properties: Type.Object(nestedProperties, closed) },
  { ...closed, title: 'MediaFeature' },
);

const recordFields = { id: Id, title: Type.String(), author: AuthorSchema };

export const ImageSchema = Type.Object(
  {
    ...recordFields,
    feature: SearchableFeatureSchema,
    file: Url,
    description: Type.String(),
    copyright: Type.Boolean(),
    created: Nullable(Date),
  },
  { ...closed, title: RECORD_SHAPES.images },
);

export const DocumentSchema = Type.Object(
  { ...recordFields, feature: SearchableFeatureSchema, body: Type.String(), created: Date, [DOCUMENT_KEYS.lastEdited]: Date },
  { ...closed, title: RECORD_SHAPES.documents },
);

export const MediaSchema = Type.Object({ ...recordFields, feature: MediaFeatureSchema, url: Url }, { ...closed, title: RECORD_SHAPES.media });

const envelope = <T extends TSchema>(results: T, title: string) =>
  Type.Object({ count: Type.Integer({ minimum: 0 }), next: Nullable(Url), previous: Nullable(Url), results }, { ...closed, title });

export const FeatureCollectionSchema = Type.Object(
  { type: Type.Literal('FeatureCollection'), features: Type.Array(ListedFeatureSchema) },
  { ...closed, title: 'FeatureCollection' },
);

export const FeatureListSchema = envelope(FeatureCollectionSchema, LIST_SHAPES.features);
export const ImageListSchema = envelope(Type.Array(ImageSchema), LIST_SHAPES.images);
export const DocumentListSchema = envelope(Type.Array(DocumentSchema), LIST_SHAPES.documents);
export const MediaListSchema = envelope(Type.Array(MediaSchema), LIST_SHAPES.media);

export const ApiRootSchema = Type.Object(
  { features: Url, documents: Url, images: Url, media: Url },
  { ...closed, title: ROOT_SHAPE },
);
export const ErrorSchema = Type.Object({ detail: Type.String() }, { ...closed, title: 'Error' });
export const OptionsSchema = Type.Object(
  { name: Type.String(), description: Type.String(), renders: Type.Array(Type.String()), parses: Type.Array(Type.String()) },
  { ...closed, title: 'EndpointOptions' },
);

/** GET /api/v1/openapi.json: an OpenAPI 3.1 document (checked in full by an OpenAPI validator in the tests). */
export const OpenApiDocumentSchema = Type.Object(
  { openapi: Type.String({ pattern: '^3\\.1\\.\\d+$' }), info: Type.Object({}), paths: Type.Object({}) },
  { title: OPENAPI_SHAPE },
);

export const LIST_SCHEMAS = {
  features: FeatureListSchema,
  images: ImageListSchema,
  documents: DocumentListSchema,
  media: MediaListSchema,
} as const;

export const RECORD_SCHEMAS = {
  features: ListedFeatureSchema,
  images: ImageSchema,
  documents: DocumentSchema,
  media: MediaSchema,
} as const;
