// The home page's streets on a generated catalogue where some buildings are on no street
// (issue 48): a street's name may be null, empty or only spaces (the spec: "may be empty
// string or null"). Each street listed is a link with its name as its text (axe's
// link-name), its count the buildings the link's search finds; buildings on no street are
// left out (no search finds "no street", and a link to every building would say otherwise),
// and the map writes no label for them.
// Expected values computed here from the catalogue. On both stores (test/postgres/ twin).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { unescaped } from '../support/html-text.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

function catalogue() {
  const c = generateDemoCatalogue({ scale: 0.1, seed: 7 });
  const buildings = c.features.filter((f) => f.street !== null);
  // Every seventh building on no street, written three ways.
  buildings.forEach((f, i) => {
    if (i % 7 === 0) f.street = ['', '   ', null][(i / 7) % 3]!;
  });
  return c;
}

/** Each named street (by its name folded, as the API's street filter folds) with its buildings. */
function namedStreets(c: ReturnType<typeof catalogue>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of c.features) {
    const key = (f.street ?? '').trim().toLowerCase();
    if (key !== '') counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('the home page’s streets, some buildings on no street', () => {
  const cat = catalogue();
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue: cat });
  });
  after(() => t.close());

  test('the catalogue has buildings on no street, written as null, empty and spaces', () => {
    for (const street of [null, '', '   ']) assert.ok(cat.features.some((f) => f.street === street), JSON.stringify(street));
  });

  test('every link has text; each named street is listed once, with the count its link finds', async () => {
    const answer = await t.request('/about/', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(answer.status, 200);
    const links = [...answer.text.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, '').trim());
    assert.deepEqual(links.filter((text) => text === ''), [], 'no link without text');
    const section = /<section aria-labelledby="streets-heading">([\s\S]*?)<\/section>/.exec(answer.text)?.[1] ?? '';
    const listed = [...section.matchAll(/<li><a href="([^"]+)">([^<]*)<\/a> <span class="muted">([\d,]+)<\/span><\/li>/g)]
      .map((m) => ({ href: unescaped(m[1]!), name: unescaped(m[2]!), count: Number(m[3]!.replaceAll(',', '')) }));
    const expected = namedStreets(cat);
    assert.deepEqual(listed.map((s) => s.name.toLowerCase()).sort(), [...expected.keys()].sort());
    for (const street of listed) assert.equal(street.count, expected.get(street.name.toLowerCase()), street.name);
    assert.ok(answer.text.includes(`along ${expected.size} streets.`), 'the count of streets');
    for (const street of listed.slice(0, 5)) {
      const search = new URL(street.href).searchParams.get('street') ?? '';
      const found = (await t.request(`/api/v1/features/?street=${encodeURIComponent(search)}&page_size=1`)).json();
      assert.equal(found.count, street.count, `${street.name}: what its link's search finds`);
    }
  });

  test('the map labels each named street, and none written empty or as spaces', async () => {
    const answer = await t.request('/map/streets.json');
    assert.equal(answer.status, 200);
    const kept: unknown = answer.json();
    const names = JSON.stringify(kept).match(/"name":"[^"]*"/g) ?? [];
    const labelled = new Set(names.map((n) => n.slice(8, -1).toLowerCase()));
    assert.deepEqual([...labelled].filter((name) => name.trim() === ''), [], 'no label without text');
    assert.deepEqual([...labelled].sort(), [...namedStreets(cat).keys()].sort());
  });
});
