// An OGC items page is bounded in bytes as well as items (MAX_ANSWER_BYTES, issue 33): a
// page of large footprints ends before the one that would take its footprints past the
// budget, and its next link goes on from there, so that walking the links gives every item
// once, in order. Expected pages are computed here from the catalogue's own footprints.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { largeCatalogue } from '../support/catalogue.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const BUDGET = 100_000;

interface Page {
  numberMatched: number;
  numberReturned: number;
  features: { id: number; geometry: unknown }[];
  links: { rel: string; href: string }[];
}

/** The ids of every page a client walking `next` should get: each page as many whole footprints as fit the budget, at least one. */
function expectedPages(catalogue: Catalogue, limit: number): number[][] {
  const pages: number[][] = [];
  let page: number[] = [];
  let bytes = 0;
  for (const feature of [...catalogue.features].sort((a, b) => a.id - b.id)) {
    const size = JSON.stringify(feature.geometry).length;
    if (page.length === limit || (page.length > 0 && bytes + size > BUDGET)) {
      pages.push(page);
      page = [];
      bytes = 0;
    }
    page.push(feature.id);
    bytes += size;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

describe('OGC pages bounded in bytes', () => {
  const catalogue = largeCatalogue({ count: 40, positions: 1400 });
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ catalogue, settings: { maxAnswerBytes: String(BUDGET) } });
  });
  after(() => app.close());

  async function walk(first: string): Promise<Page[]> {
    const pages: Page[] = [];
    let next: string | undefined = first;
    while (next !== undefined) {
      const answer = await app.request(next.replace(/^https?:\/\/[^/]+/, ''));
      assert.equal(answer.status, 200, next);
      const page = JSON.parse(answer.bytes.toString('utf8')) as Page;
      pages.push(page);
      next = page.links.find((link) => link.rel === 'next')?.href;
      assert.ok(pages.length <= catalogue.features.length, 'the walk ends');
    }
    return pages;
  }

  test('limit=10000: each page as many whole footprints as fit the budget, next going on from there, every item once and in order', async () => {
    const pages = await walk('/ogc/collections/features/items?limit=10000');
    assert.deepEqual(pages.map((p) => p.features.map((f) => f.id)), expectedPages(catalogue, 10_000));
    assert.ok(pages.length > 1, 'large footprints do not fit one page');
    for (const page of pages) {
      assert.equal(page.numberMatched, catalogue.features.length);
      assert.equal(page.numberReturned, page.features.length);
    }
  });

  test('a limit within the budget is honoured as before; a single footprint over the budget still makes a page', async () => {
    const pages = await walk('/ogc/collections/features/items?limit=2');
    assert.deepEqual(pages.map((p) => p.features.map((f) => f.id)), expectedPages(catalogue, 2));
  });
});
