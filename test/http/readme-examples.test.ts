// Every example request in README.md and the pages of docs/, tried on the catalogue `npm start`
// serves (the demo generator at serve --init-demo's scale and seed): each answers 2xx, a list
// finds records, and an example answer shown there is the real answer ("…" stands for what is cut).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { generateDemoCatalogue, INIT_DEMO } from '../../src/demo/demo.js';
import { writePictures } from '../../src/demo/pictures.js';
import { docPages } from '../support/docs.js';
import { ensureWebBuilt } from '../support/map-page.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { temporaryDir } from '../support/temporary.js';

const PAGES = docPages();
/**
 * How many different example requests the pages hold (39 when README moved into docs/, 34 in
 * README before): fewer means an example was lost, or is no longer found by the patterns below.
 */
const MIN_EXAMPLES = 39;
/** Where the docs say npm start serves. */
const LOCAL = 'http://127.0.0.1:8000';
const LOCAL_API = `${LOCAL}/api/v1`;
const ELIDED = '…';

interface CodeBlock {
  lang: string;
  text: string;
  /** Only blank lines between the previous block's end and this one's start. */
  followsBlock: boolean;
}

function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let previousEnd = -1;
  for (const m of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    blocks.push({ lang: m[1]!, text: m[2]!, followsBlock: previousEnd >= 0 && markdown.slice(previousEnd, m.index).trim() === '' });
    previousEnd = m.index + m[0].length;
  }
  return blocks;
}

const LOCAL_URL = /http:\/\/127\.0\.0\.1:8000\/[^\s'"`)<>]*/g;

/**
 * The example requests: every local URL outside the example answers (json blocks), and every
 * `$API/…` (shell) or `${api}/…` (the web page) — each standing for the API's base URL.
 */
function exampleUrls(markdown: string): string[] {
  const outsideAnswers = markdown.replace(/^```json\n[\s\S]*?^```$/gm, '').replace(/^API=\S*$/gm, '');
  const urls = [...outsideAnswers.matchAll(LOCAL_URL)].map((m) => m[0].replace(/[.,;:]+$/, ''));
  const viaBase = [...markdown.matchAll(/(?:\$API|\$\{api\})(\/[^\s'"`)]*)/g)].map((m) => `${LOCAL_API}${m[1]}`);
  return [...new Set([...urls, ...viaBase])];
}

/** A curl line's URL and the answer shown right after it. */
function shownAnswers(markdown: string): { url: string; answer: unknown }[] {
  const blocks = codeBlocks(markdown);
  return blocks.flatMap((block, i) => {
    const before = blocks[i - 1];
    if (block.lang !== 'json' || !block.followsBlock || before?.lang !== 'sh') return [];
    const urls = before.text.match(LOCAL_URL) ?? [];
    return urls.length === 1 ? [{ url: urls[0]!, answer: JSON.parse(block.text) }] : [];
  });
}

/** Where a shown value differs from the real one, or null. An array ending in "…" may go on. */
function elidedDifference(shown: unknown, real: unknown, at = '$'): string | null {
  if (Array.isArray(shown)) {
    if (!Array.isArray(real)) return `${at}: not an array`;
    const cut = shown.at(-1) === ELIDED;
    const head = cut ? shown.slice(0, -1) : shown;
    if (cut ? real.length < head.length : real.length !== head.length) return `${at}: ${real.length} items, ${head.length} shown`;
    for (const [i, item] of head.entries()) {
      const difference = elidedDifference(item, real[i], `${at}[${i}]`);
      if (difference !== null) return difference;
    }
    return null;
  }
  if (shown !== null && typeof shown === 'object') {
    if (real === null || typeof real !== 'object' || Array.isArray(real)) return `${at}: not an object`;
    const keys = Object.keys(shown);
    if (JSON.stringify(keys) !== JSON.stringify(Object.keys(real))) return `${at}: keys ${Object.keys(real).join(',')}, shown ${keys.join(',')}`;
    for (const key of keys) {
      const difference = elidedDifference((shown as Record<string, unknown>)[key], (real as Record<string, unknown>)[key], `${at}.${key}`);
      if (difference !== null) return difference;
    }
    return null;
  }
  return Object.is(shown, real) ? null : `${at}: shown ${JSON.stringify(shown)}, real ${JSON.stringify(real)}`;
}

/**
 * Why an answer holds nothing, or null: a list with no record (`count`, `numberMatched`, no
 * `features`), a CSV of its header alone, an empty body. A reader trying an example expects something.
 */
function emptyAnswer(contentType: string, text: string): string | null {
  if (text.length === 0) return 'an empty body';
  if (contentType.startsWith('text/csv')) return text.trim().split('\n').length < 2 ? 'a CSV of its header alone' : null;
  if (!/^application\/(geo\+)?json/.test(contentType)) return null;
  const body = JSON.parse(text) as { count?: unknown; numberMatched?: unknown; features?: unknown };
  if (typeof body.count === 'number' && body.count === 0) return 'count 0';
  if (typeof body.numberMatched === 'number' && body.numberMatched === 0) return 'numberMatched 0';
  if (Array.isArray(body.features) && body.features.length === 0) return 'no features';
  return null;
}

/**
 * The demo pictures the IIIF examples show, as `npm start` draws them under its media folder:
 * a picture's by its id, a building's every picture (drawing all of the demo's takes seconds).
 */
function picturesShown(catalogue: Catalogue, urls: string[]) {
  const pictures = new Set(urls.flatMap((url) => [.../\/iiif\/(?:3|pictures)\/(\d+)\//.exec(url)?.slice(1) ?? []].map(Number)));
  const buildings = new Set(urls.flatMap((url) => [.../\/iiif\/places\/(\d+)\//.exec(url)?.slice(1) ?? []].map(Number)));
  return catalogue.images
    .filter((image) => pictures.has(image.id) || buildings.has(image.feature))
    .map((image) => ({ kind: 'photo' as const, file: image.file, title: image.title }));
}

/** Every page's example requests, each once (a page shows some of another's again). */
function allExampleUrls(): string[] {
  return [...new Set(PAGES.flatMap((page) => exampleUrls(page.text)))];
}

describe('the examples of README and docs/ on npm start\'s demo catalogue', () => {
  let t: TestApp;
  /** Asked as npm start's server is, so that links in answers are the docs'. */
  const get = (url: string) => {
    const { pathname, search } = new URL(url);
    return t.request(`${pathname}${search}`, { headers: { host: new URL(LOCAL).host } });
  };

  before(async () => {
    await ensureWebBuilt(); // `npm start` builds the map page, which the docs link to
    const catalogue = generateDemoCatalogue(INIT_DEMO);
    const media = temporaryDir();
    writePictures(picturesShown(catalogue, allExampleUrls()), media);
    t = await startTestApp({ catalogue, settings: { mediaRoot: media } });
  });
  after(() => t?.close());

  test('the examples are found: the set-up, the API, the web page, finding things, GIS, the map', () => {
    const urls = allExampleUrls();
    assert.ok(urls.length >= MIN_EXAMPLES, `${urls.length} examples, at least ${MIN_EXAMPLES} expected`);
    for (const known of [`${LOCAL}/api/docs/`, `${LOCAL_API}/features/?q=synag`, `${LOCAL_API}/features/?q=synagogue&page_size=10`, `${LOCAL}/iiif/places/48/manifest.json`, `${LOCAL}/iiif/3/733/600,200,400,300/200,/0/default.jpg`]) assert.ok(urls.includes(known), known);
    const usingBase = PAGES.filter((page) => /\$API\//.test(page.text));
    assert.ok(usingBase.length >= 1);
    for (const page of usingBase) assert.match(page.text, /^API=http:\/\/127\.0\.0\.1:8000\/api\/v1$/m, `${page.path} uses $API without saying what it is`);
  });

  test('each answers 2xx, and each list finds records', async () => {
    for (const url of allExampleUrls()) {
      const answer = await get(url);
      assert.ok(answer.status >= 200 && answer.status < 300, `${url}: ${answer.status} ${answer.text.slice(0, 200)}`);
      const emptiness = emptyAnswer(String(answer.headers['content-type']), answer.text);
      assert.equal(emptiness, null, `${url}: ${emptiness}`);
      // A map URL's selected feature must exist too.
      const feature = /[#&]feature=(\d+)/.exec(new URL(url).hash)?.[1];
      if (feature !== undefined) assert.equal((await get(`${LOCAL_API}/features/${feature}/`)).status, 200, url);
    }
  });

  test('an answer shown is the real one', async () => {
    const shown = PAGES.flatMap((page) => shownAnswers(page.text));
    assert.ok(shown.length >= 1);
    for (const { url, answer } of shown) {
      const real = await get(url);
      assert.equal(real.status, 200, url);
      assert.equal(elidedDifference(answer, real.json()), null, url);
    }
  });

  test('each example of the OpenAPI document\'s parameters finds records in the first collection that takes it', async () => {
    const document = (await get(`${LOCAL_API}/openapi.json`)).json();
    const found = new Set<string>();
    for (const collection of ['features', 'images', 'documents', 'media']) {
      for (const { $ref } of document.paths[`/api/v1/${collection}/`].get.parameters) {
        const name = String($ref).split('/').pop()!;
        for (const example of document.components.parameters[name].schema.examples ?? []) {
          const answer = await get(`${LOCAL_API}/${collection}/?${new URLSearchParams({ [name]: String(example) })}`);
          assert.equal(answer.status, 200, `${collection} ${name}=${example}`);
          if (!found.has(name)) assert.ok(answer.json().count > 0, `${collection} ${name}=${example}: nothing found`);
          found.add(name);
        }
      }
    }
    assert.ok(found.size >= 12, [...found].join());
  });

  test('an empty answer is caught, whatever its format', () => {
    assert.equal(emptyAnswer('text/csv; charset=utf-8', 'id,title\r\n'), 'a CSV of its header alone');
    assert.equal(emptyAnswer('text/csv; charset=utf-8', 'id,title\r\n1,a\r\n'), null);
    assert.equal(emptyAnswer('application/geo+json', '{"type":"FeatureCollection","numberMatched":0,"features":[]}'), 'numberMatched 0');
    assert.equal(emptyAnswer('application/json', '{"count":0,"results":[]}'), 'count 0');
    assert.equal(emptyAnswer('application/geo+json', '{"type":"FeatureCollection","features":[]}'), 'no features');
    assert.equal(emptyAnswer('application/geopackage+sqlite3', ''), 'an empty body');
  });

  test('the comparison does catch a wrong answer', () => {
    const real = { count: 2, results: [{ id: 1, a: [1, 2, 3] }, { id: 2 }] };
    assert.equal(elidedDifference({ count: 2, results: [{ id: 1, a: [1, ELIDED] }, ELIDED] }, real), null);
    assert.match(String(elidedDifference({ count: 3, results: [ELIDED] }, real)), /\$\.count: shown 3, real 2/);
    assert.match(String(elidedDifference({ count: 2, results: [{ id: 1, a: [1, 2] }, ELIDED] }, real)), /\$\.results\[0\]\.a: 3 items/);
    assert.match(String(elidedDifference({ count: 2, results: [{ a: [ELIDED], id: 1 }, ELIDED] }, real)), /keys/);
  });
});
