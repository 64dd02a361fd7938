// The names of the answers' wire shapes: each is a schema's title in schemas.ts and its
// OpenAPI component name. Apart from the schemas, so that the endpoint table can name what
// each endpoint answers without loading them (TypeBox's two hundred modules): only what
// describes or checks answers (the OpenAPI document, the tests) loads the schemas.
import type { Collection } from '../constants.js';

export const ROOT_SHAPE = 'ApiRoot';
export const OPENAPI_SHAPE = 'OpenApiDocument';

/** A page of each collection. */
export const LIST_SHAPES = { features: 'FeatureList', images: 'ImageList', documents: 'DocumentList', media: 'MediaList' } as const satisfies Record<Collection, string>;

/** One record of each collection, as its detail endpoint gives it. */
export const RECORD_SHAPES = { features: 'ListedFeature', images: 'Image', documents: 'Document', media: 'Media' } as const satisfies Record<Collection, string>;
