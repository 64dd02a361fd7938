// Accounts people manage (issue 45), black-box over HTTP on either store (PostgreSQL: the twin
// in test/postgres/): a password changed with the current one (other sessions end, this one
// goes on under a new token), the account's sessions listed and ended but this one, and reset
// links from the command line and from the editors' page: single use, an hour, a newer one
// replacing the older, every session ended, issued by editors for contributors only.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { FormClient, csrfOf } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { sqlOn } from '../support/sql-on.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const NEW_PASSWORD = 'tea at the Whitechapel Gallery';
const COOKIE = 'heritage-session';
const LINK = /^\/account\/reset\/[A-Za-z0-9_-]{43}$/;

/** How the store keeps a token (a session's, a link's): its SHA-256, base64url. */
const stored = (token: string) => createHash('sha256').update(token).digest('base64url');
const problemOf = (html: string) => /<p class="problem" role="alert" id="problem">([^<]*)<\/p>/.exec(html)?.[1] ?? null;
/** The sessions table of an account page: each row's start and last use (ISO) and whether it is marked as this browser's. */
const sessionRows = (html: string) => [...html.matchAll(/<tr( class="current")?><td><time datetime="([^"]+)">[^<]*<\/time><\/td><td><time datetime="([^"]+)">[^<]*<\/time><\/td><td>([^<]*(?:<strong>[^<]*<\/strong>)?)<\/td><\/tr>/g)]
  .map((m) => ({ current: m[1] !== undefined, started: m[2]!, seen: m[3]!, label: m[4]! }));
const linkOf = (html: string) => /<input id="link" readonly size="60" value="([^"]+)">/.exec(html)?.[1] ?? null;

describe('accounts people manage, with CONTRIBUTIONS on', () => {
  let database: TestDatabase;
  let app: TestApp;
  before(async () => {
    database = createTestDatabase();
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1' } });
    for (const [name, role] of [['ed-editor', 'editor'], ['eli-editor', 'editor'], ['ada-admin', 'admin']] as const) {
      const added = await runCli(['users', 'add', name, '--role', role, ...database.args], { input: `${PASSWORD}\n` });
      assert.equal(added.code, 0, added.stderr);
    }
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  const signUp = async (username: string): Promise<FormClient> => {
    const browser = new FormClient(app);
    assert.equal((await browser.submit('/account/signup', { username, password: PASSWORD })).status, 303);
    return browser;
  };
  const signIn = async (username: string, password = PASSWORD): Promise<FormClient> => {
    const browser = new FormClient(app);
    const answer = await browser.submit('/account/signin', { username, password });
    assert.equal(answer.status, 303, `${username} signs in`);
    return browser;
  };
  const signInStatus = async (username: string, password: string) => (await new FormClient(app).submit('/account/signin', { username, password })).status;
  const signedIn = async (browser: FormClient) => (await browser.get('/account/')).status === 200;
  const changePassword = (browser: FormClient, current: string, password: string) => browser.submit('/account/password', { current, password });
  const cliReset = async (name: string, env: NodeJS.ProcessEnv = {}) => runCli(['users', 'reset', name, ...database.args], { env });
  const cliLink = async (name: string) => {
    const issued = await cliReset(name, { BASE_URL: app.origin });
    assert.equal(issued.code, 0, issued.stderr);
    return new URL(issued.stdout.trim()).pathname;
  };

  test('change password: the form asks for the current one and a new one; signed out, the sign-in page', async () => {
    const browser = await signUp('pat-change');
    const form = await browser.get('/account/password');
    assert.equal(form.status, 200);
    assert.equal(form.headers['cache-control'], 'no-store');
    assert.match(form.text, /<input id="current" name="current" type="password" autocomplete="current-password"/);
    assert.match(form.text, /<input id="password" name="password" type="password" autocomplete="new-password"/);
    assert.ok((await browser.get('/account/')).text.includes(`<a href="${app.origin}/account/password">Change your password</a>`));
    const stranger = await new FormClient(app).get('/account/password');
    assert.equal(stranger.status, 303);
    assert.equal(stranger.headers.location, `${app.origin}/account/signin`);
  });

  test('change password needs the right current password: a wrong one is a 400 saying so, and nothing changes', async () => {
    const browser = await signIn('pat-change');
    const wrong = await changePassword(browser, 'not my password at all', NEW_PASSWORD);
    assert.equal(wrong.status, 400);
    assert.equal(problemOf(wrong.text), 'The current password is wrong.');
    assert.ok(await signedIn(browser), 'still signed in');
    assert.equal(await signInStatus('pat-change', NEW_PASSWORD), 401);
    assert.equal(await signInStatus('pat-change', PASSWORD), 303);
    // Without its csrf: refused before anything is checked.
    assert.equal((await browser.post('/account/password', { current: PASSWORD, password: NEW_PASSWORD })).status, 403);
  });

  test('a new password is held to the sign-up policy, with the same sentence', async () => {
    const browser = await signIn('pat-change');
    // The last leans on the site's own words (its title, "Histories of Whitechapel"), which sign-up refuses too.
    for (const password of ['short', 'pat-change and more', 'whitechapel1888']) {
      const refused = await changePassword(browser, PASSWORD, password);
      assert.equal(refused.status, 400, password);
      const signUpSays = problemOf((await new FormClient(app).submit('/account/signup', { username: 'pat-change', password })).text);
      assert.ok(signUpSays !== null && signUpSays !== 'That account name is taken: choose another.', 'the sign-up form refuses the password first');
      assert.equal(problemOf(refused.text), signUpSays, password);
    }
    assert.equal(await signInStatus('pat-change', PASSWORD), 303, 'unchanged');
  });

  test('wrong current passwords count as failed sign-ins: 10 lock the name (429), the right one too', async () => {
    const browser = await signUp('tom-guessed');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await changePassword(browser, `guess number ${i}`, NEW_PASSWORD)).status);
    assert.deepEqual(statuses, [...Array(10).fill(400), 429]);
    const right = await changePassword(browser, PASSWORD, NEW_PASSWORD);
    assert.equal(right.status, 429);
    assert.equal(await signInStatus('tom-guessed', PASSWORD), 429, 'the sign-in form is locked for the name as well');
  });

  test('a changed password ends every other session at once; this browser goes on under a new token', async () => {
    const mine = await signUp('quinn-sessions');
    const [other, third] = [await signIn('quinn-sessions'), await signIn('quinn-sessions')];
    const before = mine.cookies.get(COOKIE)!;
    const changed = await changePassword(mine, PASSWORD, NEW_PASSWORD);
    assert.equal(changed.status, 303);
    assert.equal(changed.headers.location, `${app.origin}/account/`);
    const after = mine.cookies.get(COOKIE)!;
    assert.notEqual(after, before, 'a new token');
    assert.ok(await signedIn(mine), 'this browser still signed in');
    assert.equal(await signedIn(other), false);
    assert.equal(await signedIn(third), false);
    const replay = new FormClient(app);
    replay.cookies.set(COOKIE, before);
    assert.equal(await signedIn(replay), false, 'the old token of this browser signs nobody in');
    assert.equal(await signInStatus('quinn-sessions', PASSWORD), 401);
    assert.equal(await signInStatus('quinn-sessions', NEW_PASSWORD), 303);
  });

  test('the account page lists its live sessions, this one marked; each browser sees its own marked', async () => {
    const startedAt = Date.now();
    const [a, b, c] = [await signUp('rosa-list'), await signIn('rosa-list'), await signIn('rosa-list')];
    const endedAt = Date.now();
    for (const browser of [a, b, c]) {
      const rows = sessionRows((await browser.get('/account/')).text);
      assert.equal(rows.length, 3);
      assert.deepEqual(rows.map((r) => r.current).filter(Boolean), [true], 'exactly one marked');
      assert.equal(rows.find((r) => r.current)!.label, '<strong>This browser</strong>');
      for (const row of rows) assert.ok(Date.parse(row.started) >= startedAt - 1 && Date.parse(row.started) <= endedAt + 1, row.started);
    }
    // Which row is marked: the one whose stored start is this browser's session's.
    const startOf = async (browser: FormClient) => Number((await sqlOn(database.settings, `SELECT created FROM sessions WHERE token_hash = '${stored(browser.cookies.get(COOKIE)!)}'`))[0]!['created']);
    for (const browser of [a, b, c]) {
      const marked = sessionRows((await browser.get('/account/')).text).find((r) => r.current)!;
      assert.equal(Date.parse(marked.started), await startOf(browser));
    }
    await b.post('/account/signout', { csrf: csrfOf((await b.get('/account/')).text) });
    assert.equal(sessionRows((await a.get('/account/')).text).length, 2, 'an ended session is not listed');
  });

  test('last seen: written when a session is used, at most once a minute', async () => {
    const [a, b] = [await signUp('sam-seen'), await signIn('sam-seen')];
    const hashOf = (browser: FormClient) => stored(browser.cookies.get(COOKIE)!);
    const lastSeen = async (browser: FormClient) => Number((await sqlOn(database.settings, `SELECT last_seen FROM sessions WHERE token_hash = '${hashOf(browser)}'`))[0]!['last_seen']);
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    await sqlOn(database.settings, `UPDATE sessions SET created = ${twoDaysAgo}, last_seen = ${twoDaysAgo} WHERE token_hash IN ('${hashOf(a)}', '${hashOf(b)}')`);
    const before = Date.now();
    assert.ok(await signedIn(b));
    assert.ok((await lastSeen(b)) >= before, 'a use long after the last one is written');
    assert.equal(await lastSeen(a), twoDaysAgo, 'another session is not touched');
    const listed = sessionRows((await a.get('/account/')).text);
    const other = listed.find((r) => !r.current)!;
    assert.equal(Date.parse(other.started), twoDaysAgo);
    assert.ok(Date.parse(other.seen) >= before, 'the page shows the other browser\'s use');
    // Used again within the minute: nothing written.
    const thirtySecondsAgo = Date.now() - 30_000;
    await sqlOn(database.settings, `UPDATE sessions SET last_seen = ${thirtySecondsAgo} WHERE token_hash = '${hashOf(b)}'`);
    assert.ok(await signedIn(b));
    assert.equal(await lastSeen(b), thirtySecondsAgo);
  });

  test('sign out everywhere else: every other session ends, this one goes on; without its csrf nothing ends', async () => {
    const mine = await signUp('uma-elsewhere');
    const others = [await signIn('uma-elsewhere'), await signIn('uma-elsewhere')];
    const page = (await mine.get('/account/')).text;
    assert.match(page, new RegExp(`<form method="post" action="${app.origin}/account/sessions/end-others">`));
    assert.equal((await mine.post('/account/sessions/end-others', {})).status, 403);
    for (const other of others) assert.ok(await signedIn(other), 'a refused form ends nothing');
    const ended = await mine.post('/account/sessions/end-others', { csrf: csrfOf(page) });
    assert.equal(ended.status, 303);
    assert.equal(ended.headers.location, `${app.origin}/account/`);
    assert.ok(await signedIn(mine));
    for (const other of others) assert.equal(await signedIn(other), false);
    const after = (await mine.get('/account/')).text;
    assert.equal(sessionRows(after).length, 1);
    assert.ok(!after.includes('/account/sessions/end-others'), 'no button with nothing else to end');
    assert.equal(await signInStatus('uma-elsewhere', PASSWORD), 303, 'the password is unchanged');
  });

  test('users reset prints one absolute URL line: from BASE_URL, else from HOST and PORT (said on stderr); an unknown name is an error', async () => {
    await signUp('vic-reset');
    const based = await cliReset('vic-reset', { BASE_URL: 'https://heritage.example.org' });
    assert.equal(based.code, 0, based.stderr);
    assert.match(based.stdout, /^https:\/\/heritage\.example\.org\/account\/reset\/[A-Za-z0-9_-]{43}\n$/);
    assert.ok(!based.stderr.includes('BASE_URL'));
    const local = await cliReset('vic-reset', { PORT: '8123' });
    assert.equal(local.code, 0, local.stderr);
    assert.match(local.stdout, /^http:\/\/127\.0\.0\.1:8123\/account\/reset\/[A-Za-z0-9_-]{43}\n$/);
    assert.match(local.stderr, /BASE_URL is unset/);
    const unknown = await cliReset('nobody-at-all');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /There is no account nobody-at-all\./);
    const help = await runCli(['users', 'reset', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: heritage-api users reset \[options\] <name>/);
  });

  test('a reset link: a form; once used, the password is set, every session of the account ended, and the link a 404 page', async () => {
    const sessions = [await signIn('vic-reset'), await signIn('vic-reset')];
    const link = await cliLink('vic-reset');
    assert.match(link, LINK);
    const holder = new FormClient(app);
    const form = await holder.get(link);
    assert.equal(form.status, 200);
    assert.equal(form.headers['referrer-policy'], 'no-referrer');
    assert.ok(form.text.includes('Choose a new password for vic-reset'));
    assert.match(form.text, /<input id="password" name="password" type="password" autocomplete="new-password"/);
    const weak = await holder.post(link, { csrf: csrfOf(form.text), password: 'short' });
    assert.equal(weak.status, 400, 'the sign-up policy');
    const ofTheSite = await holder.post(link, { csrf: csrfOf(form.text), password: 'whitechapel1888' });
    assert.equal(ofTheSite.status, 400, 'the site\'s own words, as at sign-up');
    assert.equal((await holder.get(link)).status, 200, 'a refused password leaves the link usable');
    const used = await holder.post(link, { csrf: csrfOf(form.text), password: NEW_PASSWORD });
    assert.equal(used.status, 303);
    assert.equal(used.headers.location, `${app.origin}/account/signin`);
    for (const browser of sessions) assert.equal(await signedIn(browser), false, 'every session ended');
    assert.equal(await signInStatus('vic-reset', PASSWORD), 401);
    assert.equal(await signInStatus('vic-reset', NEW_PASSWORD), 303);
    const again = await holder.get(link);
    assert.equal(again.status, 404);
    assert.match(again.text, /This link cannot be used: it has been used already/);
    assert.equal((await holder.post(link, { csrf: csrfOf(form.text), password: 'yet another long password' })).status, 404);
    assert.equal(await signInStatus('vic-reset', NEW_PASSWORD), 303, 'the second use changed nothing');
    for (const bad of ['/account/reset/nonsense', `/account/reset/${'A'.repeat(43)}`]) assert.equal((await holder.get(bad)).status, 404, bad);
  });

  test('two uses of one link at once: exactly one sets the password, the other gets the 404 page', async () => {
    await signUp('wyn-race');
    for (let round = 0; round < 5; round++) {
      const link = await cliLink('wyn-race');
      const [first, second] = [new FormClient(app), new FormClient(app)];
      const [csrf1, csrf2] = [csrfOf((await first.get(link)).text), csrfOf((await second.get(link)).text)];
      const passwords = [`first password of round ${round}`, `second password of round ${round}`];
      const answers = await Promise.all([first.post(link, { csrf: csrf1, password: passwords[0]! }), second.post(link, { csrf: csrf2, password: passwords[1]! })]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [303, 404], `round ${round}`);
      const winner = passwords[answers.findIndex((a) => a.status === 303)]!;
      assert.equal(await signInStatus('wyn-race', winner), 303, 'the password of the one that succeeded');
    }
  });

  test('a link expires after its hour, and a newer link for the account replaces it', async () => {
    await signUp('xia-expiry');
    const asked = Date.now();
    const link = await cliLink('xia-expiry');
    const answered = Date.now();
    const tokenHash = stored(link.split('/').pop()!);
    const [row] = await sqlOn(database.settings, `SELECT expires FROM password_resets WHERE token_hash = '${tokenHash}'`);
    const expires = Number(row!['expires']);
    assert.ok(expires >= asked + 3_600_000 && expires <= answered + 3_600_000, 'an hour from when it was issued');
    const holder = new FormClient(app);
    const csrf = csrfOf((await holder.get(link)).text);
    await sqlOn(database.settings, `UPDATE password_resets SET expires = ${Date.now() - 1} WHERE token_hash = '${tokenHash}'`);
    assert.equal((await holder.get(link)).status, 404);
    assert.equal((await holder.post(link, { csrf, password: NEW_PASSWORD })).status, 404);
    assert.equal(await signInStatus('xia-expiry', PASSWORD), 303, 'unchanged');
    const [older, newer] = [await cliLink('xia-expiry'), await cliLink('xia-expiry')];
    assert.equal((await holder.get(older)).status, 404, 'replaced');
    assert.equal((await holder.get(newer)).status, 200);
    assert.deepEqual(await sqlOn(database.settings, `SELECT count(*) AS n FROM password_resets WHERE token_hash IN ('${tokenHash}', '${stored(link)}')`).then((r) => Number(r[0]!['n'])), 0, 'only a hash is kept, and only the newest');
  });

  test('the editors\' page: an editor issues links for contributors only, an admin for editors too; a contributor may not (403)', async () => {
    const contributor = await signUp('yan-contrib');
    for (const path of ['/moderate/accounts/reset']) {
      assert.equal((await contributor.get(path)).status, 403);
      const posted = await contributor.post(path, { csrf: csrfOf((await contributor.get('/account/')).text), username: 'eli-editor' });
      assert.equal(posted.status, 403);
      assert.match(posted.text, /Only editors and admins may issue password reset links\./);
      const nobody = await new FormClient(app).get(path);
      assert.equal(nobody.status, 303);
    }
    const linksOf = async (username: string) => Number((await sqlOn(database.settings, `SELECT count(*) AS n FROM password_resets r JOIN accounts a ON a.id = r.account_id WHERE a.username = '${username}'`))[0]!['n']);
    assert.equal(await linksOf('eli-editor'), 0);

    const editor = await signIn('ed-editor');
    assert.ok((await editor.get('/account/')).text.includes(`<a href="${app.origin}/moderate/accounts/reset">Issue a password reset link</a>`));
    const page = await editor.get('/moderate/accounts/reset');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('Editors may issue a link for a contributor&#39;s account; admins for any account.'));
    const issue = async (browser: FormClient, username: string) => browser.submit('/moderate/accounts/reset', { username });
    const issued = await issue(editor, 'yan-contrib');
    assert.equal(issued.status, 200);
    const url = linkOf(issued.text);
    assert.ok(url !== null && url.startsWith(`${app.origin}/account/reset/`), String(url));
    assert.match(new URL(url).pathname, LINK);
    assert.equal((await new FormClient(app).get(new URL(url).pathname)).status, 200, 'the link works');
    for (const target of ['eli-editor', 'ada-admin']) {
      const refused = await issue(editor, target);
      assert.equal(refused.status, 403, target);
      assert.equal(linkOf(refused.text), null);
      assert.match(problemOf(refused.text) ?? '', /an editor may issue links for contributors&#39; accounts only\./);
      assert.equal(await linksOf(target), 0, target);
    }
    const unknown = await issue(editor, 'nobody-at-all');
    assert.equal(unknown.status, 400);
    assert.equal(problemOf(unknown.text), 'There is no account nobody-at-all.');

    const admin = await signIn('ada-admin');
    const forEditor = await issue(admin, 'eli-editor');
    assert.equal(forEditor.status, 200);
    assert.ok(linkOf(forEditor.text) !== null);
    assert.equal(await linksOf('eli-editor'), 1);
  });
});
