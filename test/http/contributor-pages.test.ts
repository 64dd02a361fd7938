// Issue 47's contributors' points, black-box over HTTP on either store (PostgreSQL: the twin
// in test/postgres/): back to the form after signing in (same-site paths only), the rules said
// before they are broken, a preview, writing in Markdown's safe subset, the thanks once sent,
// a contributor's own contribution opened, corrected (under the editors' digest) and
// withdrawn, forms kept on every refusal (an expired one too), "Saved" after an editor's
// correction, and a picture's licence that only its contributor changes. Expected texts are
// written out here, not taken from the code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { keptPictures } from '../support/database-rows.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const FEATURE = 1;
const EXPIRED = 'This form had expired, or was opened in another browser or session: nothing was sent.';
const CHOOSE_AGAIN = 'Your words are kept below, but a browser cannot keep the picture: choose the file again.';

describe('a contributor\'s pages', () => {
  let database: TestDatabase;
  let app: TestApp;
  let rosa: FormClient;
  let sam: FormClient;
  let editor: FormClient;

  const pendingIds = async () => [...(await editor.get('/moderate/')).text.matchAll(/href="[^"]*\/moderate\/(\d+)"/g)].map((m) => Number(m[1]));
  const ownId = (location: unknown) => Number(new RegExp(`^${app.origin}/account/contributions/(\\d+)\\?done=sent$`).exec(String(location))?.[1]);
  const picture = async (browser: FormClient, fields: Record<string, string>, csrf?: string) => {
    const page = await browser.get(`/contribute/${FEATURE}/image`);
    const data = new FormData();
    data.append('csrf', csrf ?? csrfOf(page.text));
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#36c' } }).jpeg().toBuffer();
    data.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'p.jpg');
    return browser.postMultipart(`/contribute/${FEATURE}/image`, data);
  };

  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    sam = new FormClient(app);
    assert.equal((await sam.submit('/account/signup', { username: 'sam-other', password: PASSWORD })).status, 303);
    assert.equal((await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` })).code, 0);
    editor = new FormClient(app);
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('signed out, a form leads to signing in and back to it; signing up on the way too', async () => {
    const path = `/contribute/${FEATURE}/image`;
    const anonymous = new FormClient(app);
    const asked = await anonymous.get(path);
    assert.equal(asked.status, 303);
    assert.equal(asked.headers.location, `${app.origin}/account/signin?next=%2Fcontribute%2F${FEATURE}%2Fimage`);
    const signIn = await anonymous.get(`/account/signin?next=%2Fcontribute%2F${FEATURE}%2Fimage`);
    assert.ok(signIn.text.includes(`<input type="hidden" name="next" value="${path}">`));
    assert.ok(signIn.text.includes(`href="${app.origin}/account/signup?next=%2Fcontribute%2F${FEATURE}%2Fimage"`), 'signing up keeps it too');
    const signUp = await anonymous.get(`/account/signup?next=%2Fcontribute%2F${FEATURE}%2Fimage`);
    const made = await anonymous.post('/account/signup', { csrf: csrfOf(signUp.text), next: path, username: 'rosa-local', password: PASSWORD });
    assert.equal(made.status, 303);
    assert.equal(made.headers.location, `${app.origin}${path}`, 'signed up: at the form');
    rosa = anonymous;
    assert.equal((await rosa.get(path)).status, 200);
    const again = new FormClient(app);
    const form = await again.get(`/account/signin?next=${encodeURIComponent(path)}`);
    const signedIn = await again.post('/account/signin', { csrf: csrfOf(form.text), next: path, username: 'sam-other', password: PASSWORD });
    assert.equal(signedIn.headers.location, `${app.origin}${path}`, 'signed in: at the form');
    // A POST of a form signed out comes back to that form's page too.
    const posted = await new FormClient(app).post(`/contribute/${FEATURE}/document`, { csrf: 'x', title: 't', body: 'b' });
    assert.equal(posted.headers.location, `${app.origin}/account/signin?next=%2Fcontribute%2F${FEATURE}%2Fdocument`);
  });

  test('next= leads only to a path of this site: anything else to the account page', async () => {
    for (const next of ['//evil.example/', '/\\evil.example/', '\\\\evil.example', 'https://evil.example/', 'javascript:alert(1)', 'evil.example', '/%0d%0aSet-Cookie:x', '/a\r\nLocation: //evil.example', ' /x', '/\tx', `/${'a'.repeat(2100)}`]) {
      const browser = new FormClient(app);
      const page = await browser.get(`/account/signin?next=${encodeURIComponent(next)}`);
      assert.ok(!page.text.includes('name="next"') || next === '/%0d%0aSet-Cookie:x', `${JSON.stringify(next)}: not carried`);
      const answer = await browser.post('/account/signin', { csrf: csrfOf(page.text), next, username: 'sam-other', password: PASSWORD });
      assert.equal(answer.status, 303, next);
      // Percent-encoded, a line break is a path of this site like any other: it stays one.
      const expected = next === '/%0d%0aSet-Cookie:x' ? `${app.origin}/%0d%0aSet-Cookie:x` : `${app.origin}/account/`;
      assert.equal(answer.headers.location, expected, JSON.stringify(next));
    }
  });

  test('the rules said before they are broken: a name\'s and a password\'s on the sign-up form, a date\'s on the picture form; a future date refused saying so', async () => {
    const signUp = await new FormClient(app).get('/account/signup');
    assert.ok(signUp.text.includes('<span class="muted" id="username-hint">From 3 to 40 letters, digits, dots, hyphens or underscores: the name others see beside what you send.</span>'));
    assert.ok(signUp.text.includes('aria-describedby="username-hint"'));
    assert.ok(signUp.text.includes('At least 10 characters'));
    const form = await rosa.get(`/contribute/${FEATURE}/image`);
    assert.ok(form.text.includes('The day, as YYYY-MM-DD (for example 1998-06-21), not in the future; leave it empty when not known.'));
    const future = await picture(rosa, { title: 'Tomorrow', description: 'Not yet', created: '2999-01-01', licence: 'open' });
    assert.equal(future.status, 400);
    assert.ok(future.text.includes('2999-01-01 is in the future: give the day the picture was made, or leave it empty.'));
  });

  test('a refused picture form keeps the words and says to choose the file again; an expired one too', async () => {
    const fields = { title: 'The yard <b>1975</b>', description: 'From the back gate.', created: '1975-13-40', licence: 'open' };
    const refused = await picture(rosa, fields);
    assert.equal(refused.status, 400);
    assert.ok(refused.text.includes(CHOOSE_AGAIN));
    assert.ok(refused.text.includes('value="The yard &lt;b&gt;1975&lt;/b&gt;"') && refused.text.includes('>From the back gate.</textarea>'), 'the words kept');
    assert.match(refused.text, /id="licence-open" name="licence" value="open" checked/);
    const expired = await picture(rosa, { ...fields, created: '' }, 'an-old-token');
    assert.equal(expired.status, 403);
    assert.ok(expired.text.includes(EXPIRED) && expired.text.includes(CHOOSE_AGAIN));
    assert.ok(expired.text.includes('>From the back gate.</textarea>'));
    assert.equal(csrfOf(expired.text), csrfOf((await rosa.get(`/contribute/${FEATURE}/image`)).text), 'a fresh csrf to send it with');
    assert.deepEqual(await pendingIds(), [], 'nothing kept');
  });

  test('writing: previewed as it will be published, nothing kept; sent with thanks; the review and the API show the same HTML', async () => {
    const body = 'Built in **1726** by *Huguenot* weavers <script>alert(1)</script>\n\nSee [the survey](https://example.org/s).';
    const html = '<p>Built in <strong>1726</strong> by <em>Huguenot</em> weavers &lt;script&gt;alert(1)&lt;/script&gt;</p><p>See <a href="https://example.org/s" rel="nofollow noopener noreferrer">the survey</a>.</p>';
    const form = await rosa.get(`/contribute/${FEATURE}/document`);
    assert.ok(form.text.includes('<strong>How to format:</strong>'));
    assert.ok(form.text.includes('<button type="submit" name="action" value="preview">Preview</button>'));
    const preview = await rosa.post(`/contribute/${FEATURE}/document`, { csrf: csrfOf(form.text), title: 'Weavers', body, action: 'preview' });
    assert.equal(preview.status, 200);
    assert.ok(preview.text.includes(`<div class="body">${html}</div>`), 'the body as it will be published');
    assert.ok(preview.text.includes('>Built in **1726**'), 'the text kept in the form');
    assert.deepEqual(await pendingIds(), [], 'nothing kept');
    const expired = await rosa.post(`/contribute/${FEATURE}/document`, { csrf: 'stale', title: 'Weavers', body, action: 'send' });
    assert.equal(expired.status, 403);
    assert.ok(expired.text.includes(EXPIRED) && expired.text.includes('value="Weavers"') && expired.text.includes('>Built in **1726**'), 'what was written, kept');
    const sent = await rosa.post(`/contribute/${FEATURE}/document`, { csrf: csrfOf(expired.text), title: 'Weavers', body, action: 'send' });
    assert.equal(sent.status, 303);
    const id = ownId(sent.headers.location);
    const thanks = await rosa.get(`/account/contributions/${id}?done=sent`);
    assert.equal(thanks.status, 200);
    assert.ok(thanks.text.includes('<p class="notice" role="status">Thank you — sent. It is waiting for an editor'));
    assert.ok(thanks.text.includes(html), 'shown as it will be published');
    const review = await editor.get(`/moderate/${id}`);
    assert.ok(review.text.includes(html), 'the review shows the same');
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Weavers', body, action: 'approve' });
    const recordId = Number(/\/documents\/(\d+)\/$/.exec(String(approved.headers.location))?.[1]);
    assert.equal((await app.request(`/api/v1/documents/${recordId}/`)).json().body, html, 'and the API');
  });

  test('a contributor opens their waiting contribution, corrects it and withdraws it; nobody else can; an editor\'s stale page is refused', async () => {
    const form = await rosa.get(`/contribute/${FEATURE}/media`);
    const sent = await rosa.post(`/contribute/${FEATURE}/media`, { csrf: csrfOf(form.text), title: 'A walk', url: 'https://vimeo.com/1234' });
    const id = ownId(sent.headers.location);
    assert.ok(id > 0, String(sent.headers.location));
    const review = await editor.get(`/moderate/${id}`);
    const page = await rosa.get(`/account/contributions/${id}`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('value="A walk"') && page.text.includes('value="https://vimeo.com/1234"'), 'the form filled in');
    assert.ok((await rosa.get('/account/')).text.includes(`href="${app.origin}/account/contributions/${id}"`), 'linked from the account page');
    // Someone else's, or none: the same 404; signed out: to sign in, and back.
    assert.equal((await sam.get(`/account/contributions/${id}`)).status, 404);
    assert.equal((await sam.get('/account/contributions/999999')).status, 404);
    const samCsrf = csrfOf((await sam.get('/account/')).text);
    assert.equal((await sam.post(`/account/contributions/${id}`, { csrf: samCsrf, seen: seenOf(page.text), title: 'Taken', url: 'https://vimeo.com/1' })).status, 404);
    assert.equal((await sam.post(`/account/contributions/${id}/withdraw`, { csrf: samCsrf })).status, 404);
    assert.equal((await new FormClient(app).get(`/account/contributions/${id}`)).headers.location, `${app.origin}/account/signin?next=%2Faccount%2Fcontributions%2F${id}`);
    // Corrected: kept, still waiting; refused (nothing written) with a problem, an expired form, or over a correction made since.
    const bad = await rosa.post(`/account/contributions/${id}`, { csrf: csrfOf(page.text), seen: seenOf(page.text), title: 'A walk', url: 'https://evil.example/v' });
    assert.equal(bad.status, 400);
    assert.ok(bad.text.includes('value="https://evil.example/v"'), 'the form kept');
    assert.equal((await rosa.post(`/account/contributions/${id}`, { csrf: 'stale', seen: seenOf(page.text), title: 'A walk', url: 'https://vimeo.com/1234' })).status, 403);
    const saved = await rosa.post(`/account/contributions/${id}`, { csrf: csrfOf(page.text), seen: seenOf(page.text), title: 'A walk down Fournier Street', url: 'https://vimeo.com/5678' });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.location, `${app.origin}/account/contributions/${id}?done=saved`);
    assert.ok((await rosa.get(`/account/contributions/${id}?done=saved`)).text.includes('Saved: your correction is kept, and it still waits for an editor.'));
    const stale = await rosa.post(`/account/contributions/${id}`, { csrf: csrfOf(page.text), seen: seenOf(page.text), title: 'Older', url: 'https://vimeo.com/1234' });
    assert.equal(stale.status, 409, 'over a correction made since');
    assert.ok(stale.text.includes('value="A walk down Fournier Street"'));
    assert.deepEqual(await pendingIds(), [id]);
    const approveStale = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'A walk', url: 'https://vimeo.com/1234', action: 'approve' });
    assert.equal(approveStale.status, 409, 'the editor\'s page was made before the author\'s correction');
    assert.ok((await editor.get(`/moderate/${id}`)).text.includes('value="A walk down Fournier Street"'), 'the editor sees the correction');
    // Withdrawn: out of the queue, no decision takes it, no correction either.
    const withdrawn = await rosa.post(`/account/contributions/${id}/withdraw`, { csrf: csrfOf(page.text) });
    assert.equal(withdrawn.headers.location, `${app.origin}/account/contributions/${id}?done=withdrawn`);
    assert.deepEqual(await pendingIds(), [], 'not in the queue');
    const fresh = await editor.get(`/moderate/${id}`);
    assert.ok(fresh.text.includes('Withdrawn by its contributor'));
    assert.equal((await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'A walk', url: 'https://vimeo.com/5678', action: 'approve' })).status, 409);
    assert.equal((await rosa.post(`/account/contributions/${id}`, { csrf: csrfOf(page.text), seen: seenOf(review.text), title: 'Again', url: 'https://vimeo.com/5678' })).status, 409);
    assert.match((await rosa.get('/account/')).text, /<strong class="state state-cancelled">withdrawn by you<\/strong>/);
  });

  test('a picture: its author sees it waiting and withdraws it (its sizes deleted with it); an editor\'s "Save the correction" says Saved, and cannot change its licence', async () => {
    const sent = await picture(rosa, { title: 'The door', description: '', created: '', licence: 'copyright' });
    assert.equal(sent.status, 303);
    const id = ownId(sent.headers.location);
    const page = await rosa.get(`/account/contributions/${id}`);
    assert.ok(page.text.includes(`src="${app.origin}/account/contributions/${id}/picture"`));
    assert.equal((await rosa.get(`/account/contributions/${id}/picture`)).headers['content-type'], 'image/jpeg');
    assert.equal((await sam.get(`/account/contributions/${id}/picture`)).status, 404);
    const keptBefore = await keptPictures(database);
    assert.equal((await rosa.post(`/account/contributions/${id}/withdraw`, { csrf: csrfOf(page.text) })).status, 303);
    assert.equal(await keptPictures(database), keptBefore - 3, 'its three sizes deleted');
    assert.equal((await rosa.get(`/account/contributions/${id}/picture`)).status, 404);

    const second = ownId((await picture(rosa, { title: 'The window', description: '', created: '', licence: 'copyright' })).headers.location);
    const review = await editor.get(`/moderate/${second}`);
    assert.ok(!review.text.includes('name="licence"'), 'no licence field for the editor');
    assert.ok(review.text.includes('<strong>How others may use it:</strong> the contributor keeps the copyright'));
    const saved = await editor.post(`/moderate/${second}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'The window, 1900', description: '', created: '', licence: 'open', action: 'save' });
    assert.equal(saved.headers.location, `${app.origin}/moderate/${second}?saved=1`);
    const after = await editor.get(`/moderate/${second}?saved=1`);
    assert.ok(after.text.includes('<p class="notice" role="status">Saved: the correction is kept.'));
    const approved = await editor.post(`/moderate/${second}/approve`, { csrf: csrfOf(after.text), seen: seenOf(after.text), title: 'The window, 1900', description: '', created: '', licence: 'open', action: 'approve' });
    const recordId = Number(/\/pictures\/(\d+)\/$/.exec(String(approved.headers.location))?.[1]);
    const record = (await app.request(`/api/v1/images/${recordId}/`)).json();
    assert.equal(record.title, 'The window, 1900');
    assert.equal(record.copyright, true, 'the contributor\'s licence, whatever the editor sent');
  });
});
