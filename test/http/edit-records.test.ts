// Editors change the catalogue in the browser (issue 47), black-box over HTTP on either store
// (PostgreSQL: the twin in test/postgres/): a record's form edits it, adds one, removes one
// (a building with what is attached, after asking again); each save is one new catalogue
// version that every face serves at once; a save over a newer version changes nothing and
// shows both texts; bad input is refused with the form kept and the problem at its field;
// no one else reaches any of it. Expected values are written out here, not taken from the code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { fieldValue, formOf } from '../support/edit-form.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
/** Feature 5 of the test catalogue: a plain building, one published picture (9), one draft (972). */
const BUILDING = 5;

const SQUARE = (x: number, y: number, d = 0.0001) => ({ type: 'Polygon', coordinates: [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]] });

describe('editors edit the catalogue in the browser', () => {
  let database: TestDatabase;
  let app: TestApp;
  let editor: FormClient;
  let contributor: FormClient;

  const json = async (path: string) => {
    const answer = await app.request(path);
    assert.equal(answer.status, 200, path);
    return answer.json() as Record<string, unknown>;
  };
  const version = async () => (await runCli(['export', ...database.args])).stdout;
  const feature = async (id: number) => ((await json(`/api/v1/features/${id}/`)) as { properties: Record<string, unknown> }).properties;

  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    const add = await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    editor = new FormClient(app);
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
    contributor = new FormClient(app);
    assert.equal((await contributor.submit('/account/signup', { username: 'rosa-local', password: PASSWORD })).status, 303);
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('anonymous visitors are sent to sign in, contributors refused, on every editor\'s path, GET and POST, before anything is read', async () => {
    const paths = [`/edit/features/${BUILDING}`, '/edit/features/new', `/edit/features/${BUILDING}/delete`, '/edit/images/7', '/edit/categories/3', '/edit/sites/1',
      '/edit/features/999999', '/edit/nothing/1', '/edit/changes', '/edit/recent', '/edit/some/thing/else'];
    for (const path of paths) {
      for (const method of ['GET', 'POST'] as const) {
        const anonymous = method === 'GET' ? await new FormClient(app).get(path) : await new FormClient(app).post(path, { address: 'x' });
        assert.equal(anonymous.status, 303, `${method} ${path} anonymous`);
        assert.equal(anonymous.headers.location, `${app.origin}/account/signin`);
        const refused = method === 'GET' ? await contributor.get(path) : await contributor.post(path, { address: 'x' });
        assert.equal(refused.status, 403, `${method} ${path} contributor`);
        assert.ok(!refused.text.includes('Fournier') && !refused.text.includes('address'), `${method} ${path}: nothing of the record`);
      }
    }
  });

  test('record pages link editors to the record\'s form and history; everyone else gets the public page, byte for byte', async () => {
    for (const path of ['/places/1/', '/pictures/7/', '/documents/971/', '/videos/4/']) {
      const anonymous = await new FormClient(app).get(path);
      const signedIn = await contributor.get(path);
      assert.equal(anonymous.status, 200, path);
      assert.equal(signedIn.text, anonymous.text, `${path}: a contributor's page is the public page`);
      assert.ok(!anonymous.text.includes('/edit/'), path);
      const editors = await editor.get(path);
      assert.equal(editors.status, 200);
      assert.equal(editors.headers['cache-control'], 'private, no-store');
      const [list, id] = { '/places/1/': ['features', 1], '/pictures/7/': ['images', 7], '/documents/971/': ['documents', 971], '/videos/4/': ['media', 4] }[path]!;
      assert.ok(editors.text.includes(`<a href="${app.origin}/edit/${list}/${id}">Edit</a>`), path);
      assert.ok(editors.text.includes(`<a href="${app.origin}/history/${list}/${id}">History</a>`), path);
      assert.equal(editors.text.replace(/<nav class="editor-bar"[^]*?<\/nav>\n/, ''), anonymous.text, `${path}: the public page, with the bar alone added`);
    }
  });

  test('a POST without its form\'s csrf is refused and changes nothing', async () => {
    const page = await editor.get(`/edit/features/${BUILDING}`);
    const answer = await editor.post(`/edit/features/${BUILDING}`, { ...formOf(page.text), csrf: 'forged', address: 'Forged Street' });
    assert.equal(answer.status, 403);
    assert.notEqual((await feature(BUILDING))['address'], 'Forged Street');
  });

  test('an editor corrects an address: the API, the OGC item, the record page and search show it at once; the history keeps it', async () => {
    const page = await editor.get(`/edit/features/${BUILDING}`);
    assert.equal(page.status, 200);
    const form = formOf(page.text);
    assert.equal(form['address'], (await feature(BUILDING))['address']);
    const saved = await editor.post(`/edit/features/${BUILDING}`, { ...form, address: '7 Fournier Street' });
    assert.equal(saved.status, 303, saved.text);
    assert.match(saved.headers.location ?? '', new RegExp(`/edit/features/${BUILDING}\\?saved=\\d+$`));
    const after = await editor.get(saved.headers.location!.slice(app.origin.length));
    assert.ok(after.text.includes('Saved.'));
    assert.equal(fieldValue(after.text, 'address'), '7 Fournier Street');
    assert.equal((await feature(BUILDING))['address'], '7 Fournier Street');
    const item = (await json(`/ogc/collections/features/items/${BUILDING}?f=json`)) as { properties: { address: string } };
    assert.equal(item.properties.address, '7 Fournier Street');
    assert.ok((await new FormClient(app).get(`/places/${BUILDING}/`)).text.includes('7 Fournier Street'));
    assert.ok((await new FormClient(app).get('/search/?q=Fournier')).text.includes(`/places/${BUILDING}/`));
    const history = await editor.get(`/history/features/${BUILDING}`);
    assert.ok(history.text.includes('7 Fournier Street'));
    assert.ok(history.text.includes('ed-editor'));
  });

  test('a save over a newer version changes nothing and shows the other change beside what this editor wrote', async () => {
    const first = await editor.get(`/edit/features/${BUILDING}`);
    const other = new FormClient(app);
    assert.equal((await other.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
    const second = await other.get(`/edit/features/${BUILDING}`);
    assert.equal((await other.post(`/edit/features/${BUILDING}`, { ...formOf(second.text), b_name: 'The Other Editor\'s Name' })).status, 303);
    const late = await editor.post(`/edit/features/${BUILDING}`, { ...formOf(first.text), b_name: 'My Own Name' });
    assert.equal(late.status, 409);
    assert.ok(late.text.includes('Someone else saved this building'));
    assert.ok(late.text.includes('The Other Editor&#39;s Name'), 'theirs, shown');
    assert.equal(fieldValue(late.text, 'b_name'), 'My Own Name', 'mine, kept in the form');
    assert.equal((await feature(BUILDING))['b_name'], 'The Other Editor\'s Name');
    // Saved again from the conflict page (its version now the other's), it is taken.
    assert.notEqual(seenOf(late.text), seenOf(first.text));
    assert.equal((await editor.post(`/edit/features/${BUILDING}`, formOf(late.text))).status, 303);
    assert.equal((await feature(BUILDING))['b_name'], 'My Own Name');
  });

  test('two editors saving different records at once never meet: both are taken', async () => {
    const [one, two] = [await editor.get('/edit/sites/1'), await editor.get('/edit/categories/3')];
    const answers = await Promise.all([
      editor.post('/edit/sites/1', { ...formOf(one.text), name: 'The Royal London Hospital (old building)' }),
      editor.post('/edit/categories/3', { ...formOf(two.text), name: 'Public houses' }),
    ]);
    assert.deepEqual(answers.map((a) => a.status), [303, 303]);
    assert.ok((await editor.get('/edit/sites/1')).text.includes('value="The Royal London Hospital (old building)"'));
    assert.ok((await editor.get('/edit/categories/3')).text.includes('value="Public houses"'));
  });

  test('the same save sent twice at once: one is taken, the other meets it as a newer version', async () => {
    const page = await editor.get(`/edit/features/${BUILDING}`);
    const form = { ...formOf(page.text), postcode: 'E1 6QL' };
    const answers = await Promise.all([editor.post(`/edit/features/${BUILDING}`, form), editor.post(`/edit/features/${BUILDING}`, { ...form, postcode: 'E1 6QR' })]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [303, 409]);
  });

  test('bad input is refused with the form kept and the problem named at its field; nothing changes', async () => {
    const before = await version();
    const page = await editor.get(`/edit/features/${BUILDING}`);
    const form = formOf(page.text);
    const bowtie = { type: 'Polygon', coordinates: [[[-0.07, 51.51], [-0.069, 51.511], [-0.069, 51.51], [-0.07, 51.511], [-0.07, 51.51]]] };
    const crossed = await editor.post(`/edit/features/${BUILDING}`, { ...form, geometry: JSON.stringify(bowtie), address: 'Kept Street' });
    assert.equal(crossed.status, 400);
    assert.match(crossed.text, /self-intersection/);
    assert.equal(fieldValue(crossed.text, 'address'), 'Kept Street', 'the form kept');
    const year = await editor.post(`/edit/features/${BUILDING}`, { ...form, current: '99999' });
    assert.equal(year.status, 400);
    assert.match(year.text, /A year is a whole number from 1 to \d{4}, not &quot;99999&quot;/);
    assert.equal(fieldValue(year.text, 'current'), '99999');
    const category = await editor.post(`/edit/features/${BUILDING}`, { ...form, categories: ['3', '77'] });
    assert.equal(category.status, 400);
    assert.match(category.text, /there is no category with id 77/);
    const title = await editor.get('/edit/documents/971');
    const long = await editor.post('/edit/documents/971', { ...formOf(title.text), title: 'x'.repeat(300_000) });
    assert.equal(long.status, 400);
    assert.match(long.text, /Title<\/a>: .*(characters|bytes)/);
    const notJson = await editor.post(`/edit/features/${BUILDING}`, { ...form, geometry: '{"type": "Polygon", ' });
    assert.equal(notJson.status, 400);
    assert.match(notJson.text, /The footprint is not JSON/);
    assert.equal(await version(), before, 'the catalogue is as it was');
  });

  test('an editor adds a building with its footprint, and writing about it; both are served at once', async () => {
    const page = await editor.get('/edit/features/new');
    assert.equal(page.status, 200);
    const made = await editor.post('/edit/features/new', {
      ...formOf(page.text), feature_type: 'WHITECHAPEL_BUILDING', b_number: '40', b_name: 'New Hall', street: 'Fournier Street', postcode: 'E1 6QE',
      address: '40 Fournier Street', current: '1726', geometry: JSON.stringify(SQUARE(-0.0718, 51.5195)),
    });
    assert.equal(made.status, 303, made.text);
    const id = Number(/\/edit\/features\/(\d+)\?saved=/.exec(made.headers.location ?? '')?.[1]);
    assert.ok(id > 0);
    const made_ = (await json(`/api/v1/features/${id}/`)) as { properties: { b_name: string; current: number }; geometry: { type: string; coordinates: number[][][][] } };
    assert.equal(made_.properties.b_name, 'New Hall');
    assert.equal(made_.properties.current, 1726);
    assert.deepEqual(made_.geometry.coordinates[0]![0]![0], [-0.0718, 51.5195]);
    const inBox = (await json('/ogc/collections/features/items?f=json&bbox=-0.0719,51.5194,-0.0716,51.5197')) as { features: { id: number }[] };
    assert.ok(inBox.features.some((f) => f.id === id));
    const writing = await editor.get(`/edit/documents/new?feature=${id}`);
    assert.equal(fieldValue(writing.text, 'feature'), String(id));
    const wrote = await editor.post('/edit/documents/new', { ...formOf(writing.text), author: 'a new historian', title: 'About the hall', body: '<p>Built 1726.</p>', created: '2026-01-02' });
    assert.equal(wrote.status, 303, wrote.text);
    const documents = (await json(`/api/v1/documents/?feature=${id}`)) as { results: { title: string; author: string }[] };
    assert.deepEqual(documents.results.map((d) => d.title), ['About the hall']);
  });

  test('a picture\'s credit and licence are edited; the API shows them', async () => {
    const page = await editor.get('/edit/images/9');
    const form = formOf(page.text);
    assert.equal(form['author'], 'zoë');
    assert.equal(form['copyright'], 'open');
    assert.equal((await editor.post('/edit/images/9', { ...form, author: 'surveyoflondon', copyright: 'copyright' })).status, 303);
    const image = (await json('/api/v1/images/9/')) as { copyright: boolean; author?: unknown };
    assert.equal(image.copyright, true);
  });

  test('a building with attachments asks what goes with it, then removes them all as one change', async () => {
    const ask = await editor.get(`/edit/features/${BUILDING}/delete`);
    assert.equal(ask.status, 200);
    assert.ok(ask.text.includes('1 picture'));
    assert.ok(ask.text.includes('1 piece of writing'));
    const form = { csrf: csrfOf(ask.text), seen: seenOf(ask.text), attached: /name="attached" value="([^"]+)"/.exec(ask.text)![1]! };
    const stale = await editor.post(`/edit/features/${BUILDING}/delete`, { ...form, attached: 'not-what-was-shown' });
    assert.equal(stale.status, 409);
    assert.equal((await app.request(`/api/v1/features/${BUILDING}/`)).status, 200);
    const removed = await editor.post(`/edit/features/${BUILDING}/delete`, form);
    assert.equal(removed.status, 303);
    assert.equal((await app.request(`/api/v1/features/${BUILDING}/`)).status, 404);
    assert.equal((await app.request('/api/v1/images/9/')).status, 404);
    const again = await editor.post(`/edit/features/${BUILDING}/delete`, form);
    assert.equal(again.status, 404);
  });
});
