import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderListedFeature, renderMediaFeature, renderSearchableFeature } from '../../src/render/features.js';
import { renderImage, renderMedia } from '../../src/render/records.js';
import { renderApiRoot } from '../../src/render/root.js';
import type { FeatureRow, ImageRow, NestedFeatureRow } from '../../src/store/store.js';
import { JsonText, stringifyAnswer } from '../../src/json-text.js';
import { itemText } from '../../src/render/ogc/items.js';

const geometry = { type: 'MultiPolygon' as const, coordinates: [[[[0.1, 0.2], [0.3, 0.2], [0.3, 0.4], [0.1, 0.2]]]] as [number, number][][][] };

const nested = (overrides: Partial<NestedFeatureRow> = {}): NestedFeatureRow => ({
  id: 9, feature_type: 'GREATER_WHITECHAPEL', b_number: null, b_name: null, street: null, address: 'Spitalfields',
  count: 0, geometry, search_str: 'Spitalfields', tags: [], ...overrides,
});

describe('nested feature forms', () => {
  const cases: [string, Partial<NestedFeatureRow>, { b_number: string; b_name: string; street: string }][] = [
    ['nulls become ""', {}, { b_number: '', b_name: '', street: '' }],
    ['empty strings stay ""', { b_number: '', b_name: '', street: '' }, { b_number: '', b_name: '', street: '' }],
    ['values are kept', { b_number: '12-14', b_name: 'Station', street: 'Osborn Street' }, { b_number: '12-14', b_name: 'Station', street: 'Osborn Street' }],
  ];
  for (const [name, overrides, expected] of cases) {
    test(name, () => {
      const searchable = renderSearchableFeature(nested(overrides));
      const inMedia = renderMediaFeature(nested(overrides));
      for (const p of [searchable.properties, inMedia.properties]) {
        assert.deepEqual({ b_number: p.b_number, b_name: p.b_name, street: p.street }, expected);
      }
    });
  }

  test('searchable form: search_str in properties, tags beside them; media form: neither', () => {
    const searchable = renderSearchableFeature(nested({ tags: ['a'] }));
    assert.deepEqual(Object.keys(searchable), ['id', 'type', 'geometry', 'properties', 'tags']);
    assert.deepEqual(Object.keys(searchable.properties), ['b_number', 'b_name', 'street', 'address', 'feature_type', 'count', 'search_str']);
    const inMedia = renderMediaFeature(nested());
    assert.deepEqual(Object.keys(inMedia), ['id', 'type', 'geometry', 'properties']);
    assert.deepEqual(Object.keys(inMedia.properties), ['b_number', 'b_name', 'street', 'address', 'feature_type', 'count']);
  });
});

describe('listed feature', () => {
  const row: FeatureRow = {
    id: 1, feature_type: 'WHITECHAPEL_BUILDING', b_number: '1', b_name: null, street: null, address: 'a', postcode: 'E1',
    current: null, count: 0, geometry, site: null, categories: [{ id: 3, name: 'Pubs', description: '', thumbnail: 'c/p p.png' }],
    documents: [], images: [], media: [],
  };
  test('nulls stay null, thumbnails are absolute and encoded, b_number is absent', () => {
    const f = renderListedFeature(row, 'https://x.org');
    assert.equal(f.properties.b_name, null);
    assert.equal(f.properties.street, null);
    assert.equal(f.properties.site, null);
    assert.equal(f.properties.categories[0]!.thumbnail, 'https://x.org/media/c/p%20p.png');
    assert.ok(!('b_number' in f.properties));
    assert.equal(f.geometry, geometry);
  });
});

describe('records', () => {
  const image: ImageRow = {
    id: 7, title: 't', author: { id: 2, username: 'u' }, feature: nested(), file: 'uploads/features/9/a b#.jpg',
    description: 'x\ny', copyright: false, created: null,
  };
  test('image file URL is absolute and encoded; created null kept', () => {
    const rendered = renderImage(image, 'http://h:1');
    assert.equal(rendered.file, 'http://h:1/media/uploads/features/9/a%20b%23.jpg');
    assert.equal(rendered.created, null);
    assert.equal(rendered.description, 'x\ny');
  });
  test('media nests the feature without search_str and tags', () => {
    const rendered = renderMedia({ id: 4, title: 't', author: { id: 2, username: 'u' }, feature: nested(), url: 'https://v/é' });
    assert.ok(!('tags' in rendered.feature));
    assert.ok(!('search_str' in rendered.feature.properties));
    assert.equal(rendered.url, 'https://v/é');
  });
});

describe('API root', () => {
  test('links in order, format kept and encoded', () => {
    assert.deepEqual(Object.keys(renderApiRoot('http://h', null)), ['features', 'documents', 'images', 'media']);
    assert.equal(renderApiRoot('http://h', 'api').features, 'http://h/api/v1/features/?format=api');
    assert.equal(renderApiRoot('http://h', null).media, 'http://h/api/v1/media/');
  });
});

describe('an OGC item written as text (itemText) is what JSON.stringify writes for it', () => {
  const footprint = new JsonText('{"type":"MultiPolygon","coordinates":[[[[-0.0692813147828,51.52],[1e-7,51.5],[-0.0692813147828,51.52]]]]}');
  const properties: Record<string, string | number | boolean | null>[] = [
    {},
    { b_name: 'Quote " backslash \\ slash / tab \t newline \n bell \u0007', count: 3, current: null, flag: true },
    { address: 'Café – “Ωμέγα” 𝄞 \u2028 \u2029 lone \ud800 end', big: 1e21, small: -0.5 },
  ];
  for (const [i, values] of properties.entries()) {
    for (const geometry of [footprint, null]) {
      test(`properties ${i}, ${geometry === null ? 'no geometry' : 'a footprint'}`, () => {
        const item = { type: 'Feature' as const, id: 40 + i, geometry, properties: values };
        assert.equal(itemText(item), stringifyAnswer(item));
        assert.deepEqual(JSON.parse(itemText(item)), { ...item, geometry: geometry === null ? null : JSON.parse(geometry.text) });
      });
    }
  }
});
