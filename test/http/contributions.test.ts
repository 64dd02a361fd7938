// Contributions and the editors' queue (issue 37), black-box over HTTP on either store
// (PostgreSQL: the twin in test/postgres/): writing and video links sent from a building's
// forms wait unpublished and appear nowhere public; a contributor cannot reach the queue or
// another's contribution; an editor corrects, approves (one new catalogue version, served at
// once) or rejects with a reason; every change through the site is in the record's history,
// and the latest can be undone. Expected texts are written out here, not taken from the code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const FEATURE = 1;
const SCRIPT = '<script>alert(1)</script>';
const WRITING = `Built in 1898 ${SCRIPT}\r\n\r\nSee https://example.org/survey/12.`;
/** WRITING as the published document's body: escaped, two paragraphs, the address a link. */
const WRITING_HTML = '<p>Built in 1898 &lt;script&gt;alert(1)&lt;/script&gt;</p><p>See <a href="https://example.org/survey/12" rel="nofollow noopener noreferrer">https://example.org/survey/12</a>.</p>';

describe('contributions, with CONTRIBUTIONS on', () => {
  let database: TestDatabase;
  let app: TestApp;
  let contributor: FormClient;
  let other: FormClient;
  let editor: FormClient;

  const api = async (path: string) => {
    const answer = await app.request(path);
    assert.equal(answer.status, 200, path);
    return answer.json() as { count: number; results: { id: number; title: string }[] } & Record<string, unknown>;
  };
  const signUp = async (name: string) => {
    const browser = new FormClient(app);
    assert.equal((await browser.submit('/account/signup', { username: name, password: PASSWORD })).status, 303);
    return browser;
  };
  const pendingIds = async () => [...(await editor.get('/moderate/')).text.matchAll(/href="[^"]*\/moderate\/(\d+)"/g)].map((m) => Number(m[1]));

  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    contributor = await signUp('rosa-local');
    other = await signUp('sam-other');
    const add = await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    editor = new FormClient(app);
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('a building\'s page links to its forms; a form needs an account, and a building that exists', async () => {
    const page = await contributor.get(`/places/${FEATURE}/`);
    assert.ok(page.text.includes(`href="${app.origin}/contribute/${FEATURE}/document"`));
    assert.ok(page.text.includes(`href="${app.origin}/contribute/${FEATURE}/media"`));
    const anonymous = await new FormClient(app).get(`/contribute/${FEATURE}/document`);
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.location, `${app.origin}/account/signin?next=%2Fcontribute%2F${FEATURE}%2Fdocument`, 'back to the form once signed in');
    assert.equal((await contributor.get('/contribute/999999/document')).status, 404);
    assert.equal((await contributor.get(`/contribute/${FEATURE}/essay`)).status, 404);
    assert.equal((await contributor.get(`/contribute/${FEATURE}/document`)).status, 200);
  });

  test('every page\'s header leads to signing in and up, the same bytes for a visitor and a signed-in contributor', async () => {
    for (const path of ['/about/', '/search/', `/places/${FEATURE}/`, '/ogc/']) {
      const visitor = await new FormClient(app).get(path);
      assert.equal(visitor.status, 200, path);
      assert.ok(visitor.text.includes(`<li><a href="${app.origin}/account/signin">Sign in</a></li>\n<li><a href="${app.origin}/account/signup">Sign up</a></li>\n</ul></nav>`), path);
      assert.equal((await contributor.get(path)).text, visitor.text, `${path}: one page for everyone`);
    }
  });

  test('sent writing waits unpublished: listed under the author\'s account, and nowhere public', async () => {
    const documentsBefore = (await api('/api/v1/documents/')).count;
    const featureBefore = await api(`/api/v1/features/${FEATURE}/`);
    const itemsBefore = (await app.request('/ogc/collections/documents/items?f=json')).json() as { numberMatched: number };
    const sent = await contributor.submit(`/contribute/${FEATURE}/document`, { title: `Memories ${SCRIPT}`, body: WRITING });
    assert.equal(sent.status, 303);
    assert.match(String(sent.headers.location), new RegExp(`^${app.origin}/account/contributions/\\d+\\?done=sent$`), 'to its own page, saying it was sent');
    const mine = await contributor.get('/account/');
    assert.ok(mine.text.includes('Memories &lt;script&gt;alert(1)&lt;/script&gt;'), 'the title, escaped');
    assert.ok(mine.text.includes('waiting for an editor'));
    assert.ok(!mine.text.includes(SCRIPT));
    // Nowhere public: the API's list, the feature's summaries and count, the OGC items, the record page, the site's search, export.
    assert.equal((await api('/api/v1/documents/')).count, documentsBefore);
    assert.deepEqual(await api(`/api/v1/features/${FEATURE}/`), featureBefore);
    assert.equal(((await app.request('/ogc/collections/documents/items?f=json')).json() as { numberMatched: number }).numberMatched, itemsBefore.numberMatched);
    assert.ok(!(await new FormClient(app).get(`/places/${FEATURE}/`)).text.includes('Memories'));
    assert.ok(!(await new FormClient(app).get('/search/?q=Memories')).text.includes('Memories &lt;'));
    assert.ok(!(await runCli(['export', ...database.args])).stdout.includes('Memories'));
    // Nor to another contributor's account page.
    assert.ok(!(await other.get('/account/')).text.includes('Memories'));
  });

  test('a contributor cannot reach the queue, a review, nor decide: 403 and nothing changes; signed out: to the sign-in page', async () => {
    const [id] = await pendingIds();
    assert.ok(id !== undefined, 'the editor sees the contribution waiting');
    for (const path of ['/moderate/', `/moderate/${id}`, `/history/documents/1`]) {
      const answer = await other.get(path);
      assert.equal(answer.status, 403, path);
      assert.ok(!answer.text.includes('Memories'), `${path}: not the data`);
      assert.equal((await new FormClient(app).get(path)).status, 303, `${path} signed out`);
    }
    const csrf = csrfOf((await other.get('/account/')).text);
    for (const action of ['approve', 'reject']) {
      const answer = await other.post(`/moderate/${id}/${action}`, { csrf, title: 'Taken over', body: 'x', reason: 'no' });
      assert.equal(answer.status, 403, action);
    }
    // The author neither: writing is reviewed by someone else.
    assert.equal((await contributor.get(`/moderate/${id}`)).status, 403);
    assert.deepEqual(await pendingIds(), [id]);
    // Without the editor's own csrf, an editor's post is refused too.
    assert.equal((await editor.post(`/moderate/${id}/approve`, { csrf: csrf, title: 'x', body: 'y', action: 'approve' })).status, 403);
    assert.deepEqual(await pendingIds(), [id]);
  });

  test('an editor reviews the page as it will be published, corrects the title, approves: published at once, by its author', async () => {
    const [id] = await pendingIds();
    const review = await editor.get(`/moderate/${id}`);
    assert.equal(review.status, 200);
    assert.ok(review.text.includes(WRITING_HTML), 'the body as it will be published');
    assert.ok(review.text.includes('Sent by <strong>rosa-local</strong>'));
    // The review leads to the building's form and history (the editors' pages link to each other).
    assert.ok(review.text.includes(`<a href="${app.origin}/edit/features/${FEATURE}">Edit the building</a>`));
    assert.ok(review.text.includes(`<a href="${app.origin}/history/features/${FEATURE}">The building&#39;s history</a>`));
    // Not published yet, so no id: no link to a record 0, and the citation says where its address will go.
    assert.doesNotMatch(review.text, /\/documents\/0\/|items\/0\b/);
    assert.ok(review.text.includes('[its address, given when it is published]'), 'the citation');
    const documentsBefore = (await api('/api/v1/documents/')).count;
    const countOf = async () => ((await api(`/api/v1/features/${FEATURE}/`)).properties as { count: number }).count;
    const countBefore = await countOf();
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Memories of the generating station', body: WRITING, action: 'approve' });
    assert.equal(approved.status, 303);
    const recordId = Number(/\/documents\/(\d+)\/$/.exec(String(approved.headers.location))![1]);
    // At once, in this process: no poll waited for.
    const documents = await api('/api/v1/documents/');
    assert.equal(documents.count, documentsBefore + 1);
    const record = await api(`/api/v1/documents/${recordId}/`);
    assert.equal(record.title, 'Memories of the generating station');
    assert.equal(record.body, WRITING_HTML);
    assert.equal((record.author as { username: string }).username, 'rosa-local');
    assert.equal(await countOf(), countBefore + 1);
    const page = await new FormClient(app).get(`/places/${FEATURE}/`);
    assert.ok(page.text.includes('Memories of the generating station'));
    assert.ok(!page.text.includes(SCRIPT));
    const mine = await contributor.get('/account/');
    assert.ok(mine.text.includes(`href="${app.origin}/documents/${recordId}/"`), 'linked from the author\'s account');
    assert.deepEqual(await pendingIds(), []);
    // Approving again finds it decided.
    assert.equal((await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Again', body: WRITING, action: 'approve' })).status, 409);
    assert.equal((await api('/api/v1/documents/')).count, documentsBefore + 1);
    // The history holds the approval, before (none) and after.
    const history = await editor.get(`/history/documents/${recordId}`);
    assert.equal(history.status, 200);
    assert.ok(history.text.includes(`<h2>Approved contribution ${id}</h2>`));
    assert.ok(history.text.includes('By <strong>ed-editor</strong>'));
    assert.ok(history.text.includes(`<a href="${app.origin}/moderate/${id}">the contribution's review</a>`), 'the history leads back to the review');
  });

  test('video links: only https pages on the allowed hosts; rejected with a reason the contributor reads', async () => {
    for (const [url, sentence] of [
      ['javascript:alert(1)', 'The address must start https://'],
      ['http://www.youtube.com/watch?v=abc', 'The address must start https://'],
      ['https://evil.example/watch?v=abc', 'Videos are linked from YouTube or Vimeo only.'],
      ['https://www.youtube.com.evil.example/watch', 'Videos are linked from YouTube or Vimeo only.'],
      ['not a url', 'Give the address of the video'],
    ] as const) {
      const answer = await contributor.submit(`/contribute/${FEATURE}/media`, { title: 'A walk', url });
      assert.equal(answer.status, 400, url);
      assert.ok(answer.text.includes(sentence), `${url}: ${sentence}`);
    }
    assert.equal((await contributor.submit(`/contribute/${FEATURE}/media`, { title: 'A walk past', url: 'https://www.youtube.com/watch?v=abcdefghijk' })).status, 303);
    const [id] = await pendingIds();
    const review = await editor.get(`/moderate/${id}`);
    const mediaBefore = (await api('/api/v1/media/')).count;
    assert.equal((await editor.post(`/moderate/${id}/reject`, { csrf: csrfOf(review.text), seen: seenOf(review.text), reason: '' })).status, 400, 'a reason is asked for');
    assert.equal((await editor.post(`/moderate/${id}/reject`, { csrf: csrfOf(review.text), seen: seenOf(review.text), reason: 'The video is <b>private</b>.' })).status, 303);
    const mine = await contributor.get('/account/');
    assert.ok(mine.text.includes('not published'));
    assert.ok(mine.text.includes('The video is &lt;b&gt;private&lt;/b&gt;.'));
    assert.equal((await api('/api/v1/media/')).count, mediaBefore);
  });

  test('a video link is kept in its one form: sent as youtu.be with a time, reviewed and published as www.youtube.com/watch?v=ID; a hostile one refused, from the editor too', async () => {
    const canonical = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
    const notYoutube = 'That is not the address of a YouTube video: give one like https://www.youtube.com/watch?v=… or https://youtu.be/…';
    for (const url of ['https://youtu.be\\@evil.example/', 'https://www.youtube.com/redirect?q=https%3A%2F%2Fevil.example%2F', 'https://www.youtube.com/attribution_link?u=%2Fwatch%3Fv%3DdQw4w9WgXcQ']) {
      const answer = await contributor.submit(`/contribute/${FEATURE}/media`, { title: 'A walk', url });
      assert.equal(answer.status, 400, url);
      assert.ok(answer.text.includes(notYoutube), url);
    }
    assert.deepEqual(await pendingIds(), [], 'none kept');
    assert.equal((await contributor.submit(`/contribute/${FEATURE}/media`, { title: 'Along the street', url: 'https://youtu.be/dQw4w9WgXcQ?t=3' })).status, 303);
    const [id] = await pendingIds();
    const review = await editor.get(`/moderate/${id}`);
    assert.ok(review.text.includes(`value="${canonical}"`), 'stored in its one form');
    assert.ok(!review.text.includes('youtu.be/dQw4w9WgXcQ'));
    const hostile = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Along the street', url: 'https://youtu.be\\@evil.example/', action: 'approve' });
    assert.equal(hostile.status, 400, 'an editor\'s correction is held to the same rule');
    assert.ok(hostile.text.includes(notYoutube));
    assert.deepEqual(await pendingIds(), [id]);
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Along the street', url: 'https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share', action: 'approve' });
    assert.equal(approved.status, 303);
    const recordId = Number(/\/videos\/(\d+)\/$/.exec(String(approved.headers.location))![1]);
    assert.equal((await api(`/api/v1/media/${recordId}/`)).url, canonical);
  });

  test('the latest change of a record can be undone, itself kept in the history', async () => {
    assert.equal((await contributor.submit(`/contribute/${FEATURE}/media`, { title: 'Street walk', url: 'https://vimeo.com/123456' })).status, 303);
    const [id] = await pendingIds();
    const review = await editor.get(`/moderate/${id}`);
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Street walk', url: 'https://vimeo.com/123456', action: 'approve' });
    assert.equal(approved.status, 303);
    const recordId = Number(/\/videos\/(\d+)\/$/.exec(String(approved.headers.location))![1]);
    assert.equal((await api(`/api/v1/media/${recordId}/`)).url, 'https://vimeo.com/123456');
    const history = await editor.get(`/history/media/${recordId}`);
    const undo = /action="[^"]*(\/history\/media\/\d+\/revert\/\d+)"/.exec(history.text)![1]!;
    assert.equal((await other.post(undo, { csrf: csrfOf((await other.get('/account/')).text) })).status, 403, 'not by a contributor');
    assert.equal((await editor.post(undo, { csrf: csrfOf(history.text) })).status, 303);
    assert.equal((await app.request(`/api/v1/media/${recordId}/`)).status, 404, 'gone from the API at once');
    // Its author is told, with no link to the record that is gone; the review no longer says "Already published".
    const mine = await contributor.get('/account/');
    assert.match(mine.text, /Street walk<\/a>\n<span class="muted">[^<]*<a [^>]*>[^<]*<\/a>, sent [\d-]+:<\/span> <strong class="state state-withdrawn">published, then withdrawn by an editor<\/strong><\/li>/);
    assert.ok(!mine.text.includes(`/videos/${recordId}/`), 'no link to the record');
    const reviewed = await editor.get(`/moderate/${id}`);
    assert.ok(reviewed.text.includes('<h2 id="moderation-heading">Published, then withdrawn by an undo</h2>'));
    assert.ok(!reviewed.text.includes('Already published'));
    const after = await editor.get(`/history/media/${recordId}`);
    assert.match(after.text, /<h2>Undid change \d+<\/h2>/);
    // Undone already: the same undo again changes nothing and says so.
    assert.equal((await editor.post(undo, { csrf: csrfOf(after.text) })).status, 409);
  });

  test('contributions outlive an import of the whole catalogue', async () => {
    await importInto(database.settings, buildTestCatalogue());
    assert.ok((await contributor.get('/account/')).text.includes('Memories of the generating station'));
  });
});

test('off: a building\'s page has no contribution links', async () => {
  const app = await startTestApp();
  try {
    const page = await new FormClient(app).get(`/places/${FEATURE}/`);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('/contribute/'));
    // The header as it was before contributions had links in it, byte for byte.
    assert.ok(page.text.includes(`<li><a href="${app.origin}/about/#data">Data</a></li>\n</ul></nav>`));
    assert.ok(!page.text.includes('/account/'));
    assert.equal((await app.request(`/contribute/${FEATURE}/document`)).status, 404);
    assert.equal((await app.request('/moderate/')).status, 404);
  } finally {
    await app.close();
  }
});
