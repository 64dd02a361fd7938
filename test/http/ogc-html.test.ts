// The /ogc/ pages for people (issue 19): every resource in HTML (f=html, or a browser's
// Accept), JSON clients untouched by the negotiation, the record page of a building with
// its facts, footprint, pictures, sanitised documents, media, links and JSON-LD; text of the
// catalogue always escaped; /sitemap.xml listing exactly the published records; robots.txt.
// Expected content comes from the test catalogue, never from our renderers.
// On both stores (test/postgres/ twin).
import { escaped, jsonLd, mediaPath as mediaPathUnder } from '../support/html-text.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { RAW_ALLOWED } from '../../src/pages/templates.js';
import { sanitiseDocument } from '../../src/pages/sanitise.js';
import { CONTRIBUTE_PAGES } from '../../src/render/contribute/templates.js';
import { EDIT_CHANGE_PAGES } from '../../src/render/edit/templates.js';
import { EDIT_RECORD_PAGES } from '../../src/render/edit/record-templates.js';
import { OGC_PAGES } from '../../src/render/ogc/html/templates.js';
import { SITE_PAGES } from '../../src/render/site/templates.js';
import { sitemapDocument } from '../../src/http/site/sitemap.js';
import { buildTestCatalogue, FEATURE_COUNT } from '../support/catalogue.js';
import { IN_PROCESS_ORIGIN, startTestApp, type TestApp } from '../support/in-process.js';
import { startTestServer } from '../support/server.js';

const O = IN_PROCESS_ORIGIN;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const HTML = 'text/html; charset=utf-8';
const HOSTILE_NAME = '<script>window.__x=1</script> Hall & "Co"';
const HOSTILE_BODY = '<p>Kept <strong>bold</strong> and <em>em</em>[^1] <a href="javascript:alert(1)">bad link</a> <a href="https://example.org/x?a=1&b=2" onclick="alert(2)">good link</a></p>'
  + '<img src=x onerror="alert(3)"><script>alert(4)</script><style>p{}</style><iframe src="https://evil.test"></iframe>'
  + '<p onmouseover="alert(5)">[^1]: The note.</p><!-- <script>alert(6)</script> --><svg><script>alert(7)</script></svg>'
  // Links that read as relative but lead to another host (a browser reads \\ as / in http(s) URLs).
  + '<p><a href="//evil.example/">one</a> <a href="/\\evil.example/">two</a> <a href="\\\\evil.example/">three</a> <a href="/ogc/">home</a></p>';

function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  // Feature 5: a hostile name, and a document trying every way to run a script.
  Object.assign(c.features.find((f) => f.id === 5)!, { b_name: HOSTILE_NAME });
  c.documents.push({ id: 980, feature: 5, author: 5, title: 'Hostile <b>title</b>', body: HOSTILE_BODY, created: '2018-01-01', last_edited: '2018-01-02', published: true } as Catalogue['documents'][number]);
  return c;
}

const mediaPath = (p: string) => mediaPathUnder(O, p);


function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
}

describe('OGC pages for people', () => {
  const cat = catalogue();
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ catalogue: cat });
  });
  after(async () => app?.close());

  const page = async (path: string, accept?: string) => {
    const answer = await app.request(path, accept === undefined ? {} : { headers: { accept } });
    assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
    assert.equal(answer.headers['content-type'], HTML, path);
    const csp = String(answer.headers['content-security-policy']);
    // A picture's page runs its deep-zoom viewer, a script of this server's; no other page runs any.
    const picture = path.startsWith('/ogc/collections/images/items/');
    assert.match(csp, picture ? /script-src 'self';/ : /script-src 'none'/, path);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, path);
    // The only script elements are the JSON-LD data block and a picture's viewer (when the viewers are built).
    for (const tag of scriptTags(answer.text)) {
      const viewer = picture && /^<script type="module" src="http:\/\/[^/"]+\/iiif\/viewer\/picture-viewer-[A-Z0-9]+\.js">$/.test(tag);
      if (!viewer) assert.equal(tag, '<script type="application/ld+json">', path);
    }
    assert.match(answer.text, /^<!doctype html>/);
    assert.match(answer.text, /<main id="main"/);
    return answer;
  };

  test('every resource answers a page with f=html: landing, conformance, collections, a collection, items, an item', async () => {
    const landing = await page('/ogc/?f=html');
    for (const title of ['Buildings and places', 'Images', 'Documents', 'Media']) assert.ok(landing.text.includes(`>${title}</a>`), title);
    const conformance = await page('/ogc/conformance?f=html');
    assert.ok(conformance.text.includes('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html'));
    const collections = await page('/ogc/collections?f=html');
    for (const id of ['features', 'images', 'documents', 'media']) assert.ok(collections.text.includes(`href="${O}/ogc/collections/${id}/items"`), id);
    const collection = await page('/ogc/collections/features?f=html');
    assert.match(collection.text, /<svg viewBox="[\d. ]+" role="img"/, 'the extent on a small map');
    // Its extent: the features' box, computed from the catalogue.
    const lons = cat.features.flatMap((f) => f.geometry.coordinates.flatMap((p) => p[0]!.map((c) => c[0]!)));
    assert.ok(collection.text.includes(String(Math.min(...lons))), 'the western bound');
    const items = await page('/ogc/collections/features/items?limit=7&f=html');
    assert.ok(items.text.includes(`7 shown of ${FEATURE_COUNT} matching.`));
    const ids = cat.features.map((f) => f.id).sort((a, b) => a - b);
    for (const id of ids.slice(0, 7)) assert.ok(items.text.includes(`href="${O}/ogc/collections/features/items/${id}"`), `row ${id}`);
    assert.ok(!items.text.includes(`href="${O}/ogc/collections/features/items/${ids[7]}"`), 'only this page');
    assert.equal((items.text.match(/<path d=/g) ?? []).length, 7, 'the page on its map');
    const next = /<a rel="next" href="([^"]+)"/.exec(items.text)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(next?.includes('f=html') && next.includes('after='), 'a next link to the next page');
    const second = await page(next!.slice(O.length));
    for (const id of ids.slice(7, 14)) assert.ok(second.text.includes(`/items/${id}"`), `second page row ${id}`);
    assert.match(second.text, /<a rel="prev" href=/);
    for (const c of ['images', 'documents', 'media']) await page(`/ogc/collections/${c}/items?f=html`);
  });

  test("a building's record page: facts, footprint, pictures, documents, media, links, JSON-LD", async () => {
    const f1 = cat.features.find((f) => f.id === 1)!;
    const { text, headers } = await page('/ogc/collections/features/items/1?f=html');
    assert.ok(headers.etag);
    const categories = f1.categories.map((id) => cat.categories.find((c) => c.id === id)!.name);
    assert.ok(text.includes(`<dd>${escaped(f1.address)}</dd>`));
    assert.ok(text.includes(`<h1>${escaped(f1.b_name!)}</h1>`));
    for (const name of categories) assert.match(text, new RegExp(`<a href="${O}/search/\\?category=\\d+">${escaped(name)}</a>`), `category ${name}, linked to its search`);
    assert.ok(text.includes(`<dd>${escaped(cat.sites[0]!.name)}</dd>`), 'site');
    assert.ok(text.includes(`<title>${escaped(`${f1.b_name}, ${f1.address}`)} · Histories of Whitechapel</title>`));
    // Its two parts (three rings) on the map: one path with three subpaths.
    const d = /<path class="self" d="([^"]+)" fill-rule="evenodd"\/>/.exec(text)?.[1];
    assert.equal(d?.split('M').length, 4, 'three rings drawn');
    const images = cat.images.filter((i) => i.feature === 1);
    for (const image of images) {
      const shown = text.includes(`<img src="${escaped(mediaPath(image.file))}" alt="${escaped(image.title)}"`);
      assert.equal(shown, image.published, `image ${image.id} shown only when published`);
    }
    assert.ok(text.includes(`<a href="${O}/pictures/7/"><img`), "a thumbnail links to the picture's page");
    const doc = cat.documents.find((x) => x.id === 971)!;
    assert.ok(text.includes(escaped(doc.title)));
    assert.ok(text.includes('<strong>1898</strong>'));
    assert.match(text, /<a href="#d971-fn-1" id="d971-ref-1"[^>]*>1<\/a>/, 'footnote marker linked');
    assert.match(text, /<p id="d971-fn-1"[^>]*><a href="#d971-ref-1"[^>]*>1\.<\/a> Survey of London drawings\.<\/p>/, 'footnote back');
    const media = cat.media.filter((m) => m.feature === 1);
    for (const m of media) assert.equal(text.includes(escaped(m.title)), m.published, `media ${m.id}`);
    assert.ok(text.includes(`href="${escaped(media[0]!.url)}"`));
    assert.ok(text.includes(`href="${O}/api/v1/features/1/"`));
    assert.ok(text.includes(`href="${O}/ogc/collections/features/items/1?f=json"`));
    assert.match(text, new RegExp(`href="${O.replace(/\./g, '\\.')}/#map=18/51\\.\\d+/-0\\.\\d+&amp;feature=1"`), 'the map explorer centred on it');
    assert.ok(text.includes(`<link rel="canonical" href="${O}/places/1/">`));
    assert.ok(text.includes(`<meta property="og:title" content="${escaped(f1.b_name!)}">`));
    assert.ok(text.includes(`<meta property="og:image" content="${escaped(mediaPath(images[0]!.file))}">`));
    const graph = jsonLd(text);
    assert.equal(graph['@context'], 'https://schema.org');
    const ld = graph['@graph'][0];
    assert.equal(ld['@type'], 'LandmarksOrHistoricalBuildings');
    assert.equal(ld.name, f1.b_name);
    assert.equal(ld.address.streetAddress, `${f1.b_number} ${f1.street}`);
    assert.equal(ld.address.postalCode, f1.postcode);
    assert.deepEqual(ld.image, images.filter((i) => i.published).map((i) => mediaPath(i.file)));
    const coords = f1.geometry.coordinates.flatMap((p) => p[0]!);
    const [lons, lats] = [coords.map((c) => c[0]!), coords.map((c) => c[1]!)];
    assert.ok(ld.geo.longitude >= Math.min(...lons) && ld.geo.longitude <= Math.max(...lons));
    assert.ok(ld.geo.latitude >= Math.min(...lats) && ld.geo.latitude <= Math.max(...lats));
    const conditional = await app.request('/ogc/collections/features/items/1?f=html', { headers: { 'if-none-match': String(headers.etag) } });
    assert.equal(conditional.status, 304);
  });

  test('images, documents and media have pages linking back to their building', async () => {
    for (const [collection, id, feature] of [['images', 9, 5], ['documents', 971, 1], ['media', 4, 1]] as const) {
      const { text } = await page(`/ogc/collections/${collection}/items/${id}?f=html`);
      assert.ok(text.includes(`href="${O}/places/${feature}/"`), `${collection} ${id}`);
    }
    const image = await page('/ogc/collections/images/items/9?f=html');
    const nine = cat.images.find((i) => i.id === 9)!;
    assert.ok(image.text.includes(`<img src="${escaped(mediaPath(nine.file))}" alt="${escaped(nine.title)}" width="1200" height="800">`));
    for (const [collection, id] of [['images', 8], ['documents', 972], ['media', 6]] as const) {
      assert.equal((await app.request(`/ogc/collections/${collection}/items/${id}?f=html`)).status, 404, `unpublished ${collection} ${id}`);
    }
  });

  test("record text is escaped; a document's markup is sanitised: no script, handler or javascript: URL", async () => {
    const { text } = await page('/ogc/collections/features/items/5?f=html');
    assert.ok(text.includes(`<h1>${escaped(HOSTILE_NAME)}</h1>`));
    assert.ok(text.includes(escaped('Hostile <b>title</b>')));
    assert.ok(!text.includes('window.__x'.concat('=1</script>')) || text.includes(escaped(HOSTILE_NAME)));
    assert.equal(text.match(/<script/gi)?.length, 1, 'only the JSON-LD block');
    for (const bad of ['onerror', 'onclick', 'onmouseover', 'javascript:', '<iframe', '<style', '<img src="x"', 'alert(', '<svg><script']) {
      assert.ok(!text.toLowerCase().includes(bad.toLowerCase()), `${bad} must not appear`);
    }
    assert.ok(text.includes('Kept <strong>bold</strong> and <em>em</em>'));
    assert.ok(text.includes('<a href="https://example.org/x?a=1&amp;b=2" rel="nofollow noopener noreferrer">good link</a>'));
    assert.ok(text.includes('<a>bad link</a>'), 'the link text kept, its javascript: href dropped');
    const external = 'rel="nofollow noopener noreferrer"';
    assert.ok(text.includes(`<p><a href="//evil.example/" ${external}>one</a> <a href="/\\evil.example/" ${external}>two</a> <a href="\\\\evil.example/" ${external}>three</a> <a href="/ogc/">home</a></p>`), 'links to another host get the external rel; a relative one does not');
    assert.match(text, /<p id="d980-fn-1"[^>]*>/, 'a footnote whose paragraph had a handler');
    const ld = jsonLd(text)['@graph'][0];
    assert.equal(ld.name, HOSTILE_NAME, 'JSON-LD holds the name as it is');
    assert.ok(!/<\/script/i.test(/<script type="application\/ld\+json">([^]*?)<\/script>/.exec(text)![1]!));
  });

  test('the sanitiser: an allow-list, rebuilt', () => {
    const cases: [string, string][] = [
      ['<p>a<b>b</b>c</p>', '<p>abc</p>'],
      ['<a href="/x" title="t">x</a>', '<a href="/x">x</a>'],
      ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="data:text/html,<script>">x</a>', '<a>x</a>'],
      ['<ul><li>one<li>two</ul>', '<ul><li>one<li>two</li></li></ul>'],
      ['<p>open', '<p>open</p>'],
      ['</p>stray', 'stray'],
      ['1 < 2 & 3 > 2 &amp; "q"', '1 &lt; 2 &amp; 3 &gt; 2 &amp; &quot;q&quot;'],
      // `<scr<script>` is read as one unknown tag (dropped); what is left is text.
      ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
      ['<p>a<br/>b<br>c</p>', '<p>a<br>b<br>c</p>'],
      ['<SCRIPT SRC=x></SCRIPT>t', 't'],
      ['<p/onclick=alert(1)>x</p>', '<p>x</p>'],
      // noscript is dropped up to its end tag, wherever that is: what follows is only text.
      ['<noscript><p title="</noscript><img src=x onerror=alert(1)>">', '&quot;&gt;'],
      // Where a browser goes decides the rel: another host (however the href is spelt) gets it.
      ['<a href="https://example.org/">x</a>', '<a href="https://example.org/" rel="nofollow noopener noreferrer">x</a>'],
      ['<a href="//evil.example/">x</a>', '<a href="//evil.example/" rel="nofollow noopener noreferrer">x</a>'],
      ['<a href="/\\evil.example/">x</a>', '<a href="/\\evil.example/" rel="nofollow noopener noreferrer">x</a>'],
      ['<a href="\\\\evil.example/">x</a>', '<a href="\\\\evil.example/" rel="nofollow noopener noreferrer">x</a>'],
      ['<a href="\\/evil.example/">x</a>', '<a href="\\/evil.example/" rel="nofollow noopener noreferrer">x</a>'],
      ['<a href="///evil.example/">x</a>', '<a href="///evil.example/" rel="nofollow noopener noreferrer">x</a>'],
      // A tab inside a URL is ignored by browsers (and taken out): `/\t/x` is `//x`.
      ['<a href="/&#9;/evil.example/">x</a>', '<a href="//evil.example/" rel="nofollow noopener noreferrer">x</a>'],
      ['<a href="/%5Cevil.example/">x</a>', '<a href="/%5Cevil.example/">x</a>'],
      ['<a href="#n">x</a><a href="x/y?a=1">y</a>', '<a href="#n">x</a><a href="x/y?a=1">y</a>'],
      // No URL a browser could follow (a port past 65535, an unclosed IPv6 host): no href.
      ['<a href="//evil.example:99999/">x</a>', '<a>x</a>'],
      ['<a href="http://[::1/">x</a>', '<a>x</a>'],
    ];
    for (const [input, expected] of cases) assert.equal(sanitiseDocument(input, 'd1'), expected, input);
  });

  test('every raw interpolation in a template is an include, the JSON-LD or a sanitised body', () => {
    let raw = 0;
    const templates = { ...OGC_PAGES.templates, ...SITE_PAGES.templates, ...CONTRIBUTE_PAGES.templates, ...EDIT_RECORD_PAGES.templates, ...EDIT_CHANGE_PAGES.templates };
    for (const [name, text] of Object.entries(templates)) {
      for (const match of text.matchAll(/<%~\s*([^]*?)\s*%>/g)) {
        raw++;
        assert.ok(RAW_ALLOWED.some((r) => r.test(match[1]!)), `${name}: raw ${match[1]}`);
      }
      assert.doesNotMatch(text, /<%-/, name);
    }
    assert.ok(raw >= 10);
  });

  test('negotiation: a browser gets the page, JSON clients JSON, both with Vary: Accept', async () => {
    const path = '/ogc/collections/features/items?limit=3';
    const browser = await page(path, BROWSER_ACCEPT);
    assert.match(String(browser.headers.vary), /\bAccept\b/);
    for (const accept of [undefined, 'application/json', 'application/geo+json, application/json;q=0.9', '*/*', 'application/json, text/html;q=0.5', 'text/html;q=0.5, application/json']) {
      const answer = await app.request(path, accept === undefined ? {} : { headers: { accept } });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'application/geo+json', String(accept));
      assert.match(String(answer.headers.vary), /\bAccept\b/);
      assert.equal(answer.json().numberReturned, 3);
    }
    // Cached twice under one URL: the JSON answer is still JSON after the page was sent.
    assert.equal((await app.request(path, { headers: { accept: 'application/json' } })).headers['content-type'], 'application/geo+json');
    assert.equal((await app.request(path, { headers: { accept: BROWSER_ACCEPT } })).headers['content-type'], HTML);
    // f wins over Accept.
    const json = await app.request('/ogc/?f=json', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(json.headers['content-type'], 'application/json');
    assert.equal((await app.request('/ogc/?f=xml')).status, 400);
    assert.equal((await app.request('/ogc/collections/features/queryables?f=html')).status, 400, 'schemas have no page');
    assert.equal((await app.request('/ogc/collections/features/queryables', { headers: { accept: BROWSER_ACCEPT } })).headers['content-type'], 'application/schema+json');
  });

  test('JSON resources link their pages (alternate, text/html); the html conformance class is declared', async () => {
    const conformance = (await app.request('/ogc/conformance')).json();
    assert.ok(conformance.conformsTo.includes('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html'));
    for (const path of ['/ogc/', '/ogc/collections', '/ogc/collections/images', '/ogc/collections/images/items?limit=2', '/ogc/collections/features/items/3']) {
      const body = (await app.request(path)).json();
      const alternate = body.links.find((l: any) => l.rel === 'alternate' && l.type === 'text/html');
      assert.ok(alternate, path);
      const target = await page(alternate.href.slice(O.length));
      assert.ok(target.text.includes('type="application/json"'), `${path}: the page links its JSON`);
    }
  });

  test('/sitemap.xml lists the home, the search and exactly the published records\' pages; robots.txt points to it', async () => {
    const answer = await app.request('/sitemap.xml');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/xml; charset=utf-8');
    assert.match(answer.text, /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    const listed = [...answer.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!).sort();
    const segment = { images: 'pictures', documents: 'documents', media: 'videos' } as const;
    const expected = [
      `${O}/about/`, `${O}/search/`,
      ...cat.features.map((f) => `${O}/places/${f.id}/`),
      ...(['images', 'documents', 'media'] as const).flatMap((c) => cat[c].filter((r) => r.published).map((r) => `${O}/${segment[c]}/${r.id}/`)),
    ].sort();
    assert.deepEqual(listed, expected);
    const robots = await app.request('/robots.txt');
    assert.equal(robots.status, 200);
    assert.match(robots.headers['content-type']!, /^text\/plain/);
    assert.match(robots.text, new RegExp(`^Sitemap: ${O.replace(/\./g, '\\.')}/sitemap\\.xml$`, 'm'));
    assert.equal((await app.request('/sitemaps/1.xml')).status, 200, 'part 1 is the whole list at this size');
    assert.equal((await app.request('/sitemaps/2.xml')).status, 404);
  });

  test('past the limit of one sitemap, /sitemap.xml is an index of parts holding every URL once', () => {
    const urls = Array.from({ length: 7 }, (_, i) => `${O}/ogc/collections/features/items/${i + 1}`);
    const locs = (xml: string | null) => [...(xml ?? '').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const index = sitemapDocument(urls, null, O, 3)!;
    assert.match(index, /<sitemapindex /);
    assert.deepEqual(locs(index), [1, 2, 3].map((n) => `${O}/sitemaps/${n}.xml`));
    assert.deepEqual([1, 2, 3].flatMap((n) => locs(sitemapDocument(urls, n, O, 3))), urls);
    assert.equal(sitemapDocument(urls, 4, O, 3), null);
    assert.match(sitemapDocument(urls, null, O, 7)!, /<urlset /);
  });

  test('the style sheet is ours, and the pages load nothing from elsewhere', async () => {
    const css = await app.request('/ogc/style.css');
    assert.equal(css.status, 200);
    assert.match(css.headers['content-type']!, /^text\/css/);
    assert.match(css.text, /@media \(max-width/);
    const { text } = await page('/ogc/collections/features/items/1?f=html');
    for (const m of text.matchAll(/(?:src|href)="([^"#][^"]*)"/g)) {
      const url = m[1]!.replaceAll('&amp;', '&');
      if (url.startsWith(O)) continue;
      // Only the media link of the catalogue and the licence point elsewhere, and they are links, not loads.
      assert.ok(cat.media.some((x) => x.url === url) || url === 'https://creativecommons.org/licenses/by-nc/4.0/', `a reference outside the server: ${url}`);
    }
    assert.doesNotMatch(text, /<(?:img|link)[^>]+(?:src|href)="https?:\/\/(?!127\.0\.0\.1:9)/);
  });
});

test('on a socket, with the fast path for repeats: one URL keeps giving JSON to JSON clients and the page to browsers', async () => {
  const server = await startTestServer({ catalogue: catalogue() });
  try {
    const path = '/ogc/collections/features/items/1';
    for (let round = 0; round < 3; round++) {
      for (const [accept, type] of [['application/json', 'application/geo+json'], [BROWSER_ACCEPT, HTML], [undefined, 'application/geo+json']] as const) {
        const answer = await server.request(path, accept === undefined ? {} : { headers: { accept } });
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['content-type'], type, `round ${round}, Accept ${accept}`);
        assert.match(String(answer.headers.vary), /\bAccept\b/);
        if (type === HTML) assert.match(String(answer.headers['content-security-policy']), /script-src 'none'/);
      }
    }
  } finally {
    await server.close();
  }
});
