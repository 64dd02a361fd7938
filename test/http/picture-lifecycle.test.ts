// A contributed picture's life in the store (issue 45), black-box over HTTP on either store
// (PostgreSQL: the twin in test/postgres/), with no media folder at all: waiting, it is not
// public; approved, its display size and thumbnail are served from the store with a digest
// ETag and long caching, its archive copy never; undone, 404 at once and withdrawn on its
// author's page (and back when the undo is undone); rejected, nothing of it is kept. A
// decision taken twice, or on fields someone corrected since, or racing another, changes
// nothing and says so. Expected values (the
// digests, the sentences) are computed or written out here, not taken from the code.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { databaseRows, keptPictures } from '../support/database-rows.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const FEATURE = 1;
const FIELDS = { title: 'The shopfront', description: 'From across the road.', created: '', licence: 'open' };

describe('a contributed picture in the store', () => {
  let database: TestDatabase;
  let app: TestApp;
  let contributor: FormClient;
  let editor: FormClient;
  let second: FormClient;

  /** Sends a picture of `width` × 60 pixels; returns its contribution's id and its upload's name, read from the store. */
  const send = async (width: number) => {
    const page = await contributor.get(`/contribute/${FEATURE}/image`);
    const form = new FormData();
    form.append('csrf', csrfOf(page.text));
    for (const [name, value] of Object.entries(FIELDS)) form.append(name, value);
    const bytes = await sharp({ create: { width, height: 60, channels: 3, background: '#36a' } }).jpeg().toBuffer();
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'mine.jpg');
    assert.equal((await contributor.postMultipart(`/contribute/${FEATURE}/image`, form)).status, 303);
    const [row] = await databaseRows(database, 'SELECT c.id, p.upload FROM contributions c JOIN contribution_pictures p ON p.contribution_id = c.id ORDER BY c.id DESC LIMIT 1');
    return { id: Number(row!.id), upload: String(row!.upload) };
  };
  const decide = async (browser: FormClient, id: number, action: 'approve' | 'save' | 'reject', changes: Record<string, string> = {}) => {
    const review = await browser.get(`/moderate/${id}`);
    const post = (fields: Record<string, string> = {}) => {
      const sent = { csrf: csrfOf(review.text), seen: seenOf(review.text), ...FIELDS, reason: 'Blurred.', action, ...changes, ...fields };
      return browser.post(`/moderate/${id}/${sent.action === 'reject' ? 'reject' : 'approve'}`, sent);
    };
    return { review, post };
  };
  /** Approved as the review page's form would send it: the fields it shows (FIELDS, with `changes` where it shows a correction). */
  const approve = async (id: number, changes: Record<string, string> = {}) => {
    const answer = await (await decide(editor, id, 'approve', changes)).post();
    assert.equal(answer.status, 303);
    return Number(/\/pictures\/(\d+)\/$/.exec(String(answer.headers.location))![1]);
  };
  const status = async (path: string) => (await app.request(path)).status;

  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    contributor = new FormClient(app);
    assert.equal((await contributor.submit('/account/signup', { username: 'pia-pictures', password: PASSWORD })).status, 303);
    for (const name of ['ed-editor', 'eve-editor']) assert.equal((await runCli(['users', 'add', name, '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` })).code, 0);
    editor = new FormClient(app);
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
    second = new FormClient(app);
    assert.equal((await second.submit('/account/signin', { username: 'eve-editor', password: PASSWORD })).status, 303);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('waiting: not public; approved: display and thumbnail served with a digest ETag and long caching, 304 and HEAD; the archive copy never', async () => {
    const { id, upload } = await send(120);
    const display = `/media/contributions/${upload}.jpg`;
    const thumbnail = `/media/contributions/${upload}-small.jpg`;
    assert.deepEqual([await status(display), await status(thumbnail)], [404, 404], 'not while it waits');
    const sizes = await databaseRows(database, 'SELECT size FROM contribution_pictures WHERE upload = $1 ORDER BY size', [upload]);
    assert.deepEqual(sizes.map((r) => r.size), ['display', 'full', 'thumbnail']);
    const recordId = await approve(id);
    assert.equal((await app.request(`/api/v1/images/${recordId}/`)).json().file, `${app.origin}${display}`);
    const served = await app.request(display);
    assert.equal(served.status, 200);
    assert.equal(served.headers['content-type'], 'image/jpeg');
    assert.equal(served.headers.etag, `"${createHash('sha256').update(served.bytes).digest('base64url').slice(0, 27)}"`);
    assert.equal(served.headers['cache-control'], 'public, max-age=86400, immutable');
    assert.match(String(served.headers['content-security-policy']), /sandbox/);
    const meta = await sharp(served.bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [120, 60]);
    assert.equal((await app.request(display, { headers: { 'if-none-match': String(served.headers.etag) } })).status, 304);
    const head = await app.request(display, { method: 'HEAD' });
    assert.deepEqual([head.status, head.bytes.length], [200, 0]);
    const small = await app.request(thumbnail);
    assert.equal(small.status, 200);
    assert.notEqual(small.headers.etag, served.headers.etag);
    for (const name of [`${upload}-full.jpg`, `${upload}.png`, `${upload.toUpperCase()}.jpg`, 'nothing.jpg']) assert.equal(await status(`/media/contributions/${name}`), 404, name);
  });

  test('undone: 404 at once on both sizes; the undo undone: served again', async () => {
    const { id, upload } = await send(100);
    const recordId = await approve(id);
    const display = `/media/contributions/${upload}.jpg`;
    assert.equal(await status(display), 200);
    const undo = async () => {
      const history = await editor.get(`/history/images/${recordId}`);
      const target = /action="[^"]*(\/history\/images\/\d+\/revert\/\d+)"/.exec(history.text)![1]!;
      assert.equal((await editor.post(target, { csrf: csrfOf(history.text) })).status, 303);
    };
    const recordLink = `href="${app.origin}/pictures/${recordId}/"`;
    const listed = async () => (await contributor.get('/account/')).text;
    assert.ok((await listed()).includes(recordLink), 'the author\'s page links the record');
    await undo();
    assert.deepEqual([await status(display), await status(`/media/contributions/${upload}-small.jpg`), await status(`/api/v1/images/${recordId}/`)], [404, 404, 404]);
    const withdrawn = await listed();
    assert.ok(withdrawn.includes('published, then withdrawn by an editor') && !withdrawn.includes(recordLink), 'withdrawn, and no link to a record that is gone');
    await undo();
    assert.deepEqual([await status(display), await status(`/api/v1/images/${recordId}/`)], [200, 200]);
    assert.ok((await listed()).includes(recordLink), 'published again');
  });

  test('rejected: every size gone with the decision, nothing of it kept or shown', async () => {
    const before = await keptPictures(database);
    const { id, upload } = await send(80);
    assert.equal(await keptPictures(database), before + 3);
    const rejected = await (await decide(editor, id, 'reject')).post();
    assert.equal(rejected.status, 303);
    assert.equal(await keptPictures(database), before);
    assert.equal((await editor.get(`/moderate/${id}/picture`)).status, 404);
    assert.equal(await status(`/media/contributions/${upload}.jpg`), 404);
  });

  test('decided already, or corrected since: nothing changes, and the page says so (409)', async () => {
    const { id } = await send(90);
    const stale = await decide(editor, id, 'approve');
    const saved = await (await decide(second, id, 'save', { title: 'The shopfront in 1990' })).post();
    assert.equal(saved.status, 303, 'the other editor\'s correction is saved');
    const refused = await stale.post();
    assert.equal(refused.status, 409);
    assert.ok(refused.text.includes('Someone saved a correction while this page was open: nothing was changed.'));
    assert.ok(refused.text.includes('value="The shopfront in 1990"'), 'the correction shown, not lost');
    const recordId = await approve(id, { title: 'The shopfront in 1990' });
    assert.equal((await app.request(`/api/v1/images/${recordId}/`)).json().title, 'The shopfront in 1990');
    for (const action of ['approve', 'reject', 'save'] as const) {
      const again = await stale.post({ action });
      assert.equal(again.status, 409, action);
      assert.ok(again.text.includes('This was published already'), action);
    }
    assert.equal((await app.request('/api/v1/images/?page_size=1000')).json().results.filter((r: { title: string }) => r.title === 'The shopfront in 1990').length, 1, 'published once');
  });

  test('two approvals at once: one publishes, the other is told; the picture served', async () => {
    const { id, upload } = await send(70);
    const [a, b] = await Promise.all([decide(editor, id, 'approve'), decide(second, id, 'approve')]);
    const answers = await Promise.all([a.post(), b.post()]);
    assert.deepEqual(answers.map((x) => x.status).sort(), [303, 409]);
    assert.ok(answers.some((x) => x.text.includes('This was published already')));
    assert.equal(await status(`/media/contributions/${upload}.jpg`), 200);
  });

  test('approve and reject at once: one decision, and what is served agrees with it', async () => {
    const { id, upload } = await send(60);
    const [a, b] = await Promise.all([decide(editor, id, 'approve'), decide(second, id, 'reject')]);
    const [approved, rejected] = await Promise.all([a.post(), b.post()]);
    assert.deepEqual([approved.status, rejected.status].sort(), [303, 409]);
    const [row] = await databaseRows(database, 'SELECT state FROM contributions WHERE id = $1', [id]);
    const kept = Number((await databaseRows(database, 'SELECT count(*) AS n FROM contribution_pictures WHERE upload = $1', [upload]))[0]!.n);
    if (row!.state === 'published') assert.deepEqual([await status(`/media/contributions/${upload}.jpg`), kept], [200, 3]);
    else assert.deepEqual([row!.state, await status(`/media/contributions/${upload}.jpg`), kept], ['rejected', 404, 0]);
  });
});
