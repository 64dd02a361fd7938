// The visitors' site (issue 36): the home (/about/), the search (/search/) finding what
// /api/v1/ finds, each record's canonical page answering the page whatever the Accept, the
// record page's surroundings (neighbours, streets, nearby), licences, credits, citation, last
// change and structured data, error pages for browsers (JSON for everyone else), the icon,
// a description on every page, and the site's texts from settings. Expected values come from
// the test catalogue, computed here. On both stores (test/postgres/ twin).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { escaped, unescaped, jsonLd, metaDescription, mediaPath as mediaPathUnder } from '../support/html-text.js';
import { buildTestCatalogue, largeCatalogue } from '../support/catalogue.js';
import { IN_PROCESS_ORIGIN, startTestApp, type TestApp } from '../support/in-process.js';

const O = IN_PROCESS_ORIGIN;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const HTML = 'text/html; charset=utf-8';
const mediaPath = (p: string) => mediaPathUnder(O, p);



/** A footprint's box centre and the metres between two [lon, lat] points (equirectangular, as short distances allow). */
function centre(f: Feature): [number, number] {
  const coords = f.geometry.coordinates.flatMap((p) => p[0]!);
  const lons = coords.map((c) => c[0]!), lats = coords.map((c) => c[1]!);
  return [(Math.min(...lons) + Math.max(...lons)) / 2, (Math.min(...lats) + Math.max(...lats)) / 2];
}
function metres(a: [number, number], b: [number, number]): number {
  const k = Math.cos((a[1] * Math.PI) / 180);
  return Math.hypot((b[0] - a[0]) * k, b[1] - a[1]) * 111_320;
}

function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  // A second street and category, so that browsing narrows to something smaller than the whole.
  for (const f of c.features.filter((x) => x.id > 70)) Object.assign(f, { street: 'Old Montague Street', address: `${f.id} Old Montague Street` });
  Object.assign(c.features.find((f) => f.id === 11)!, { categories: [3] });
  // Years over two centuries, for the periods.
  for (const f of c.features) if (f.id % 4 === 1) f.current = 1780 + f.id * 3;
  return c;
}

describe('the site for visitors', () => {
  const cat = catalogue();
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ catalogue: cat });
  });
  after(async () => app?.close());

  const page = async (path: string, accept: string | undefined = BROWSER_ACCEPT) => {
    const answer = await app.request(path, accept === undefined ? {} : { headers: { accept } });
    assert.equal(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
    assert.equal(answer.headers['content-type'], HTML, path);
    // No page runs a script but a picture's, whose deep-zoom viewer is this server's script.
    assert.match(String(answer.headers['content-security-policy']), /^\/pictures\//.test(path) ? /script-src 'self';/ : /script-src 'none'/, path);
    assert.ok(metaDescription(answer.text), `${path}: a meta description`);
    assert.ok(answer.text.includes(`<link rel="icon" href="${O}/favicon.svg" type="image/svg+xml">`), `${path}: the icon`);
    return answer;
  };

  test('/about/ is the home: what the catalogue is, a search box, categories, periods and streets to browse, the data', async () => {
    const { text } = await page('/about/');
    assert.ok(text.includes('<h1>Histories of Whitechapel</h1>'));
    assert.match(text, new RegExp(`<form class="searchbox" role="search" action="${O}/search/" method="get">`));
    assert.ok(text.includes('<label for="q">Search the catalogue</label>'));
    for (const category of cat.categories) {
      const count = cat.features.filter((f) => f.categories.includes(category.id)).length;
      assert.ok(text.includes(`<a href="${O}/search/?category=${category.id}">${escaped(category.name)}</a> <span class="muted">${count}</span>`), category.name);
    }
    const streets = new Map<string, number>();
    for (const f of cat.features) if (f.street) streets.set(f.street, (streets.get(f.street) ?? 0) + 1);
    for (const [street, count] of streets) assert.ok(text.includes(`<a href="${O}/search/?street=${encodeURIComponent(street).replaceAll('%20', '%20')}">${street}</a> <span class="muted">${count}</span>`), street);
    // Periods: bands over the years the catalogue holds, each linking a search of its years, none empty.
    const years = cat.features.map((f) => f.current).filter((y): y is number => y !== null);
    const bands = [...text.matchAll(/<a href="[^"]+\/search\/\?from=(-?\d+)&amp;to=(-?\d+)">/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    assert.ok(bands.length >= 1);
    for (const [from, to] of bands) assert.ok(years.some((y) => y >= from && y <= to), `${from}–${to} holds a building`);
    for (const y of years) assert.ok(bands.some(([from, to]) => y >= from && y <= to), `${y} is in a band`);
    for (const href of ['/api/v1/', '/ogc/', '/api/docs/', '/ogc/collections/features/items?f=gpkg', '/tiles/features.json', '/']) {
      assert.ok(text.includes(`href="${O}${href.replaceAll('&', '&amp;')}"`), href);
    }
    assert.equal((await app.request('/about')).status, 301);
  });

  test('/search/ finds what /api/v1/features/ finds, a page at a time, with cards and the matches on a small map', async () => {
    const apiIds = (body: any) => body.results.features.map((r: { id: number }) => r.id);
    const ids = (html: string) => [...html.matchAll(/<li class="result">[^]*?<h2><a href="[^"]+\/places\/(\d+)\/">/g)].map((m) => Number(m[1]));
    const api = (await app.request('/api/v1/features/?q=osborn')).json();
    const first = await page('/search/?q=osborn');
    assert.deepEqual(ids(first.text), apiIds(api));
    assert.ok(first.text.includes(`${api.count} buildings and places match “osborn”.`));
    assert.equal((first.text.match(/<path d=/g) ?? []).length, apiIds(api).length, 'the page\'s results on its map');
    const next = /<a rel="next" href="([^"]+)">/.exec(first.text)![1]!;
    assert.equal(unescaped(next), `${O}/search/?q=osborn&page=2`);
    const apiSecond = (await app.request('/api/v1/features/?q=osborn&page=2')).json();
    assert.deepEqual(ids((await page('/search/?q=osborn&page=2')).text), apiIds(apiSecond));
    // Each filter, against the catalogue.
    const street = cat.features.filter((f) => f.street === 'Old Montague Street').map((f) => f.id).sort((a, b) => a - b);
    assert.deepEqual(ids((await page('/search/?street=Old+Montague+Street')).text), street);
    const pubs = cat.features.filter((f) => f.categories.includes(3)).map((f) => f.id).sort((a, b) => a - b);
    const pubsPage = await page('/search/?category=3');
    assert.deepEqual(ids(pubsPage.text), pubs);
    assert.ok(pubsPage.text.includes('in the category Pubs (<a href='), 'what the search is narrowed by, with a way out');
    const years = cat.features.filter((f) => f.current !== null && f.current >= 1810 && f.current <= 1830).map((f) => f.id).sort((a, b) => a - b);
    assert.deepEqual(ids((await page('/search/?from=1810&to=1830')).text), years);
    // The card: name or address, year, categories, the first published picture.
    const one = await page('/search/?q=electricity');
    assert.ok(one.text.includes(`<img src="${escaped(mediaPath(cat.images.find((i) => i.id === 7)!.file))}" alt="" width="96" height="64" loading="lazy">`));
    assert.ok(one.text.includes('Former Whitechapel electricity-generating station</a></h2>'));
    // Refusals name the field; a page past the last is not found.
    const bad = await app.request('/search/?from=abc', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers['content-type'], HTML);
    assert.ok(bad.text.includes('The year from of the search must be a year such as 1850.'));
    const badJson = await app.request('/search/?from=1900&to=1800');
    assert.equal(badJson.status, 400);
    assert.deepEqual(badJson.json(), { detail: 'The year range of the search must be from a year to the same or a later one.' });
    assert.equal((await app.request('/search/?q=osborn&page=99')).status, 404);
    assert.ok((await page('/search/?utm_source=x')).text.includes(`${cat.features.length} buildings and places.`), 'other parameters are ignored');
  });

  test('a search page is cached by its checked fields: another order, blanks or a tracking parameter is the same page', async () => {
    const hits = async () => Number(/^heritage_answer_cache_hits_total (\d+)$/m.exec((await app.request('/metrics')).text)![1]);
    const first = await page('/search/?q=brick&street=Old+Montague+Street');
    const before = await hits();
    const same = ['/search/?street=Old+Montague+Street&q=brick', '/search/?q=brick&street=Old+Montague+Street&utm_source=x&from=', '/search/?q=+brick+&street=Old%20Montague%20Street&page=1'];
    for (const path of same) assert.equal((await page(path)).text, first.text, path);
    assert.equal((await hits()) - before, same.length, 'each from the cache');
    await page('/search/?q=brick');
    assert.equal((await hits()) - before, same.length, 'another search is made, not found');
  });

  test("a record's canonical URL answers the page to every client; the data keeps its URLs", async () => {
    for (const accept of [BROWSER_ACCEPT, '*/*', undefined, 'application/json']) {
      const { text } = await page('/places/1/', accept);
      assert.ok(text.includes(`<link rel="canonical" href="${O}/places/1/">`), String(accept));
      assert.ok(text.includes(`<meta property="og:url" content="${O}/places/1/">`));
    }
    for (const [path, canonical] of [['/pictures/7/', '/pictures/7/'], ['/documents/971/', '/documents/971/'], ['/videos/4/', '/videos/4/']]) {
      assert.ok((await page(path!, '*/*')).text.includes(`<link rel="canonical" href="${O}${canonical}">`), path);
    }
    // The OGC item's page is the same page, pointing at the canonical URL; its JSON is untouched.
    const ogc = await page('/ogc/collections/features/items/1?f=html');
    assert.ok(ogc.text.includes(`<link rel="canonical" href="${O}/places/1/">`));
    assert.equal((await app.request('/ogc/collections/features/items/1')).headers['content-type'], 'application/geo+json');
    assert.equal((await app.request('/places/1')).headers.location, '/places/1/');
    for (const path of ['/places/2/', '/places/abc/', '/pictures/8/', '/documents/972/', '/videos/6/']) {
      assert.equal((await app.request(path)).status, 404, `${path}: no such published record`);
    }
    // The sitemap lists the home, the search and every canonical page.
    const sitemap = await app.request('/sitemap.xml');
    const listed = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!).sort();
    const expected = [
      `${O}/about/`, `${O}/search/`,
      ...cat.features.map((f) => `${O}/places/${f.id}/`),
      ...cat.images.filter((r) => r.published).map((r) => `${O}/pictures/${r.id}/`),
      ...cat.documents.filter((r) => r.published).map((r) => `${O}/documents/${r.id}/`),
      ...cat.media.filter((r) => r.published).map((r) => `${O}/videos/${r.id}/`),
    ].sort();
    assert.deepEqual(listed, expected);
  });

  test('a record page shows where the building is: its neighbours, the street, the buildings nearby', async () => {
    const f1 = cat.features.find((f) => f.id === 1)!;
    const { text } = await page('/places/1/');
    const svg = /<figure class="context">([^]*?)<\/figure>/.exec(text)?.[1];
    assert.ok(svg, 'the small map');
    assert.equal((svg.match(/<path class="self"/g) ?? []).length, 1);
    const drawn = (svg.match(/<path class="neighbour"/g) ?? []).length;
    // At least 70 m of ground around its box: every footprint within 60 m of its centre is drawn, none past 200 m.
    const c1 = centre(f1);
    const others = cat.features.filter((f) => f.id !== 1).map((f) => metres(c1, centre(f)));
    assert.ok(drawn >= others.filter((m) => m < 60).length, `${drawn} drawn, ${others.filter((m) => m < 60).length} within 60 m`);
    assert.ok(drawn <= others.filter((m) => m < 200).length);
    assert.match(svg, /<text class="street"[^>]*>Osborn Street<\/text>/, 'the street named');
    // Nearby: the six nearest by their centres, nearest first.
    const nearest = cat.features.filter((f) => f.id !== 1).map((f) => ({ id: f.id, m: metres(c1, centre(f)) }))
      .sort((a, b) => a.m - b.m || a.id - b.id).slice(0, 6);
    const listed = [...(/<ul class="nearby">([^]*?)<\/ul>/.exec(text)?.[1] ?? '').matchAll(/\/places\/(\d+)\/">[^<]*<\/a> <span class="muted">(\d+) m ([a-z-]+)</g)];
    assert.deepEqual(listed.map((m) => Number(m[1])), nearest.map((n) => n.id));
    for (const [i, m] of listed.entries()) assert.ok(Math.abs(Number(m[2]) - nearest[i]!.m) <= 1, `${m[2]} m`);
  });

  test('a record page: licences, credits, dates, citation, last change and structured data in parts', async () => {
    const f1 = cat.features.find((f) => f.id === 1)!;
    const { text } = await page('/places/1/');
    assert.ok(text.includes('<a href="https://creativecommons.org/licenses/by-nc/4.0/" rel="license">CC BY-NC 4.0</a>'), 'the text\'s licence');
    const seven = cat.images.find((i) => i.id === 7)!;
    assert.ok(text.includes(`By surveyoflondon, ${seven.created} · Under copyright, © surveyoflondon: ask before reusing it`), 'a picture under copyright');
    assert.ok(text.includes(`written <time datetime="2016-06-22">2016-06-22</time>, last edited <time datetime="2017-02-21">2017-02-21</time>`), 'a document\'s dates, each named');
    const latest = ['2016-06-22', '2017-02-21', seven.created!].sort().pop()!;
    assert.ok(text.includes(`<dt>Last changed</dt><dd><time datetime="${latest}">${latest}</time></dd>`));
    const citation = /<p class="citation">([^<]+)<\/p>/.exec(text)?.[1];
    assert.equal(unescaped(citation!), `The Whitechapel heritage project (demo), “${f1.b_name}”, Histories of Whitechapel, ${O}/places/1/ (last changed ${latest}).`);
    const ld = jsonLd(text);
    assert.equal(ld['@context'], 'https://schema.org');
    const [thing, crumbs] = ld['@graph'];
    assert.equal(thing['@type'], 'LandmarksOrHistoricalBuildings');
    assert.deepEqual(thing.address, { '@type': 'PostalAddress', streetAddress: `${f1.b_number} ${f1.street}`, addressLocality: 'London', postalCode: f1.postcode, addressCountry: 'GB' });
    assert.equal(crumbs['@type'], 'BreadcrumbList');
    assert.deepEqual(crumbs.itemListElement.map((i: any) => [i.position, i.item]), [[1, `${O}/about/`], [2, `${O}/search/`], [3, `${O}/places/1/`]]);
    // A place is typed as a place; an area too.
    assert.equal(jsonLd((await page('/places/5/')).text)['@graph'][0]['@type'], 'Place');
    assert.equal(jsonLd((await page('/places/3/')).text)['@graph'][0]['@type'], 'Place');
    // Thumbnails show the whole picture.
    assert.doesNotMatch((await app.request('/ogc/style.css')).text, /object-fit:cover/);
  });

  test('a record page with pictures links them as a IIIF manifest and side by side; a picture page its own manifest', async () => {
    const type = escaped('application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"');
    const { text } = await page('/places/1/');
    assert.ok(text.includes(`<link rel="alternate" type="${type}" href="${O}/iiif/places/1/manifest.json" title="IIIF manifest">`), 'in the head');
    assert.ok(text.includes(`<a class="iiif" href="${O}/iiif/places/1/manifest.json" type="${type}">`), 'in the page');
    assert.ok(text.includes(`<a href="${O}/iiif/places/1/compare/">Compare its pictures side by side</a>`));
    const bare = (await page('/places/3/')).text;
    assert.ok(!bare.includes('/iiif/'), 'a building without pictures links neither');
    const picture = (await page('/pictures/9/')).text;
    assert.ok(picture.includes(`<link rel="alternate" type="${type}" href="${O}/iiif/pictures/9/manifest.json" title="IIIF manifest">`));
    // The OGC item's page is the same page, with the same policy; a building's item page runs no script.
    assert.match(String((await app.request('/ogc/collections/images/items/9?f=html')).headers['content-security-policy']), /script-src 'self';/);
    assert.match(String((await app.request('/ogc/collections/features/items/1?f=html')).headers['content-security-policy']), /script-src 'none'/);
  });

  test('picture, document and video pages: description, structured data, credit and licence', async () => {
    const image = await page('/pictures/9/');
    assert.ok(image.text.includes('width="1200" height="800"'), 'room kept for the picture while it loads');
    assert.ok(image.text.includes('<dt>Licence</dt><dd><a href="https://creativecommons.org/licenses/by-nc/4.0/" rel="license">CC BY-NC 4.0</a></dd>'));
    const ild = jsonLd(image.text)['@graph'][0];
    assert.equal(ild['@type'], 'ImageObject');
    assert.equal(ild.contentUrl, mediaPath(cat.images.find((i) => i.id === 9)!.file));
    assert.equal(ild.creator.name, 'zoë');
    assert.equal(ild.license, 'https://creativecommons.org/licenses/by-nc/4.0/');
    assert.equal(jsonLd((await page('/pictures/7/')).text)['@graph'][0].copyrightNotice, '© surveyoflondon');
    const doc = jsonLd((await page('/documents/971/')).text)['@graph'][0];
    assert.deepEqual([doc['@type'], doc.dateCreated, doc.dateModified, doc.author.name], ['Article', '2016-06-22', '2017-02-21', 'surveyoflondon']);
    const video = await page('/videos/4/');
    assert.equal(jsonLd(video.text)['@graph'][0]['@type'], 'VideoObject');
    assert.ok(metaDescription(video.text)!.includes('Walking Osborn Street'));
  });

  test('errors: a page for a browser, JSON for everyone else; /api/ always JSON', async () => {
    const missing = await app.request('/no/such/page', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], HTML);
    assert.ok(missing.text.includes('<h1>There is no such page</h1>'));
    assert.match(String(missing.headers['content-security-policy']), /script-src 'none'/);
    assert.deepEqual((await app.request('/no/such/page')).json(), { detail: 'Not found.' });
    const api = await app.request('/api/v1/features/999999/', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(api.status, 404);
    assert.equal(api.headers['content-type'], 'application/json');
    assert.equal(api.text, '{"detail":"Not found."}');
    for (const path of ['/api/nothing/v1/documents/', '/api', '/api/v2/', '/api/docs/nothing']) {
      const beside = await app.request(path, { headers: { accept: BROWSER_ACCEPT } });
      assert.equal(beside.headers['content-type'], 'application/json', `${path}: under /api/, JSON whatever the version`);
    }
    const ogcPage = await app.request('/ogc/collections/nothing', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(ogcPage.status, 404);
    assert.equal(ogcPage.headers['content-type'], HTML);
    const ogcJson = await app.request('/ogc/collections/nothing?f=json', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(ogcJson.headers['content-type'], 'application/json');
    assert.equal(ogcJson.json().code, 'NotFound');
    assert.equal((await app.request('/tiles/features/99/0/0.mvt', { headers: { accept: BROWSER_ACCEPT } })).headers['content-type'], 'application/json');
  });

  test('the icon answers at /favicon.ico and /favicon.svg', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const icon = await app.request(path);
      assert.equal(icon.status, 200, path);
      assert.equal(icon.headers['content-type'], 'image/svg+xml');
      assert.match(icon.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  test('every page has a description, and the OGC pages lead home', async () => {
    for (const path of ['/ogc/?f=html', '/ogc/collections?f=html', '/ogc/collections/features?f=html', '/ogc/collections/features/items?f=html', '/ogc/conformance?f=html']) {
      const { text } = await page(path);
      assert.ok(text.includes(`<li><a href="${O}/about/">Home</a></li>`), `${path}: Home is the site's home`);
    }
  });
});

test("the site's texts come from settings", async () => {
  const app = await startTestApp({ catalogue: buildTestCatalogue(), settings: { siteTitle: 'Spitalfields Life', siteDescription: 'The story of every house.', siteLicence: 'CC BY 4.0', siteLicenceUrl: '' } });
  try {
    const about = await app.request('/about/');
    assert.ok(about.text.includes('<title>Spitalfields Life</title>'));
    assert.ok(about.text.includes('<p class="lead">The story of every house.</p>'));
    assert.ok(about.text.includes('shared under CC BY 4.0;'), 'a licence without a link');
    const record = await app.request('/places/1/');
    assert.match(record.text, /<title>[^<]+ · Spitalfields Life<\/title>/);
  } finally {
    await app.close();
  }
});

test('detailed footprints: a record page and a search page stay small, and the nearest neighbours are still drawn', async () => {
  // 300 footprints of 1,400 positions (57 kB of text each) 14 by 22 m apart: a hundred of them are 6 MB.
  const cat = largeCatalogue({ count: 300, positions: 1400 });
  const app = await startTestApp({ catalogue: cat });
  try {
    const self = cat.features.find((f) => f.id === 1150)!;
    const record = await app.request('/places/1150/');
    assert.equal(record.status, 200);
    assert.ok(record.text.length < 150_000, `the record page is ${record.text.length} bytes`);
    const drawn = (record.text.match(/<path class="neighbour"/g) ?? []).length;
    assert.ok(drawn >= 2, `${drawn} neighbours drawn`);
    const nearest = cat.features.filter((f) => f.id !== self.id).map((f) => ({ id: f.id, m: metres(centre(self), centre(f)) }))
      .sort((a, b) => a.m - b.m || a.id - b.id).slice(0, 2).map((n) => n.id);
    const listed = [...(/<ul class="nearby">([^]*?)<\/ul>/.exec(record.text)?.[1] ?? '').matchAll(/\/places\/(\d+)\//g)].map((m) => Number(m[1]));
    assert.deepEqual(listed.slice(0, 2), nearest, 'the nearest two, drawn and listed');
    const search = await app.request('/search/?q=old', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(search.status, 200);
    assert.ok(search.text.length < 60_000, `the search page is ${search.text.length} bytes`);
    assert.equal((/<figure class="minimap results-map">([^]*?)<\/figure>/.exec(search.text)?.[1]?.match(/<path /g) ?? []).length, 20, 'each result on the map');
  } finally {
    await app.close();
  }
});
