// The editors' changes (issue 47), black-box through the app on either store (PostgreSQL: the
// twin in test/postgres/): a record's history in words, a change file previewed then applied
// as one change, the latest changes, undo of a whole change, and who may do any of it.
// Expected words are written out here, not taken from the code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Feature } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { databaseRows } from '../support/database-rows.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { unescaped } from '../support/html-text.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const FORMAT = 'heritage-changes/1';

/** A page's text: tags out, entities read, spaces folded. */
const textOf = (html: string) => unescaped(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').replace(/ ([,.;:)])/g, '$1');

/** A record of the test catalogue, as a change file would give it. */
function feature(id: number, change: Partial<Feature> = {}): Feature {
  const found = buildTestCatalogue().features.find((f) => f.id === id);
  assert.ok(found, `feature ${id} is in the test catalogue`);
  return { ...found, ...change };
}

function image9(change: Record<string, unknown>) {
  const found = buildTestCatalogue().images.find((i) => i.id === 9);
  assert.ok(found);
  return { ...found, ...change };
}

/** The hidden fields of a preview's "Apply these changes" form. */
function applyForm(html: string): Record<string, string> {
  const form = /<form method="post" action="[^"]*\/edit\/changes" enctype="multipart\/form-data">([^]*?)<\/form>/.exec(html);
  assert.ok(form, 'the preview has an apply form');
  const fields: Record<string, string> = { action: 'apply' };
  for (const m of form[1]!.matchAll(/<input type="hidden" name="([a-z]+)" value="([^"]*)">/g)) fields[m[1]!] = unescaped(m[2]!);
  assert.deepEqual(Object.keys(fields).sort(), ['action', 'carried', 'csrf', 'name', 'seal', 'seen']);
  return fields;
}

function multipartOf(fields: Record<string, string>, file?: { name: string; text: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([file.text], { type: 'application/json' }), file.name);
  return form;
}

describe('editors\' changes: history, change files, latest changes, undo', () => {
  let database: TestDatabase;
  let app: TestApp;
  let editor: FormClient;
  let contributor: FormClient;

  const version = async () => Number((await databaseRows(database, "SELECT value FROM meta WHERE key = 'catalogue_version'"))[0]?.value);
  const api = async (path: string) => {
    const answer = await app.request(path);
    return { status: answer.status, body: answer.status === 200 ? (answer.json() as Record<string, unknown>) : null };
  };
  const csrf = async (client: FormClient) => csrfOf((await client.get('/account/')).text);
  /** Previews a change file sent as a file; returns the page. */
  const previewFile = async (client: FormClient, name: string, file: object) =>
    client.postMultipart('/edit/changes', multipartOf({ csrf: await csrf(client), action: 'preview' }, { name, text: JSON.stringify(file) }));
  /** Previews, then applies from the preview's form: the apply's answer. */
  const applyFile = async (name: string, file: object) => {
    const preview = await previewFile(editor, name, file);
    assert.equal(preview.status, 200, textOf(preview.text));
    return editor.postMultipart('/edit/changes', multipartOf(applyForm(preview.text)));
  };

  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    contributor = new FormClient(app);
    assert.equal((await contributor.submit('/account/signup', { username: 'rosa-local', password: PASSWORD })).status, 303);
    const add = await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    editor = new FormClient(app);
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('contributors get 403 and anonymous visitors 303 on every page and form of changes, before anything is read', async () => {
    const anonymous = new FormClient(app);
    const start = await version();
    const contributorCsrf = await csrf(contributor);
    const file = JSON.stringify({ format: FORMAT, features: { remove: [5] } });
    for (const path of ['/edit/changes', '/edit/recent', '/edit/recent?before=3', '/history/features/5', '/history/sites/1', '/history/nothing/1']) {
      const got = await contributor.get(path);
      assert.equal(got.status, 403, path);
      assert.ok(!got.text.includes('Osborn'), `${path}: nothing of the record`);
      const seen = await anonymous.get(path);
      assert.equal(seen.status, 303, path);
      assert.equal(seen.headers.location, `${app.origin}/account/signin`);
    }
    for (const client of [contributor, anonymous]) {
      const expected = client === contributor ? 403 : 303;
      assert.equal((await client.post('/edit/changes', { csrf: contributorCsrf, text: file, action: 'preview' })).status, expected);
      assert.equal((await client.postMultipart('/edit/changes', multipartOf({ csrf: contributorCsrf, action: 'preview' }, { name: 'x.json', text: file }))).status, expected);
      assert.equal((await client.post('/history/features/5/revert/1', { csrf: contributorCsrf })).status, expected);
    }
    assert.equal(await version(), start, 'nothing changed');
    assert.equal((await api('/api/v1/features/5/')).status, 200);
  });

  test('each POST without the editor\'s own csrf is refused (403), and nothing changes', async () => {
    const start = await version();
    const file = JSON.stringify({ format: FORMAT, features: { remove: [5] } });
    const other = await csrf(contributor);
    for (const given of ['', other]) {
      assert.equal((await editor.post('/edit/changes', { csrf: given, text: file, action: 'preview' })).status, 403, `urlencoded, csrf ${given}`);
      assert.equal((await editor.postMultipart('/edit/changes', multipartOf({ csrf: given, action: 'preview' }, { name: 'x.json', text: file }))).status, 403, `multipart, csrf ${given}`);
      assert.equal((await editor.post('/history/features/5/revert/1', { csrf: given })).status, 403, `revert, csrf ${given}`);
    }
    assert.equal(await version(), start);
    assert.equal((await api('/api/v1/features/5/')).status, 200);
  });

  test('an approval\'s history reads in words: who, when, what, and each field by its name', async () => {
    assert.equal((await contributor.submit('/contribute/1/document', { title: 'Memories of the station', body: 'Built in 1898.' })).status, 303);
    const queue = await editor.get('/moderate/');
    const id = Number(/\/moderate\/(\d+)"/.exec(queue.text)![1]);
    const review = await editor.get(`/moderate/${id}`);
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title: 'Memories of the station', body: 'Built in 1898.', action: 'approve' });
    assert.equal(approved.status, 303);
    const recordId = Number(/\/documents\/(\d+)\/$/.exec(String(approved.headers.location))![1]);
    const history = await editor.get(`/history/documents/${recordId}`);
    assert.equal(history.status, 200);
    const words = textOf(history.text);
    assert.match(words, /History of Memories of the station/);
    assert.match(words, new RegExp(`A writing, number ${recordId}, in the catalogue\\.`));
    assert.match(words, new RegExp(`Approved contribution ${id} By ed-editor, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`));
    assert.match(words, /Added to the catalogue: Building Former Whitechapel electricity-generating station Author rosa-local Title Memories of the station Text Built in 1898\. Written \d{4}-/);
    assert.match(words, /Published yes/);
    assert.ok(!history.text.includes('"author"'), 'no JSON');
    assert.ok(!words.includes('(not published)'));
    // The approval made the author too: one change of two records, named on the page.
    assert.match(words, /Also in this change: rosa-local\./);
    assert.ok(history.text.includes(`href="${app.origin}/documents/${recordId}/"`), 'its page');
    assert.ok(history.text.includes(`/history/documents/${recordId}/revert/`), 'the latest can be undone');
  });

  const EDIT = {
    format: FORMAT,
    sites: { put: [{ id: 2, name: 'Toynbee Hall' }] },
    features: { put: [feature(5, { address: '7 Fournier Street', site: 2, categories: [3] }), feature(7)], remove: [999] },
    images: { put: [image9({ copyright: true, title: 'St Mary\'s, 1890' })] },
  };

  test('a change file\'s preview lists exactly what it would change, record by record in words, and changes nothing', async () => {
    const start = await version();
    const preview = await previewFile(editor, 'fournier.json', EDIT);
    assert.equal(preview.status, 200);
    const words = textOf(preview.text);
    const records = [...preview.text.matchAll(/<h3>(Added|Replaced|Removed): <a href="[^"]*\/history\/([a-z]+)\/(\d+)"/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    assert.deepEqual(records, ['Added sites 2', 'Replaced features 5', 'Replaced images 9']);
    assert.match(words, /Address 5 Osborn Street, London E1 6TD → 7 Fournier Street/);
    assert.match(words, /Site The Royal London Hospital → Toynbee Hall/);
    assert.match(words, /Categories added Pubs/);
    assert.match(words, /Licence open licence → the contributor keeps the copyright/);
    assert.match(words, /Title St Mary's #2 → St Mary's, 1890/);
    assert.match(words, /Added: Toynbee Hall .* Name Toynbee Hall/);
    assert.match(words, /2 records it names are already as the file gives them: no change\./);
    assert.ok(!words.includes('Postcode'), 'unchanged fields are not listed');
    assert.equal(await version(), start, 'a preview changes nothing');
    assert.equal((await api('/api/v1/features/5/')).body?.properties && ((await api('/api/v1/features/5/')).body!.properties as { address: string }).address, '5 Osborn Street, London E1 6TD');
  });

  test('a change file with errors is refused whole, every problem by its JSON path, and nothing changes', async () => {
    const start = await version();
    const broken = { format: FORMAT, features: { put: [feature(5, { current: 'soon' as unknown as number }), feature(7, { feature_type: 'CASTLE' as Feature['feature_type'] })] }, media: { remove: [4, 4] } };
    const refused = await previewFile(editor, 'broken.json', broken);
    assert.equal(refused.status, 400);
    const words = textOf(refused.text);
    assert.match(words, /Problems in broken\.json/);
    for (const problem of ['features.put[0].current: must be an integer or null, not "soon"', 'features.put[1].feature_type: must be one of', 'media.remove[1]: id 4 is listed twice']) assert.ok(words.includes(problem), problem);
    assert.match(words, /Nothing was changed\./);
    // References are judged by the store: an image of a building that does not exist.
    const dangling = await editor.post('/edit/changes', { csrf: await csrf(editor), action: 'preview', text: JSON.stringify({ format: FORMAT, images: { put: [image9({ feature: 4242 })] } }) });
    assert.equal(dangling.status, 400);
    assert.match(textOf(dangling.text), /images\.put\[0\]\.feature: /);
    assert.ok(dangling.text.includes('4242'), 'the text is kept in its field');
    assert.equal((await editor.post('/edit/changes', { csrf: await csrf(editor), action: 'preview', text: 'not json' })).status, 400);
    // Past the bound (64 records at the catalogue's largest: 4,096,000 bytes by default): 413, the form again.
    const huge = await editor.postMultipart('/edit/changes', multipartOf({ csrf: await csrf(editor), action: 'preview' }, { name: 'huge.json', text: `{"format":"${FORMAT}","sites":{"put":[{"id":9,"name":"${'x'.repeat(4_100_000)}"}]}}` }));
    assert.equal(huge.status, 413);
    assert.match(textOf(huge.text), /A change file sent here is at most 4,000 KB/);
    assert.equal(await version(), start);
  });

  test('applied from its preview: one change, one new version, served at once, in each record\'s history and the latest changes', async () => {
    const start = await version();
    const applied = await applyFile('fournier.json', EDIT);
    assert.equal(applied.status, 303);
    assert.equal(applied.headers.location, `${app.origin}/edit/recent`);
    assert.equal(await version(), start + 1, 'one new version');
    assert.equal(((await api('/api/v1/features/5/')).body!.properties as { address: string }).address, '7 Fournier Street');
    assert.equal(((await api('/api/v1/images/9/')).body as { title: string }).title, 'St Mary\'s, 1890');
    const rows = await databaseRows(database, 'SELECT list, record_id, change_version FROM record_changes WHERE what = $1 ORDER BY id', ['applied change file «fournier.json»']);
    assert.deepEqual(rows.map((r) => `${r.list} ${r.record_id} ${r.change_version}`), [`sites 2 ${start + 1}`, `features 5 ${start + 1}`, `images 9 ${start + 1}`]);
    const history = textOf((await editor.get('/history/features/5')).text);
    assert.match(history, /History of Altab Ali Park A place, number 5, in the catalogue\./);
    assert.match(history, /Applied change file «fournier\.json» By ed-editor/);
    assert.match(history, /Address 5 Osborn Street, London E1 6TD → 7 Fournier Street/);
    assert.match(history, /Also in this change: Toynbee Hall, St Mary's, 1890\./);
    const recent = await editor.get('/edit/recent');
    assert.equal(recent.status, 200);
    const heads = [...recent.text.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => unescaped(m[1]!));
    assert.deepEqual(heads.slice(0, 2), ['Applied change file «fournier.json»', heads[1]]);
    assert.match(heads[1]!, /^Approved contribution \d+$/, 'newest first');
    assert.ok(recent.text.includes(`href="${app.origin}/history/features/5"`), 'linked to its history');
    assert.ok(recent.text.includes(`href="${app.origin}/places/5/"`), 'and its page');
    assert.ok(recent.text.includes(`href="${app.origin}/history/sites/2"`));
    // The editors' account page leads here.
    const account = await editor.get('/account/');
    assert.ok(account.text.includes(`href="${app.origin}/edit/recent"`) && account.text.includes(`href="${app.origin}/edit/changes"`));
  });

  test('undone as one from the latest changes: every record back, in one new version', async () => {
    const recent = await editor.get('/edit/recent');
    const undo = /<form method="post" action="[^"]*(\/history\/[a-z]+\/\d+\/revert\/\d+)" class="undo">/.exec(recent.text);
    assert.ok(undo, 'the newest change can be undone');
    const start = await version();
    const undone = await editor.post(undo[1]!, { csrf: csrfOf(recent.text) });
    assert.equal(undone.status, 303);
    assert.equal(await version(), start + 1, 'one new version');
    assert.equal(((await api('/api/v1/features/5/')).body!.properties as { address: string }).address, '5 Osborn Street, London E1 6TD');
    assert.equal(((await api('/api/v1/images/9/')).body as { title: string }).title, 'St Mary\'s #2');
    assert.equal((await databaseRows(database, 'SELECT id FROM sites WHERE id = 2')).length, 0, 'the site it added is gone');
    const rows = await databaseRows(database, "SELECT list, record_id, change_version FROM record_changes WHERE what LIKE 'undid change %' ORDER BY id");
    assert.deepEqual(rows.map((r) => `${r.list} ${r.record_id} ${r.change_version}`), [`sites 2 ${start + 1}`, `features 5 ${start + 1}`, `images 9 ${start + 1}`]);
    const history = textOf((await editor.get('/history/features/5')).text);
    assert.match(history, /Undid change \d+ By ed-editor/);
    assert.match(history, /Address 7 Fournier Street → 5 Osborn Street, London E1 6TD/);
    // The site the undone change added is gone, and still named by what it was called.
    assert.match(textOf((await editor.get('/edit/recent')).text), /Removed: Toynbee Hall \(not in the catalogue now\) \(site 2\)/);
  });

  test('an undo is refused, naming the record, when a later change touched one of its records', async () => {
    const first = await applyFile('two.json', { format: FORMAT, features: { put: [feature(5, { postcode: 'E1 6QL' }), feature(11, { postcode: 'E1 6QL' })] } });
    assert.equal(first.status, 303);
    assert.equal((await applyFile('one.json', { format: FORMAT, features: { put: [feature(11, { postcode: 'E1 7AA' })] } })).status, 303);
    const history = await editor.get('/history/features/5');
    const undo = /action="[^"]*(\/history\/features\/5\/revert\/\d+)"/.exec(history.text);
    assert.ok(undo, 'feature 5\'s latest change is offered');
    const start = await version();
    const refused = await editor.post(undo[1]!, { csrf: csrfOf(history.text) });
    assert.equal(refused.status, 409);
    assert.match(textOf(refused.text), /This change cannot be undone: the building Building 11 \(number 11\) has changed since; undo its later change first\. Nothing was changed\./);
    assert.equal(await version(), start);
    assert.equal(((await api('/api/v1/features/5/')).body!.properties as { postcode: string }).postcode, 'E1 6QL');
  });

  test('the apply form sent twice at once makes one change; a second preview of what is applied changes nothing', async () => {
    const preview = await previewFile(editor, 'twice.json', { format: FORMAT, features: { put: [feature(13, { address: '13 Wentworth Street' })] } });
    const form = applyForm(preview.text);
    const start = await version();
    const answers = await Promise.all([editor.postMultipart('/edit/changes', multipartOf(form)), editor.postMultipart('/edit/changes', multipartOf(form))]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [303, 409]);
    const late = answers.find((a) => a.status === 409)!;
    assert.match(textOf(late.text), /The catalogue has changed since this preview, in records this file touches: nothing was changed\./);
    assert.match(textOf(late.text), /Nothing: the catalogue already holds every record as the file gives it\./);
    assert.equal(await version(), start + 1);
    assert.equal((await databaseRows(database, 'SELECT id FROM record_changes WHERE what = $1', ['applied change file «twice.json»'])).length, 1);
  });

  test('a carried file changed on its way back, or from another session, is refused and nothing changes', async () => {
    const preview = await previewFile(editor, 'carried.json', { format: FORMAT, features: { put: [feature(15, { address: '15 Wentworth Street' })] } });
    const form = applyForm(preview.text);
    const start = await version();
    const tampered = { ...form, carried: form.carried!.replace('15 Wentworth Street', '15 Commercial Street') };
    const refused = await editor.postMultipart('/edit/changes', multipartOf(tampered));
    assert.equal(refused.status, 400);
    assert.match(textOf(refused.text), /The file sent back is not the one previewed/);
    assert.equal((await editor.postMultipart('/edit/changes', multipartOf({ ...form, seen: 'x' }))).status, 400, 'its digest changed');
    assert.equal((await editor.postMultipart('/edit/changes', multipartOf({ ...form, name: 'other.json' }))).status, 400, 'its name changed');
    // Another editor's session, with its own csrf: the seal was made for this one.
    const add = await runCli(['users', 'add', 'eve-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    const eve = new FormClient(app);
    assert.equal((await eve.submit('/account/signin', { username: 'eve-editor', password: PASSWORD })).status, 303);
    assert.equal((await eve.postMultipart('/edit/changes', multipartOf({ ...form, csrf: await csrf(eve) }))).status, 400);
    assert.equal(await version(), start);
    assert.equal(((await api('/api/v1/features/15/')).body!.properties as { address: string }).address, '15 Osborn Street, London E1 6TD');
  });

  test('the latest changes page by page, newest first, bounded', async () => {
    const first = await editor.get('/edit/recent');
    const heads = [...first.text.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => unescaped(m[1]!));
    assert.deepEqual(heads.slice(0, 4), ['Applied change file «twice.json»', 'Applied change file «one.json»', 'Applied change file «two.json»', heads[3]]);
    assert.match(heads[3]!, /^Undid change \d+$/);
    assert.ok(!first.text.includes('rel="next"'), 'fewer than a page: no older page');
    assert.equal((await editor.get('/edit/recent?before=1')).status, 200);
    assert.equal((await editor.get('/edit/recent?before=abc')).status, 404);
  });
});
