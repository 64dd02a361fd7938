// The contributors' accounts (issue 37), black-box over HTTP on either store (PostgreSQL: the
// twin in test/postgres/): off unless CONTRIBUTIONS is on; sign-up, sign-in and sign-out with
// a session cookie and a csrf field on every form; and the attacks OWASP ASVS names, each
// refused: a form without or with another browser's csrf, session fixation, a wrong password
// told apart from an unknown name, a crowd of guesses, a disabled account's session.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { BROWSER_ACCEPT, FormClient, csrfOf, setCookies } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const COOKIE = 'heritage-session';

/** The page with the one thing that differs by request (its form's csrf) taken out. */
const withoutCsrf = (html: string) => html.replace(/name="csrf" value="[^"]+"/g, 'name="csrf" value=""');

test('off by default: no account page, no form parsed', async () => {
  const app = await startTestApp();
  try {
    for (const path of ['/account/', '/account/signin', '/account/signup']) assert.equal((await app.request(path)).status, 404, path);
    assert.equal((await app.request('/account/signin', { method: 'POST', body: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status, 404);
  } finally {
    await app.close();
  }
});

describe('accounts, with CONTRIBUTIONS on', () => {
  let database: TestDatabase;
  let app: TestApp;
  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('sign up: the form, then a session cookie (HttpOnly, SameSite=Lax, Path=/, an expiry) and a 303 to the account page', async () => {
    const browser = new FormClient(app);
    const form = await browser.get('/account/signup');
    assert.equal(form.status, 200);
    assert.equal(form.headers['cache-control'], 'no-store');
    assert.match(String(form.headers['content-security-policy']), /form-action 'self'/);
    assert.match(form.text, /<input id="password" name="password" type="password" autocomplete="new-password"/);
    const answer = await browser.post('/account/signup', { csrf: csrfOf(form.text), username: 'Ann-Smith', password: PASSWORD });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.location, `${app.origin}/account/`);
    const session = setCookies(answer).find((c) => c.name === COOKIE)!;
    assert.ok(session.value.length >= 40, 'a long random token');
    assert.ok(session.attributes.has('httponly'));
    assert.equal(session.attributes.get('samesite'), 'Lax');
    assert.equal(session.attributes.get('path'), '/');
    assert.ok(!session.attributes.has('secure'), 'plain http: not Secure');
    const days = (Date.parse(session.attributes.get('expires')!) - Date.now()) / 86_400_000;
    assert.ok(days > 6 && days <= 7, `${days} days`);
    const mine = await browser.get('/account/');
    assert.equal(mine.status, 200);
    assert.ok(mine.text.includes('Signed in as <strong>Ann-Smith</strong> (contributor).'));
    // The name is taken whatever its case.
    const again = await new FormClient(app).submit('/account/signup', { username: 'ann-smith', password: PASSWORD });
    assert.equal(again.status, 400);
    assert.ok(again.text.includes('That account name is taken: choose another.'));
  });

  test('a new password: at least 10 characters once composed (NFC), not blank or invisible, not the name, hard to guess with the site\'s words', async () => {
    const guessable = 'That password would be easy to guess.';
    for (const [password, sentence] of [
      ['short', 'The password must have at least 10 characters.'],
      ['a\u0301e\u0301i\u0301o\u0301u\u0301', 'The password must have at least 10 characters.'],
      [' '.repeat(10), 'The password must have letters, digits or signs, not only spaces or invisible characters.'],
      ['\u200b'.repeat(10), 'The password must have letters, digits or signs, not only spaces or invisible characters.'],
      ['aaaaaaaaaa', guessable],
      ['P@ssw0rd12', guessable],
      ['qwertyuiop', `${guessable} This is a frequently used password.`],
      ['Password123', `${guessable} This is a commonly used password.`],
      // The site's title (SITE_TITLE, Histories of Whitechapel) is among the words tried first.
      ['historieswhitechapel', `${guessable} It uses the account name or the site&#39;s own words.`],
      ['bob-builder-2024', 'The password must not contain the account name.'],
    ] as const) {
      const answer = await new FormClient(app).submit('/account/signup', { username: 'bob-builder', password });
      assert.equal(answer.status, 400, password);
      assert.ok(answer.text.includes(sentence), `${JSON.stringify(password)}: ${sentence}`);
      assert.equal(setCookies(answer).filter((c) => c.name === COOKIE).length, 0, 'no session');
    }
    const bad = await new FormClient(app).submit('/account/signup', { username: '<script>', password: PASSWORD });
    assert.equal(bad.status, 400);
    assert.ok(bad.text.includes('value="&lt;script&gt;"'), 'the name given back escaped');
  });

  test('a form posted without its csrf, with another browser\'s, or with none of its cookies, is refused (403) and changes nothing; the form is shown again with the name and a fresh csrf', async () => {
    const mine = new FormClient(app);
    const theirs = new FormClient(app);
    const theirCsrf = csrfOf((await theirs.get('/account/signup')).text);
    const myCsrf = csrfOf((await mine.get('/account/signup')).text);
    for (const fields of [{}, { csrf: '' }, { csrf: theirCsrf }, { csrf: 'x'.repeat(43) }] as Record<string, string>[]) {
      const answer = await mine.post('/account/signup', { ...fields, username: 'carol-csrf', password: PASSWORD });
      assert.equal(answer.status, 403, JSON.stringify(fields));
      assert.ok(answer.text.includes('This form had expired, or was opened in another browser or session: nothing was sent.'));
      assert.ok(answer.text.includes('value="carol-csrf"'), 'the name kept');
      assert.equal(csrfOf(answer.text), myCsrf, 'this browser\'s own csrf, to send it again');
    }
    for (const path of ['/account/signup', '/account/signin']) {
      const cookieless = new FormClient(app);
      const answer = await cookieless.post(path, { csrf: theirCsrf, username: 'carol-csrf', password: PASSWORD });
      assert.equal(answer.status, 403, path);
      assert.ok(answer.text.includes('value="carol-csrf"'), `${path}: the name kept`);
      // A browser that had no form cookie is given one with the form: sent again, it is taken (here: a wrong password's 401).
      if (path === '/account/signin') assert.equal((await cookieless.post(path, { csrf: csrfOf(answer.text), username: 'carol-csrf', password: PASSWORD })).status, 401);
    }
    // None of them made the account.
    assert.equal((await new FormClient(app).submit('/account/signin', { username: 'carol-csrf', password: PASSWORD })).status, 401);
    // Signed in, a form is bound to the session: the csrf of the form before signing in no longer goes.
    const signedIn = new FormClient(app);
    const before = csrfOf((await signedIn.get('/account/signin')).text);
    assert.equal((await signedIn.post('/account/signin', { csrf: before, username: 'Ann-Smith', password: PASSWORD })).status, 303);
    assert.equal((await signedIn.post('/account/signout', { csrf: before })).status, 403);
    assert.equal((await signedIn.get('/account/')).status, 200, 'still signed in');
  });

  test('session fixation: a session cookie planted before sign-in is ended, and a new token given', async () => {
    const attacker = new FormClient(app);
    assert.equal((await attacker.submit('/account/signin', { username: 'Ann-Smith', password: PASSWORD })).status, 303);
    const planted = attacker.cookies.get(COOKIE)!;
    const victim = new FormClient(app);
    victim.cookies.set(COOKIE, planted);
    assert.equal((await victim.submit('/account/signup', { username: 'dave-victim', password: PASSWORD })).status, 303);
    const fresh = victim.cookies.get(COOKIE)!;
    assert.notEqual(fresh, planted);
    assert.equal((await attacker.get('/account/')).status, 303, 'the planted session is over');
    assert.ok((await victim.get('/account/')).text.includes('<strong>dave-victim</strong>'));
  });

  test('a wrong password and an unknown name: the same answer; 10 failures lock the name out (429), the right password too', async () => {
    const wrong = await new FormClient(app).submit('/account/signin', { username: 'Ann-Smith', password: 'not the password at all' });
    const unknown = await new FormClient(app).submit('/account/signin', { username: 'nobody-here', password: 'not the password at all' });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(withoutCsrf(wrong.text).replace('Ann-Smith', 'NAME'), withoutCsrf(unknown.text).replace('nobody-here', 'NAME'));
    const guesser = new FormClient(app);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await guesser.submit('/account/signin', { username: 'eve-target', password: `guess number ${i}` })).status);
    // eve-target does not exist: a name is throttled all the same, so the lock tells nothing either.
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(40).fill(429));
    const made = await new FormClient(app).submit('/account/signup', { username: 'eve-target', password: PASSWORD });
    assert.equal(made.status, 303);
    const locked = await new FormClient(app).submit('/account/signin', { username: 'eve-target', password: PASSWORD });
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.headers['retry-after']) > 800, 'the rest of the 15 minutes');
    // Said on the sign-in form itself, the name kept, ready to be sent again later.
    assert.match(locked.text, /<p class="problem" role="alert" id="problem">Too many failed sign-ins: try again in \d+ seconds\.<\/p>/);
    assert.ok(locked.text.includes('<form class="account" method="post"') && locked.text.includes('value="eve-target"'), 'the form, with the name');
  });

  test('sign out ends the session on the server, not only the cookie', async () => {
    const browser = new FormClient(app);
    await browser.submit('/account/signin', { username: 'dave-victim', password: PASSWORD });
    const token = browser.cookies.get(COOKIE)!;
    const page = await browser.get('/account/');
    const out = await browser.post('/account/signout', { csrf: csrfOf(page.text) });
    assert.equal(out.status, 303);
    assert.equal(browser.cookies.has(COOKIE), false, 'the cookie cleared');
    const replay = new FormClient(app);
    replay.cookies.set(COOKIE, token);
    assert.equal((await replay.get('/account/')).status, 303, 'the old token signs nobody in');
  });

  test('users on the command line: add (password from standard input), role, list, disable, which ends the sessions at once', async () => {
    const add = await runCli(['users', 'add', 'frank-editor', '--role', 'editor', ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    const browser = new FormClient(app);
    assert.equal((await browser.submit('/account/signin', { username: 'frank-editor', password: PASSWORD })).status, 303);
    assert.ok((await browser.get('/account/')).text.includes('(editor)'));
    assert.equal((await runCli(['users', 'role', 'frank-editor', 'admin', ...database.args])).code, 0);
    const list = await runCli(['users', 'list', ...database.args]);
    assert.match(list.stdout, /^frank-editor\tadmin\tactive\t\d{4}-\d\d-\d\d$/m);
    assert.match(list.stdout, /^Ann-Smith\tcontributor\tactive\t/m);
    assert.equal((await runCli(['users', 'disable', 'frank-editor', ...database.args])).code, 0);
    assert.equal((await browser.get('/account/')).status, 303, 'signed out at once');
    assert.equal((await new FormClient(app).submit('/account/signin', { username: 'frank-editor', password: PASSWORD })).status, 401);
    const refused = await runCli(['users', 'add', 'gina', ...database.args], { input: 'short\n' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /The password must have at least 10 characters\./);
    const guessable = await runCli(['users', 'add', 'gina', ...database.args], { input: 'whitechapel1888\n' });
    assert.equal(guessable.code, 1);
    assert.match(guessable.stderr, /That password would be easy to guess\. It uses the account name or the site's own words\./);
    assert.match((await runCli(['users', 'role', 'gina', 'king', ...database.args])).stderr, /--role must be one of contributor, editor, admin; got king\./);
  });

  // SQLite's alone: PostgreSQL's migrations drop nothing, so its twin has no such test (rather than one skipped).
  if (testStoreKind() === 'sqlite') test('accounts outlive a schema upgrade, which rebuilds every table of the catalogue (SQLite)', async () => {
    const file = String(database.settings.database);
    const db = new Database(file);
    db.prepare("UPDATE meta SET value = '8' WHERE key = 'schema_version'").run();
    db.close();
    const migrated = await runCli(['migrate', ...database.args]);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal((await new FormClient(app).submit('/account/signin', { username: 'Ann-Smith', password: PASSWORD })).status, 303);
  });

  test('accounts outlive an import of the whole catalogue', async () => {
    await importInto(database.settings, buildTestCatalogue());
    assert.equal((await new FormClient(app).submit('/account/signin', { username: 'Ann-Smith', password: PASSWORD })).status, 303);
  });
});

test('on an https site the cookies are Secure and __Host- prefixed', async () => {
  const app = await startTestApp({ settings: { contributions: '1', baseUrl: 'https://heritage.example.org', allowedHosts: '127.0.0.1' } });
  try {
    const form = await app.request('/account/signup', { headers: { accept: BROWSER_ACCEPT } });
    const cookie = setCookies(form)[0]!;
    assert.equal(cookie.name, '__Host-heritage-form');
    assert.ok(cookie.attributes.has('secure'));
    assert.equal(cookie.attributes.get('path'), '/');
    assert.ok(!cookie.attributes.has('domain'));
  } finally {
    await app.close();
  }
});

describe('behind a TLS proxy (TRUST_PROXY, X-Forwarded-Proto: https), BASE_URL unset', () => {
  const PROXIED = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
  const signUp = async (trustProxy: string, username: string) => {
    const app = await startTestApp({ settings: { contributions: '1', trustProxy } });
    const browser = new FormClient(app, PROXIED);
    const answer = await browser.submit('/account/signup', { username, password: PASSWORD });
    return { app, browser, answer, session: setCookies(answer).find((c) => c.name.endsWith('heritage-session')) };
  };

  test('trusted: sign-up\'s cookie is Secure and __Host- prefixed, and it signs in', async () => {
    const { app, browser, answer, session } = await signUp('1', 'pat-proxied');
    try {
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.location, `https://${new URL(app.origin).host}/account/`);
      assert.equal(session?.name, '__Host-heritage-session');
      assert.ok(session.attributes.has('secure'));
      assert.equal(session.attributes.get('path'), '/');
      assert.ok(!session.attributes.has('domain'));
      assert.ok((await browser.get('/account/')).text.includes('Signed in as <strong>pat-proxied</strong>'));
      // Signed out, it signs in again through the proxy.
      const out = await browser.post('/account/signout', { csrf: csrfOf((await browser.get('/account/')).text) });
      assert.equal(out.status, 303);
      assert.equal((await browser.get('/account/')).status, 303, 'signed out');
      assert.equal((await browser.submit('/account/signin', { username: 'pat-proxied', password: PASSWORD })).status, 303);
      assert.ok((await browser.get('/account/')).text.includes('Signed in as <strong>pat-proxied</strong>'));
    } finally {
      await app.close();
    }
  });

  test('not trusted (TRUST_PROXY off): the header is ignored, plain cookies', async () => {
    const { app, browser, answer, session } = await signUp('0', 'una-unproxied');
    try {
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.location, `${app.origin}/account/`);
      assert.equal(session?.name, COOKIE);
      assert.ok(!session.attributes.has('secure'));
      assert.ok((await browser.get('/account/')).text.includes('Signed in as <strong>una-unproxied</strong>'));
    } finally {
      await app.close();
    }
  });
});
