// IIIF Presentation API 3.0 (issue 49): every manifest and collection the server makes is
// valid against the IIIF validator's JSON Schema and read without a problem by @iiif/parser
// (test/support/iiif-presentation.ts), and says what the catalogue holds: a building's
// published, readable pictures in its record's order, each at its real size (read by sharp
// here), with its credit, date and licence; the catalogue as pages of 1000 buildings.
// The catalogue and its picture files are made here: buildings with several pictures, one,
// none, only an unpublished one, only a missing file, and a thousand more for a second page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Catalogue, Feature, Image } from '../../src/catalogue/format.js';
import type { Answer } from '../support/http.js';
import { parse, parserIssues, schemaErrors } from '../support/iiif-presentation.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const PRESENTATION_CONTEXT = 'http://iiif.io/api/presentation/3/context.json';
const IN_COPYRIGHT = 'http://rightsstatements.org/vocab/InC/1.0/';
/** The site's licence by default (SITE_LICENCE_URL), as the validator wants it: with http:. */
const CREATIVE_COMMONS = /^http:\/\/creativecommons\.org\/licenses\/[a-z-]+\/\d\.\d\/$/;
/** Buildings' manifests to a page of the collection, as its summary says. */
const PAGE_SIZE = 1000;

interface PictureFile {
  width: number;
  height: number;
  format: 'jpeg' | 'png' | 'webp';
}

/** A picture record, with the file made for it (none: the record names a missing file). */
interface Picture extends Image {
  made?: PictureFile;
}

const AUTHORS = [{ id: 21, username: 'fieldnotes' }, { id: 22, username: 'Łucja' }];

const SEVERAL = 101; // three published readable pictures, an unpublished one, a missing file
const ONE = 102; // one picture; no name, so its label is its address
const NONE = 103;
const ONLY_UNPUBLISHED = 104;
const ONLY_MISSING = 105;
const BULK_FROM = 1001;
const BULK = 1001; // with the five above, 1004 buildings with a published picture: two pages

const EXTENSIONS = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;

/** A published picture by the first author, its file named by its title as it is (spaces, accents and all). */
const picture = (id: number, feature: number, title: string, fields: Partial<Picture>): Picture => ({
  id, feature, title, author: 21, file: `uploads/features/${feature}/${title}.${EXTENSIONS[fields.made?.format ?? 'jpeg']}`,
  description: '', copyright: false, created: null, published: true, ...fields,
});

// Ids out of the order they are listed in here, sizes of every aspect, three formats.
const PICTURES: Picture[] = [
  picture(64, SEVERAL, 'Façade from Commercial Street, 1968', { created: '1968-05-02', made: { width: 640, height: 427, format: 'jpeg' }, description: 'Taken from the\nopposite pavement.' }),
  picture(57, SEVERAL, 'Lecture hall, looking east', { author: 22, copyright: true, made: { width: 301, height: 533, format: 'png' } }),
  picture(60, SEVERAL, 'Roofline «panorama» & chimneys', { created: '2003-11-30', made: { width: 900, height: 150, format: 'webp' } }),
  picture(58, SEVERAL, 'Hidden draft', { published: false, made: { width: 200, height: 200, format: 'jpeg' } }),
  picture(62, SEVERAL, 'Lost negative', { created: '1950-01-01' }),
  picture(71, ONE, 'Gate piers', { author: 22, copyright: true, created: '1999-12-31', made: { width: 517, height: 389, format: 'jpeg' } }),
  picture(73, ONLY_UNPUBLISHED, 'Not yet', { published: false, made: { width: 120, height: 90, format: 'png' } }),
  picture(74, ONLY_MISSING, 'Gone', {}),
];

function place(id: number, name: string | null): Feature {
  const [lon, lat] = [-0.07 + (id % 100) * 0.0002, 51.51 + Math.floor(id / 100) * 0.0002];
  const d = 0.0001;
  return {
    id, feature_type: 'WHITECHAPEL_BUILDING', b_number: `${id}`, b_name: name, street: 'Wentworth Street', postcode: 'E1 7TF',
    address: `${id} Wentworth Street, London E1 7TF`, current: null, site: null, categories: [], tags: [], search_str: `${id} Wentworth Street`,
    geometry: { type: 'MultiPolygon', coordinates: [[[[lon, lat], [lon + d, lat], [lon + d, lat + d], [lon, lat + d], [lon, lat]]]] },
  };
}

/** Every other bulk building has a name, the rest are labelled by their address. */
const bulkName = (id: number) => (id % 2 === 0 ? `Warehouse ${id}` : null);

function manifestsCatalogue(): Catalogue {
  const bulk = Array.from({ length: BULK }, (_, n) => BULK_FROM + n);
  const features = [place(SEVERAL, 'Toynbee Hall'), place(ONE, null), place(NONE, 'Empty lot'), place(ONLY_UNPUBLISHED, 'Drafts only'), place(ONLY_MISSING, 'Lost files'), ...bulk.map((id) => place(id, bulkName(id)))];
  // The bulk's pictures name files that are not there: the collection lists their buildings all the same.
  const images: Image[] = [...PICTURES.map(({ made: _made, ...record }) => record), ...bulk.map((id) => picture(10_000 + id, id, `View ${id}`, {}))];
  return { format: 'heritage-catalogue/1', authors: AUTHORS, categories: [], sites: [], features, images, documents: [], media: [] };
}

async function writePicture(root: string, file: string, made: PictureFile, seed: number): Promise<void> {
  const target = path.join(root, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const image = sharp({ create: { width: made.width, height: made.height, channels: 3, background: { r: (seed * 37) % 256, g: 90, b: (seed * 11) % 256 } } });
  await image.toFormat(made.format).toFile(target);
}

let t: TestServer;
let mediaRoot: string;
/** Each picture file's size, read back by sharp from the file the server reads. */
const sizes = new Map<number, { width: number; height: number }>();

before(async () => {
  mediaRoot = temporaryDir();
  for (const p of PICTURES) {
    if (p.made === undefined) continue;
    await writePicture(mediaRoot, p.file, p.made, p.id);
    const { width, height } = await sharp(path.join(mediaRoot, p.file)).metadata();
    if (width === undefined || height === undefined) throw new Error(`sharp cannot read ${p.file}`);
    sizes.set(p.id, { width, height });
  }
  t = await startTestServer({ catalogue: manifestsCatalogue(), settings: { mediaRoot } });
});

after(async () => {
  await t?.close();
  fs.rmSync(mediaRoot, { recursive: true, force: true });
});

const placeManifest = (id: number) => `/iiif/places/${id}/manifest.json`;
const pictureManifest = (id: number) => `/iiif/pictures/${id}/manifest.json`;
const pathOf = (url: string) => {
  assert.ok(url.startsWith(`${t.origin}/`), `${url} is on the server (${t.origin})`);
  return url.slice(t.origin.length);
};
const readable = (p: Picture) => p.published && sizes.has(p.id);
const pictureById = (id: number) => PICTURES.find((p) => p.id === id) ?? assert.fail(`no picture ${id} in the test's catalogue`);

/** A document answered 200, valid for the schema and the parser, with what the parser made of it. */
async function presentationDocument(pathAndQuery: string, type: 'Manifest' | 'Collection') {
  const answer = await t.request(pathAndQuery);
  assert.equal(answer.status, 200, `${pathAndQuery}: ${answer.text}`);
  const body = answer.json();
  assert.deepEqual(schemaErrors(body), [], `${pathAndQuery} against the IIIF validator's schema`);
  assert.deepEqual(parserIssues(body), [], `${pathAndQuery} by @iiif/parser's validator`);
  assert.equal(body['@context'], PRESENTATION_CONTEXT);
  assert.equal(body.type, type);
  assert.equal(body.id, `${t.origin}${pathAndQuery}`, 'its id is where it was fetched');
  const parsed = parse(body);
  assert.deepEqual(parsed.resource, { id: body.id, type });
  assert.ok(parsed.stored(type).includes(body.id), `the normalized store holds ${body.id}`);
  return { body, parsed };
}

async function assertNotFound(pathAndQuery: string): Promise<Answer> {
  const answer = await t.request(pathAndQuery);
  assert.equal(answer.status, 404, `${pathAndQuery}: ${answer.text}`);
  assert.match(String(answer.headers['content-type']), /^application\/json/, pathAndQuery);
  assert.equal(typeof answer.json().detail, 'string', pathAndQuery);
  return answer;
}

/** A canvas as the picture should make it: its id, title, size, credit, licence and image service. */
async function assertCanvasOf(canvas: any, p: Picture): Promise<void> {
  const size = sizes.get(p.id) ?? assert.fail(`picture ${p.id} has no file`);
  const author = AUTHORS.find((a) => a.id === p.author)?.username ?? assert.fail(`no author ${p.author}`);
  assert.deepEqual(canvas.label, { en: [p.title] });
  assert.deepEqual([canvas.width, canvas.height], [size.width, size.height], `canvas of ${p.id}`);
  const credit: string = canvas.requiredStatement.value.en.join(' ');
  assert.ok(credit.includes(author), `${credit} names ${author}`);
  if (p.created !== null) assert.ok(credit.includes(p.created), `${credit} has the date ${p.created}`);
  if (p.copyright) assert.equal(canvas.rights, IN_COPYRIGHT);
  else assert.match(canvas.rights, CREATIVE_COMMONS);

  const [annotation, ...others] = canvas.items[0].items;
  assert.equal(others.length, 0, 'one painting annotation');
  assert.equal(annotation.motivation, 'painting');
  assert.equal(annotation.target, canvas.id);
  const service = `${t.origin}/iiif/3/${p.id}`;
  assert.equal(annotation.body.id, `${service}/full/max/0/default.jpg`);
  assert.equal(annotation.body.format, 'image/jpeg');
  assert.deepEqual(annotation.body.service.map((s: any) => [s.id, s.type]), [[service, 'ImageService3']]);

  const info = await t.request(`${pathOf(service)}/info.json`);
  assert.equal(info.status, 200, info.text);
  assert.equal(info.json().id, service);
  assert.deepEqual([info.json().width, info.json().height], [size.width, size.height]);
  // The painted image is there, at the canvas's size (the pictures are under every limit).
  const image = await t.request(pathOf(annotation.body.id));
  assert.equal(image.status, 200, `${annotation.body.id}: ${image.text}`);
  const { width, height, format } = await sharp(image.bytes).metadata();
  assert.deepEqual([format, width, height], ['jpeg', size.width, size.height]);
}

/** The manifest's thumbnail: its first picture, whole, within 400 × 400 and of its shape, served at that size. */
async function assertThumbnailOf(body: any, p: Picture): Promise<void> {
  const size = sizes.get(p.id) ?? assert.fail(`picture ${p.id} has no file`);
  const [thumbnail, ...others] = body.thumbnail;
  assert.equal(others.length, 0);
  assert.ok(thumbnail.width <= 400 && thumbnail.height <= 400, `${thumbnail.width} × ${thumbnail.height}`);
  assert.ok(Math.abs(thumbnail.width / thumbnail.height - size.width / size.height) < 0.05, 'the picture\'s shape');
  assert.ok(String(thumbnail.id).startsWith(`${t.origin}/iiif/3/${p.id}/full/`));
  const image = await t.request(pathOf(thumbnail.id));
  assert.equal(image.status, 200, image.text);
  const meta = await sharp(image.bytes).metadata();
  assert.deepEqual([meta.width, meta.height], [thumbnail.width, thumbnail.height]);
}

describe('a building\'s manifest', () => {
  test('valid, its canvases its published readable pictures in the record\'s order, each described', async () => {
    const listed = (await t.request(`/api/v1/images/?feature=${SEVERAL}`)).json().results.map((r: { id: number }) => r.id);
    assert.deepEqual([...listed].sort((a, b) => a - b), [57, 60, 62, 64], 'the API lists the published pictures, the missing file too');
    const expected = listed.map(pictureById).filter(readable);
    assert.equal(expected.length, 3);

    const { body, parsed } = await presentationDocument(placeManifest(SEVERAL), 'Manifest');
    assert.deepEqual(body.label, { en: ['Toynbee Hall'] });
    assert.deepEqual(body.items.map((c: any) => c.label.en[0]), expected.map((p: Picture) => p.title));
    assert.deepEqual(parsed.canvases, body.items.map((c: any) => c.id), 'the parser walks every canvas, in order');
    assert.deepEqual([...parsed.stored('Canvas')].sort(), body.items.map((c: any) => c.id).sort());
    assert.equal(new Set(parsed.canvases).size, expected.length, 'each canvas its own id');
    for (const [i, canvas] of body.items.entries()) await assertCanvasOf(canvas, expected[i]);

    assert.match(body.rights, CREATIVE_COMMONS);
    await assertThumbnailOf(body, expected[0]);
    assert.deepEqual(body.homepage.map((h: any) => [h.id, h.format]), [[`${t.origin}/places/${SEVERAL}/`, 'text/html']]);
    assert.deepEqual(body.seeAlso.map((s: any) => s.id), [`${t.origin}/api/v1/features/${SEVERAL}/`]);
    assert.equal((await t.request(pathOf(body.homepage[0].id))).status, 200, 'the record page is there');
    const record = await t.request(pathOf(body.seeAlso[0].id));
    assert.equal(record.status, 200);
    assert.equal(record.json().id, SEVERAL);
  });

  test('a building with one picture and no name: labelled by its address', async () => {
    const { body, parsed } = await presentationDocument(placeManifest(ONE), 'Manifest');
    assert.deepEqual(body.label, { en: [`${ONE} Wentworth Street, London E1 7TF`] });
    assert.equal(body.items.length, 1);
    assert.deepEqual(parsed.stored('Canvas'), [body.items[0].id]);
    await assertCanvasOf(body.items[0], pictureById(71));
    assert.deepEqual(body.homepage.map((h: any) => h.id), [`${t.origin}/places/${ONE}/`]);
    assert.deepEqual(body.seeAlso.map((s: any) => s.id), [`${t.origin}/api/v1/features/${ONE}/`]);
  });

  test('the checks refuse a broken copy of it: they are not vacuous', async () => {
    const broken = (await t.request(placeManifest(ONE))).json();
    broken.label = 'Gate piers';
    broken.rights = 'https://creativecommons.org/licenses/by/4.0/';
    delete broken.items[0].height;
    const errors = schemaErrors(broken).join('\n');
    for (const where of ['/label', '/rights', '/items/0 must have property height']) assert.ok(errors.includes(where), `the schema finds ${where} in:\n${errors}`);
    assert.ok(parserIssues(broken).some((issue) => issue.startsWith('error presentation-3-label-language-map')), 'the parser finds the label');
  });

  test('none without a picture to show: 404 as JSON', async () => {
    for (const id of [NONE, ONLY_UNPUBLISHED, ONLY_MISSING, 99_999]) await assertNotFound(placeManifest(id));
    await assertNotFound('/iiif/places/x/manifest.json');
  });
});

describe('a picture\'s manifest', () => {
  test('each published readable picture: valid, one canvas of it', async () => {
    const shown = PICTURES.filter(readable);
    assert.equal(shown.length, 4);
    for (const p of shown) {
      const { body, parsed } = await presentationDocument(pictureManifest(p.id), 'Manifest');
      assert.deepEqual(body.label, { en: [p.title] });
      assert.equal(body.items.length, 1);
      assert.deepEqual(parsed.canvases, [body.items[0].id]);
      assert.deepEqual(parsed.stored('Canvas'), [body.items[0].id]);
      await assertCanvasOf(body.items[0], p);
      assert.equal(body.rights, body.items[0].rights, 'the manifest under the licence of its one picture');
    }
  });

  test('an unpublished picture, a missing file and an unknown id: 404', async () => {
    for (const id of [58, 73, 62, 74, 99_999]) await assertNotFound(pictureManifest(id));
  });
});

describe('the catalogue\'s collection', () => {
  /** The buildings with a published picture (a missing file or not), in id order. */
  const pictured = () => {
    const catalogue = manifestsCatalogue();
    const ids = new Set(catalogue.images.filter((i) => i.published).map((i) => i.feature));
    return catalogue.features.filter((f) => ids.has(f.id)).sort((a, b) => a.id - b.id);
  };

  test('valid, its total and its pages', async () => {
    const total = pictured().length;
    assert.ok(total > PAGE_SIZE && total <= 2 * PAGE_SIZE, `${total} buildings make two pages`);
    const { body, parsed } = await presentationDocument('/iiif/collection.json', 'Collection');
    assert.match(body.summary.en[0], new RegExp(`\\b${total} buildings\\b`));
    assert.deepEqual(body.items.map((c: any) => [c.id, c.type]), [1, 2].map((page) => [`${t.origin}/iiif/collection/${page}.json`, 'Collection']));
    assert.deepEqual(parsed.manifests, []);
    assert.deepEqual(body.items.map((c: any) => c.label.en[0]), [`Buildings 1 to ${PAGE_SIZE} of ${total}`, `Buildings ${PAGE_SIZE + 1} to ${total} of ${total}`]);
  });

  test('its pages: valid, every building with a published picture once, in id order', async () => {
    const expected = pictured();
    const listed: any[] = [];
    for (const page of [1, 2]) {
      const { body, parsed } = await presentationDocument(`/iiif/collection/${page}.json`, 'Collection');
      assert.equal(body.items.length, page === 1 ? PAGE_SIZE : expected.length - PAGE_SIZE);
      assert.deepEqual(parsed.manifests, body.items.map((m: any) => m.id), 'the parser finds every manifest referenced');
      assert.ok(body.items.every((m: any) => m.type === 'Manifest'));
      listed.push(...body.items);
    }
    assert.deepEqual(listed.map((m) => m.id), expected.map((f) => `${t.origin}${placeManifest(f.id)}`));
    assert.deepEqual(listed.map((m) => m.label), expected.map((f) => ({ en: [f.b_name || f.address] })));
    for (const id of [NONE, ONLY_UNPUBLISHED]) assert.ok(!listed.some((m) => m.id.endsWith(placeManifest(id))), `building ${id} is not listed`);
  });

  test('pages past the last, page 0 and names that are no page: 404', async () => {
    for (const page of ['3.json', '0.json', 'x.json', '01.json', '1', '-1.json', '1.5.json']) await assertNotFound(`/iiif/collection/${page}`);
  });
});

describe('content negotiation, validators and CORS', () => {
  const documents = [placeManifest(SEVERAL), pictureManifest(57), '/iiif/collection.json', '/iiif/collection/2.json'];

  test('JSON-LD with the Presentation profile when asked for or without Accept (§6.1), else JSON; the same document', async () => {
    for (const target of documents) {
      const ld = await t.request(target, { headers: { accept: 'application/ld+json' } });
      const none = await t.request(target);
      const plain = await t.request(target, { headers: { accept: 'application/json' } });
      const browser = await t.request(target, { headers: { accept: 'application/json, */*;q=0.1' } });
      assert.equal(ld.status, 200);
      assert.equal(ld.headers['content-type'], `application/ld+json;profile="${PRESENTATION_CONTEXT}"`, target);
      assert.equal(none.headers['content-type'], `application/ld+json;profile="${PRESENTATION_CONTEXT}"`, target);
      assert.match(String(plain.headers['content-type']), /^application\/json(;|$)/, target);
      assert.match(String(browser.headers['content-type']), /^application\/json(;|$)/, target);
      assert.deepEqual(ld.json(), plain.json(), target);
      assert.match(String(ld.headers.vary), /\baccept\b/i, `${target} varies by Accept`);
    }
  });

  test('an ETag, and 304 when it still holds; HEAD without a body', async () => {
    for (const target of documents) {
      const first = await t.request(target);
      const etag = first.headers.etag;
      assert.ok(etag, `${target} has an ETag`);
      const again = await t.request(target, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304, target);
      assert.equal(again.bytes.length, 0);
      const other = await t.request(target, { headers: { 'if-none-match': '"not-it"' } });
      assert.equal(other.status, 200, target);
      const head = await t.request(target, { method: 'HEAD' });
      assert.equal(head.status, 200, target);
      assert.equal(head.bytes.length, 0);
      assert.equal(head.headers['content-type'], first.headers['content-type']);
    }
  });

  test('CORS for a viewer on another site, on answers and refusals', async () => {
    const origin = 'https://viewer.example.org';
    for (const target of [...documents, placeManifest(NONE), '/iiif/collection/3.json']) {
      const answer = await t.request(target, { headers: { origin } });
      assert.ok([origin, '*'].includes(String(answer.headers['access-control-allow-origin'])), `${target}: ${answer.headers['access-control-allow-origin']}`);
    }
  });
});
