// Which store calls are of which class of costly work (src/work/classes.ts): what runs at once,
// inline, and what takes a turn and a worker thread.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listClass } from '../../src/store/api/api-reads.js';

test('a list: whole, or one feature\'s records alone, inline; any other filter a costly read', () => {
  assert.equal(listClass({}), null);
  assert.equal(listClass({ feature: 7 }), null, 'one feature\'s records: a range of the (feature_id, id) index');
  assert.equal(listClass({ feature: 7, words: undefined }), null, 'a filter given as undefined is no filter');
  assert.equal(listClass({ feature: 7, words: ['church'] }), 'reads', 'words beside the feature are a text search');
  assert.equal(listClass({ feature: 7, dateRange: { from: '2001-01-01', to: null } }), 'reads');
  assert.equal(listClass({ author: 3 }), 'reads');
  assert.equal(listClass({ yearRange: { from: 1800, to: 1899 } }), 'reads');
});
