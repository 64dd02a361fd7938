// The test catalogue plus features and records made for the finding-things filters:
// a triangle (a box can meet its bounding box but not it), a square with a large hole,
// accented words, tags, categories, dates.
import type { Catalogue, Feature, MultiPolygon } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from './catalogue.js';

type Ring = [number, number][];

const polygon = (...rings: Ring[]): MultiPolygon => ({ type: 'MultiPolygon', coordinates: [rings] });
const rect = (x1: number, y1: number, x2: number, y2: number): Ring => [[x1, y1], [x2, y1], [x2, y2], [x1, y2], [x1, y1]];

export const TRIANGLE_ID = 201;
export const HOLED_ID = 203;
export const CAFE_ID = 205;

function feature(id: number, fields: Partial<Feature> & Pick<Feature, 'geometry'>): Feature {
  return {
    id, feature_type: 'WHITECHAPEL_BUILDING', b_number: null, b_name: null, street: null, postcode: 'E1 7AA',
    address: `${id} Somewhere`, current: null, site: null, categories: [], tags: [], search_str: `${id} Somewhere`,
    ...fields,
  };
}

export function buildFindingCatalogue(): Catalogue {
  const base = buildTestCatalogue();
  base.features[4]!.tags = ['Pub', 'heritage'];
  base.features[5]!.tags = ['pub'];
  base.features[6]!.categories = [3];
  return {
    ...base,
    features: [
      ...base.features,
      feature(TRIANGLE_ID, { geometry: polygon([[0.1, 51.6], [0.102, 51.6], [0.1, 51.602], [0.1, 51.6]]), current: 1745, street: 'Fieldgate Street' }),
      feature(HOLED_ID, { geometry: polygon(rect(0.2, 51.6, 0.21, 51.61), rect(0.202, 51.602, 0.208, 51.608)), feature_type: 'PLACE', site: 1 }),
      feature(CAFE_ID, {
        geometry: polygon(rect(0.3, 51.6, 0.301, 51.601)), b_name: 'Café Synagogue Hall', street: 'Brick Lane',
        postcode: 'E1 6QL', address: '19 Brick Lane, London E1 6QL', current: 1898, tags: ['Jewish heritage', 'religion'],
        categories: [3, 4], search_str: '19 Brick Lane Café Synagogue Hall', feature_type: 'PLACE',
      }),
    ],
    images: [
      ...base.images,
      { id: 21, feature: CAFE_ID, author: 5, title: 'Façade in winter', file: 'uploads/cafe.jpg', description: 'Snow on the cornice',
        copyright: false, created: '2018-03-04', published: true },
      { id: 22, feature: TRIANGLE_ID, author: 2, title: 'Corner', file: 'uploads/corner.jpg', description: '',
        copyright: false, created: '2019-12-31', published: true },
      { id: 23, feature: HOLED_ID, author: 5, title: 'Hidden synagogue view', file: 'uploads/hidden.jpg', description: '',
        copyright: false, created: '2018-03-04', published: false },
    ],
    documents: [
      ...base.documents,
      { id: 981, feature: CAFE_ID, author: 5, title: 'A congregation', body: '<p>The <em>Ashkenazi</em> congregation &amp; its rabbi</p>',
        created: '2020-01-01', last_edited: '2020-01-02', published: true },
    ],
    media: [
      ...base.media,
      { id: 11, feature: TRIANGLE_ID, author: 5, title: 'Fieldgate walk', url: 'https://vimeo.com/99', published: true },
    ],
  };
}
