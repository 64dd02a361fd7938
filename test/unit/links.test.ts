import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageLink, renderEnvelope } from '../../src/render/envelope.js';
import { parseQueryPairs } from '../../src/http/api/params.js';
import { encodeQuery, quotePlus } from '../../src/render/links.js';
import { encodeMediaPath } from '../../src/render/media-url.js';

describe('quotePlus is Python quote_plus', () => {
  const cases = [
    ['abc', 'abc'],
    ['a b', 'a+b'],
    ['_.-~', '_.-~'],
    ["!*'()", '%21%2A%27%28%29'],
    ['/?&=+#%', '%2F%3F%26%3D%2B%23%25'],
    ['café', 'caf%C3%A9'],
    ['\u{1F3DB}', '%F0%9F%8F%9B'],
  ];
  for (const [input, expected] of cases) test(JSON.stringify(input), () => assert.equal(quotePlus(input!), expected));
});

describe('encodeQuery sorts by name and keeps repeated values in order', () => {
  const cases = [
    ['', ''],
    ['b=2&a=1', 'a=1&b=2'],
    ['x=2&a=1&x=1', 'a=1&x=2&x=1'],
    ['flag', 'flag='],
    ['a=x+y&b=%2B', 'a=x+y&b=%2B'],
    ['page=%C0%AF', 'page=%EF%BF%BD%EF%BF%BD'],
    ['&&a=1&&', 'a=1'],
  ];
  for (const [raw, expected] of cases) test(`${raw} → ${expected}`, () => assert.equal(encodeQuery(parseQueryPairs(raw!)), expected));
});

describe('page links', () => {
  const links = { baseUrl: 'http://h', path: '/api/v1/images/', query: parseQueryPairs('format=api&page=27') };
  test('neighbouring pages keep the other parameters', () => {
    assert.equal(pageLink(links, 28), 'http://h/api/v1/images/?format=api&page=28');
    assert.equal(pageLink(links, 26), 'http://h/api/v1/images/?format=api&page=26');
  });
  test('page 1 drops page; with nothing else left there is no "?"', () => {
    assert.equal(pageLink(links, 1), 'http://h/api/v1/images/?format=api');
    assert.equal(pageLink({ ...links, query: parseQueryPairs('page=2') }, 1), 'http://h/api/v1/images/');
  });

  const envelopes = [
    { page: 1, lastPage: 1, next: null, previous: null },
    { page: 1, lastPage: 3, next: 'page=2', previous: null },
    { page: 2, lastPage: 3, next: 'page=3', previous: '' },
    { page: 3, lastPage: 3, next: null, previous: 'page=2' },
  ];
  for (const e of envelopes) {
    test(`page ${e.page} of ${e.lastPage}`, () => {
      const body = renderEnvelope(9, e, { ...links, query: [] }, []);
      const url = (q: string | null) => (q === null ? null : q === '' ? 'http://h/api/v1/images/' : `http://h/api/v1/images/?${q}`);
      assert.deepEqual(body, { count: 9, next: url(e.next), previous: url(e.previous), results: [] });
    });
  }
});

describe('media paths', () => {
  const cases = [
    ['uploads/features/366/Osborn St 1975 (GLC).jpg', 'uploads/features/366/Osborn%20St%201975%20(GLC).jpg'],
    ["a-b.c_d~e!f*g(h)i'j.png", "a-b.c_d~e!f*g(h)i'j.png"],
    ['#&%?+=,;:@$', '%23%26%25%3F%2B%3D%2C%3B%3A%40%24'],
    ['Łódź.jpg', '%C5%81%C3%B3d%C5%BA.jpg'],
  ];
  for (const [raw, encoded] of cases) test(raw!, () => assert.equal(encodeMediaPath(raw!), encoded));
});
