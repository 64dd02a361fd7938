// Contributed pictures (issue 37), black-box over HTTP on either store (PostgreSQL: the twin
// in test/postgres/): a JPEG with EXIF GPS and a rotation waits outside the media root, an
// editor approves it, and what is served carries no metadata and is turned upright. Refused
// whole, with nothing kept: a file that is not a picture whatever its name, a tiny PNG that
// claims 20,000 × 20,000 pixels, a file over 20 MB, a form without its csrf. The sender's
// file name is never used. Test pictures are made with sharp here; the checks read bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { keptPictures } from '../support/database-rows.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const FEATURE = 1;
/** The APP1 marker of an EXIF block, as every JPEG writer puts it. */
const EXIF_MARKER = Buffer.from([0xff, 0xe1]);
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

/** 60 × 30 pixels, stored turned (EXIF orientation 6: shown 30 × 60), with a GPS position in its EXIF. */
async function phoneJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 60, height: 30, channels: 3, background: '#c33' } }).jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 31/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 4/1 0/1' } })
    .toBuffer();
}

/** A PNG whose header claims `side` × `side` pixels, with almost no data: a decompression bomb's shape. */
function claimedPng(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.alloc(side + 1))), chunk('IEND', Buffer.alloc(0))]);
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('contributed pictures', () => {
  let database: TestDatabase;
  let app: TestApp;
  let contributor: FormClient;
  let editor: FormClient;
  let dir: string;

  const form = async (fields: Record<string, string>, file: { bytes: Buffer; name: string; type: string } | null, csrf?: string) => {
    const page = await contributor.get(`/contribute/${FEATURE}/image`);
    const data = new FormData();
    data.append('csrf', csrf ?? csrfOf(page.text));
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    if (file) data.append('file', new Blob([file.bytes], { type: file.type }), file.name);
    return contributor.postMultipart(`/contribute/${FEATURE}/image`, data);
  };
  const pendingIds = async () => [...(await editor.get('/moderate/')).text.matchAll(/href="[^"]*\/moderate\/(\d+)"/g)].map((m) => Number(m[1]));

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-pictures-'));
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    contributor = new FormClient(app);
    assert.equal((await contributor.submit('/account/signup', { username: 'pat-photos', password: PASSWORD })).status, 303);
    assert.equal((await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` })).code, 0);
    editor = new FormClient(app);
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the building\'s page links to the picture form, a multipart form with a file field', async () => {
    assert.ok((await contributor.get(`/places/${FEATURE}/`)).text.includes(`href="${app.origin}/contribute/${FEATURE}/image"`));
    const page = await contributor.get(`/contribute/${FEATURE}/image`);
    assert.match(page.text, /enctype="multipart\/form-data"/);
    assert.match(page.text, /<input id="file" name="file" type="file" required accept="image\/jpeg,image\/png,image\/webp"/);
  });

  test('refused whole, nothing kept: not a picture whatever its name, a pixel bomb, over 20 MB, no csrf', async () => {
    const fields = { title: 'The front', description: '', created: '', licence: 'copyright' };
    for (const [file, status, sentence] of [
      [{ bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'photo.jpg', type: 'image/jpeg' }, 415, 'That file is not a JPEG, PNG or WebP picture.'],
      [{ bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), name: 'photo.jpg', type: 'image/jpeg' }, 415, 'That file is not a JPEG, PNG or WebP picture.'],
      [{ bytes: claimedPng(20_000), name: 'bomb.png', type: 'image/png' }, 413, 'A picture is at most 50 megapixels; this one is 20000 × 20000.'],
    ] as const) {
      assert.ok(file.bytes.length < 20_000, 'a small file');
      const answer = await form(fields, file);
      assert.equal(answer.status, status, file.name);
      assert.ok(answer.text.includes(sentence), sentence);
    }
    const huge = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(21 * 1024 * 1024)]);
    assert.equal((await form(fields, { bytes: huge, name: 'big.jpg', type: 'image/jpeg' })).status, 413);
    const good = { bytes: await phoneJpeg(), name: 'ok.jpg', type: 'image/jpeg' };
    assert.equal((await form(fields, good, 'not-the-token')).status, 403);
    assert.equal((await form({ ...fields, created: '2999-01-01' }, good)).status, 400, 'a date in the future');
    assert.equal(await keptPictures(database), 0, 'nothing kept');
    assert.deepEqual(filesUnder(dir), [], 'no file written');
    assert.deepEqual(await pendingIds(), []);
  });

  test('a phone\'s JPEG waits unserved; approved, it is served upright with no metadata, named by the server', async () => {
    const original = await phoneJpeg();
    // Independently of sharp: the upload does carry an EXIF block.
    assert.ok(original.includes(Buffer.concat([EXIF_MARKER])) && original.includes(EXIF_HEADER));
    const imagesBefore = (await app.request('/api/v1/images/')).json().count as number;
    const sent = await form({ title: 'The front, 1975', description: 'Seen from the corner.', created: '1975-06-01', licence: 'open' }, { bytes: original, name: '../../../../evil.jpg', type: 'text/html' });
    assert.equal(sent.status, 303);
    assert.ok(filesUnder(dir).every((f) => !f.includes('evil')), 'the sender\'s name is not used');
    assert.equal(await keptPictures(database), 3, 'three sizes kept, the original not among them');
    assert.deepEqual(filesUnder(dir), [], 'no file written');
    assert.equal((await app.request('/api/v1/images/')).json().count, imagesBefore);
    const [id] = await pendingIds();
    const review = await editor.get(`/moderate/${id}`);
    assert.ok(review.text.includes(`src="${app.origin}/moderate/${id}/picture"`));
    assert.equal((await contributor.get(`/moderate/${id}/picture`)).status, 403, 'not to a contributor');
    const preview = await editor.get(`/moderate/${id}/picture`);
    assert.equal(preview.status, 200);
    assert.equal(preview.headers['content-type'], 'image/jpeg');
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'The front, 1975', description: 'Seen from the corner.', created: '1975-06-01', licence: 'open', action: 'approve' });
    assert.equal(approved.status, 303);
    const recordId = Number(/\/pictures\/(\d+)\/$/.exec(String(approved.headers.location))![1]);
    const record = (await app.request(`/api/v1/images/${recordId}/`)).json();
    assert.equal(record.title, 'The front, 1975');
    assert.equal(record.created, '1975-06-01');
    assert.equal(record.copyright, false);
    assert.equal(record.author.username, 'pat-photos');
    assert.match(record.file, new RegExp(`^${app.origin}/media/contributions/[0-9a-f-]{36}\\.jpg$`));
    const served = await app.request(new URL(record.file).pathname);
    assert.equal(served.status, 200);
    assert.ok(!served.bytes.includes(EXIF_HEADER), 'no EXIF block in what is served');
    const meta = await sharp(served.bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height, meta.exif, meta.orientation], ['jpeg', 30, 60, undefined, undefined], 'upright, no metadata');
    assert.equal((await app.request('/api/v1/images/')).json().count, imagesBefore + 1);
  });

  test('approved, a picture is an IIIF image service at its full size (not the 1,600-px display size), from the store', async () => {
    // Left half red, right half blue: a render's region can be told apart by its colour.
    const halves = Buffer.alloc(2400 * 1200 * 3);
    for (let i = 0; i < 2400 * 1200; i++) halves.set((i % 2400) < 1200 ? [200, 30, 30] : [30, 30, 200], i * 3);
    const original = await sharp(halves, { raw: { width: 2400, height: 1200, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
    assert.equal((await form({ title: 'Two halves', description: '', created: '', licence: 'open' }, { bytes: original, name: 'halves.jpg', type: 'image/jpeg' })).status, 303);
    const [id] = await pendingIds();
    const review = await editor.get(`/moderate/${id}`);
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Two halves', description: '', created: '', licence: 'open', action: 'approve' });
    const recordId = Number(/\/pictures\/(\d+)\/$/.exec(String(approved.headers.location))?.[1]);
    const info = await app.request(`/iiif/3/${recordId}/info.json`);
    assert.equal(info.status, 200);
    assert.deepEqual([info.json().width, info.json().height], [2400, 1200]);
    const right = await app.request(`/iiif/3/${recordId}/1200,0,1200,1200/100,/0/default.png`);
    assert.equal(right.status, 200);
    const { data, info: size } = await sharp(right.bytes).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([size.width, size.height], [100, 100]);
    const [r, g, b] = [data[0 + 5 * 300 + 150], data[1 + 5 * 300 + 150], data[2 + 5 * 300 + 150]];
    assert.ok(b !== undefined && r !== undefined && g !== undefined && b > 150 && r < 80, `the right half is blue: ${r},${g},${b}`);
    const manifest = (await app.request(`/iiif/pictures/${recordId}/manifest.json`)).json();
    assert.deepEqual([manifest.items[0].width, manifest.items[0].height], [2400, 1200]);
  });
});
