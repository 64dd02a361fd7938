// A small catalogue built in the tests, holding every awkward case the spec names.
import type { Catalogue, Feature, MultiPolygon } from '../../src/catalogue/format.js';

export const FEATURE_COUNT = 45; // three pages of 20

/** A small square around a point, with 16-decimal coordinates that must survive exactly. */
function square(lon: number, lat: number): MultiPolygon['coordinates'][number] {
  const d = 0.0000731234567891;
  const ring: [number, number][] = [
    [lon, lat],
    [lon + d, lat],
    [lon + d, lat + d],
    [lon, lat + d],
    [lon, lat],
  ];
  return [ring];
}

function building(id: number): Feature {
  const lon = -0.0703927410721712 + id * 0.0001;
  const lat = 51.5168396123456789 + id * 0.00005;
  return {
    id,
    feature_type: 'WHITECHAPEL_BUILDING',
    b_number: `${id}`,
    b_name: id % 3 === 0 ? null : id % 3 === 1 ? '' : `Building ${id}`,
    street: id % 5 === 0 ? null : 'Osborn Street',
    postcode: 'E1 6TD',
    address: `${id} Osborn Street, London E1 6TD`,
    current: id % 2 === 0 ? 1800 + id : null,
    site: null,
    categories: [],
    tags: [],
    search_str: `${id} Osborn Street`,
    geometry: { type: 'MultiPolygon', coordinates: [square(lon, lat)] },
  };
}

export function buildTestCatalogue(): Catalogue {
  const features = Array.from({ length: FEATURE_COUNT }, (_, i) => building(i * 2 + 1));
  // Feature 1: categories, site, tags, a courtyard (inner ring) and a second part.
  Object.assign(features[0]!, {
    b_name: 'Former Whitechapel electricity-generating station',
    b_number: '12-14',
    site: 1,
    categories: [4, 3],
    tags: ['electricity', 'industry'],
    geometry: {
      type: 'MultiPolygon',
      coordinates: [
        [
          [[-0.0703927, 51.5168396], [-0.0704168, 51.5168711], [-0.0703309, 51.516897], [-0.0703927, 51.5168396]],
          [[-0.07039, 51.51685], [-0.07040, 51.51686], [-0.070395, 51.516865], [-0.07039, 51.51685]],
        ],
        square(-0.06912345678901234, 51.51512345678901),
      ],
    },
  });
  // Feature 3: an area of Greater Whitechapel.
  Object.assign(features[1]!, {
    feature_type: 'GREATER_WHITECHAPEL', b_number: null, b_name: null, street: null, current: null,
    site: null, address: 'Spitalfields', postcode: 'E1', search_str: 'Spitalfields',
  });
  Object.assign(features[2]!, { feature_type: 'PLACE', site: 1, b_name: 'Altab Ali Park' });
  return {
    format: 'heritage-catalogue/1',
    authors: [
      { id: 2, username: 'surveyoflondon' },
      { id: 5, username: 'zoë' },
    ],
    categories: [
      { id: 3, name: 'Pubs', description: '', thumbnail: 'categories/pubs.png' },
      { id: 4, name: 'Industry & power', description: 'Works, yards and stations.', thumbnail: 'categories/industry & power.png' },
    ],
    sites: [{ id: 1, name: 'The Royal London Hospital' }],
    features,
    images: [
      { id: 7, feature: 1, author: 2, title: 'Street front, 1975', file: 'uploads/features/1/Osborn St 1975 (GLC).jpg',
        description: 'First line.\nSecond line.', copyright: true, created: '2016-06-01', published: true },
      { id: 8, feature: 1, author: 5, title: 'Unpublished', file: 'uploads/features/1/hidden.jpg',
        description: '', copyright: false, created: null, published: false },
      { id: 9, feature: 5, author: 5, title: "St Mary's #2", file: "uploads/features/5/St Mary's #2 & 100% Łódź.jpg",
        description: '', copyright: false, created: null, published: true },
    ],
    documents: [
      { id: 971, feature: 1, author: 2, title: 'Former Whitechapel electricity-generating station',
        body: '<p>Built in <strong>1898</strong>[^1] ...</p><p>[^1]: Survey of London drawings.</p>',
        created: '2016-06-22', last_edited: '2017-02-21', published: true },
      { id: 972, feature: 5, author: 2, title: 'Draft', body: '<p>Draft</p>', created: '2016-06-22', last_edited: '2016-06-22', published: false },
    ],
    media: [
      { id: 4, feature: 1, author: 2, title: 'Walking Osborn Street', url: 'https://www.youtube.com/watch?v=abcdefghijk', published: true },
      { id: 6, feature: 7, author: 5, title: 'Hidden video', url: 'https://vimeo.com/1234', published: false },
    ],
  };
}

/**
 * Extra buildings with long rings, so that the download outgrows the socket's buffers:
 * `count` of them (ids from 1000, a hundred to a row), each ring of `positions` positions.
 */
export function largeCatalogue({ count = 3000, positions = 41 } = {}): Catalogue {
  const catalogue = buildTestCatalogue();
  const model = catalogue.features[4]!;
  const corners = positions - 1;
  for (let n = 0; n < count; n++) {
    const id = 1000 + n;
    const [x, y] = [-0.08 + (n % 100) * 0.0002, 51.51 + Math.floor(n / 100) * 0.0002];
    const ring = Array.from({ length: corners }, (_, k) => [x + 0.00005 * Math.cos((k / corners) * 2 * Math.PI), y + 0.00005 * Math.sin((k / corners) * 2 * Math.PI)] as [number, number]);
    ring.push(ring[0]!);
    catalogue.features.push({ ...model, id, address: `${id} Old Street`, search_str: `${id} Old Street`, geometry: { type: 'MultiPolygon', coordinates: [[ring]] } });
  }
  return catalogue;
}
