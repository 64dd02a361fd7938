// Account names that cannot pass for someone else (issue 45), black-box over HTTP on either
// store (PostgreSQL: the twin in test/postgres/): a catalogue author's name, and any name that
// looks like it (Unicode TR39's confusables: Cyrillic "ѕ", the digit "0"), is kept for the
// account an operator links to that author; "admin", "root" and their look-alikes are the
// site's; of two look-alike names signed up at once one account is made; and a contribution
// is credited to a catalogue author only through the account linked to it. The look-alikes
// are written out here as code points, not taken from the code's table.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { FormClient, csrfOf, seenOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, testStoreKind, withPgClient, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const FEATURE = 1;
/** The test catalogue's authors (support/catalogue.ts). */
const SURVEY = { id: 2, username: 'surveyoflondon' };
const AUTHOR_REFUSAL = 'That name is a catalogue author&#39;s, kept for the author&#39;s own account, which an editor can link to it: choose another name.';
const RESERVED_REFUSAL = 'That account name is kept for the site itself: choose another.';
const LOOK_ALIKE_REFUSAL = 'That account name looks like one that is taken: choose another.';
/** "surveyoflondon" with its first letter the Cyrillic dze (U+0455), and with its "o" the digit zero. */
const CYRILLIC_SURVEY = '\u0455urveyoflondon';
const DIGIT_SURVEY = 'surveyofl0ndon';

describe('account names, with CONTRIBUTIONS on', () => {
  let database: TestDatabase;
  let app: TestApp;
  let editor: FormClient;

  const signUp = (name: string) => new FormClient(app).submit('/account/signup', { username: name, password: PASSWORD });
  const signIn = async (name: string) => {
    const browser = new FormClient(app);
    assert.equal((await browser.submit('/account/signin', { username: name, password: PASSWORD })).status, 303, `${name} signs in`);
    return browser;
  };
  /** Writing sent by `browser`, approved by the editor: the published document's author, as the API gives it. */
  const publishedAuthor = async (browser: FormClient, title: string) => {
    assert.equal((await browser.submit(`/contribute/${FEATURE}/document`, { title, body: 'Remembered on the street.' })).status, 303);
    const queue = await editor.get('/moderate/');
    const id = Math.max(...[...queue.text.matchAll(/href="[^"]*\/moderate\/(\d+)"/g)].map((m) => Number(m[1])));
    const review = await editor.get(`/moderate/${id}`);
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), title, body: 'Remembered on the street.', action: 'approve' });
    assert.equal(approved.status, 303, approved.text);
    const recordId = Number(/\/documents\/(\d+)\/$/.exec(String(approved.headers.location))?.[1]);
    const record = await app.request(`/api/v1/documents/${recordId}/`);
    assert.equal(record.status, 200);
    return (record.json() as { author: { id: number; username: string } }).author;
  };

  /** SQL run on the database behind the app's back: rows as a heritage-api from before issue 45 left them. */
  const asBefore = async (sql: string) => {
    if (testStoreKind() === 'sqlite') {
      const db = new Database(String(database.settings.database));
      db.exec(sql);
      db.close();
    } else {
      await withPgClient(async (client) => {
        await client.query(`SET search_path = ${database.settings.databaseSchema}, public`);
        await client.query(sql);
      });
    }
  };

  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1', logLevel: 'error' } });
    const add = await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    editor = await signIn('ed-editor');
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('a catalogue author\'s name, in any case or as a look-alike, is refused at sign-up with a sentence saying an editor can link it', async () => {
    for (const name of [SURVEY.username, 'SurveyOfLondon', CYRILLIC_SURVEY, DIGIT_SURVEY]) {
      const answer = await signUp(name);
      assert.equal(answer.status, 400, name);
      assert.ok(answer.text.includes(AUTHOR_REFUSAL), `${name}: ${answer.text}`);
      const tried = await new FormClient(app).submit('/account/signin', { username: name, password: PASSWORD });
      assert.equal(tried.status, 401, `${name}: no account made`);
    }
  });

  test('admin, root and the like, and their look-alikes, are the site\'s', async () => {
    // "аdmin" with a Cyrillic a (U+0430); "r00t" with two zeros; "ADMIN" folds to "admin".
    for (const name of ['admin', 'ADMIN', '\u0430dmin', 'root', 'r00t', 'administrator', 'postmaster', 'noreply']) {
      const answer = await signUp(name);
      assert.equal(answer.status, 400, name);
      assert.ok(answer.text.includes(RESERVED_REFUSAL), name);
    }
    assert.equal((await signUp('rootsy-gardener')).status, 303, 'a name that only begins like one is free');
  });

  test('a look-alike of a taken name is refused (a Cyrillic "demo-editor")', async () => {
    assert.equal((await signUp('demo-editor')).status, 303);
    // "dеmo-еditor": both e's Cyrillic (U+0435).
    const answer = await signUp('d\u0435mo-\u0435ditor');
    assert.equal(answer.status, 400);
    assert.ok(answer.text.includes(LOOK_ALIKE_REFUSAL), answer.text);
  });

  test('two look-alike names signed up at once: one account', async () => {
    for (const [latin, cyrillic] of [['kim-lookalike', 'k\u0456m-lookalike'], ['pat-copy', 'p\u0430t-copy'], ['oscar-twin', '\u043Escar-twin']] as const) {
      const [one, two] = [new FormClient(app), new FormClient(app)];
      const forms = await Promise.all([one.get('/account/signup'), two.get('/account/signup')]);
      const answers = await Promise.all([
        one.post('/account/signup', { csrf: csrfOf(forms[0].text), username: latin, password: PASSWORD }),
        two.post('/account/signup', { csrf: csrfOf(forms[1].text), username: cyrillic, password: PASSWORD }),
      ]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [303, 400], `${latin} / ${cyrillic}`);
    }
  });

  test('users add NAME --author links the account to that author; its published contribution is credited to the author', async () => {
    const missing = await runCli(['users', 'add', 'no-such-author', '--author', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /There is no catalogue author named no-such-author: --author links the account to the author of exactly that name\./);
    const plain = await runCli(['users', 'add', SURVEY.username, ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(plain.code, 1, 'without --author, the name is refused on the command line too');
    const linked = await runCli(['users', 'add', SURVEY.username, '--author', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(linked.code, 0, linked.stderr);
    assert.match(linked.stderr, /Added surveyoflondon \(contributor, linked to the catalogue author surveyoflondon\)/);
    const author = await publishedAuthor(await signIn(SURVEY.username), 'Remembering the survey');
    assert.deepEqual(author, SURVEY);
  });

  test('an account whose name became an author\'s after it was made is not credited as that author: a new author of its own', async () => {
    assert.equal((await signUp('ann-before')).status, 303);
    // Then the catalogue gains an author of that name (another person).
    const catalogue = buildTestCatalogue();
    catalogue.authors.push({ id: 9, username: 'ann-before' });
    await importInto(database.settings, catalogue);
    const browser = await signIn('ann-before');
    const first = await publishedAuthor(browser, 'Ann remembers');
    assert.notEqual(first.id, 9);
    assert.match(first.username, /^ann-before \(account \d+\)$/);
    assert.deepEqual(await publishedAuthor(browser, 'Ann remembers again'), first, 'the same author each time');
    const fresh = await publishedAuthor(await signIn('demo-editor'), 'A first contribution');
    assert.equal(fresh.username, 'demo-editor', 'an account of a name no author has is credited under its own name');
  });

  test('an account made before names had a look, and credited before accounts were linked: its look filled at the next sign-up, its author still its own', async () => {
    for (const name of ['legacy-lou', 'legacy-max']) assert.equal((await signUp(name)).status, 303);
    const browser = await signIn('legacy-lou');
    const author = await publishedAuthor(browser, 'Lou remembers');
    assert.equal(author.username, 'legacy-lou');
    await asBefore("UPDATE accounts SET name_skeleton = NULL, author_id = NULL WHERE username IN ('legacy-lou', 'legacy-max')");
    // "lеgacy-max" with a Cyrillic e (U+0435).
    const lookalike = await signUp('l\u0435gacy-max');
    assert.equal(lookalike.status, 400);
    assert.ok(lookalike.text.includes(LOOK_ALIKE_REFUSAL), lookalike.text);
    assert.deepEqual(await publishedAuthor(browser, 'Lou remembers again'), author, 'the author its first contribution made');
  });
});
