// What OPTIONS says of each endpoint (names as the original framework derived them).
import type { Collection } from '../constants.js';
import type { EndpointDescription } from '../render/root.js';

type Descriptions = { root: EndpointDescription } & {
  [C in Collection]: { list: EndpointDescription; detail: EndpointDescription };
};

const COLLECTION_TEXT: Record<Collection, [singular: string, what: string]> = {
  features: ['Feature', 'Buildings and places with their map outline (GeoJSON MultiPolygon), address, categories and summaries of attached records.'],
  images: ['Image', 'Pictures attached to a feature, each with a copy of its feature.'],
  documents: ['Document', 'HTML articles attached to a feature, each with a copy of its feature.'],
  media: ['Media', 'Links to externally hosted videos attached to a feature, each with a copy of its feature.'],
};

function describe(collection: Collection) {
  const [singular, what] = COLLECTION_TEXT[collection];
  return {
    list: { name: `${singular} List`, description: `${what} Paginated with ?page=N (or last) and ?page_size=N (1-100).` },
    detail: { name: `${singular} Instance`, description: `One ${singular.toLowerCase()} record, in the same form as in its list.` },
  };
}

export const DESCRIPTIONS: Descriptions = {
  root: { name: 'Api Root', description: 'The four read-only collections of the catalogue.' },
  features: describe('features'),
  images: describe('images'),
  documents: describe('documents'),
  media: describe('media'),
};
