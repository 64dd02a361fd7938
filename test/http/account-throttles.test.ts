// Throttles of the account forms that hold an attacker back without locking anyone else out
// (issue 45), black-box over HTTP on either store (PostgreSQL: the twin in test/postgres/).
// Behind a trusted proxy (TRUST_PROXY) each test's client is its X-Forwarded-For address.
// - Sign-up: 5 an hour from one address, 30 a minute from everyone; a crowd signing up has its
//   own line for hashing, so that sign-ins are never refused for it.
// - Sign-in: failures spread over many addresses lock the name for browsers that never signed
//   in to it, while the owner's browser (its device cookie) keeps an allowance of its own.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { FormClient, csrfOf, setCookies } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';
const DEVICE = 'heritage-device';
const from = (app: TestApp, address: string) => new FormClient(app, { 'x-forwarded-for': address });

describe('account throttles, behind a trusted proxy', () => {
  let database: TestDatabase;
  let app: TestApp;
  before(async () => {
    database = createTestDatabase();
    // RATE_LIMIT_EXEMPT emptied: no address is the operator's here.
    app = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings: { contributions: '1', trustProxy: '1', rateLimitExempt: '' } });
    for (const [name, role] of [['ed-editor', 'editor'], ['rosa-reader', 'contributor']] as const) {
      const add = await runCli(['users', 'add', name, '--role', role, ...database.args], { input: `${PASSWORD}\n` });
      assert.equal(add.code, 0, add.stderr);
    }
  });
  after(async () => {
    await app?.close();
    await database?.drop();
  });

  test('a sign-up flood from one address: 5 accounts, then 429 with Retry-After and why; another browser signs in meanwhile, at once', async () => {
    const flood = Array.from({ length: 12 }, () => from(app, '203.0.113.50'));
    const forms = await Promise.all(flood.map((browser) => browser.get('/account/signup')));
    const reader = from(app, '198.51.100.7');
    const signInForm = await reader.get('/account/signin');
    const started = Date.now();
    const [answers, signedIn] = await Promise.all([
      Promise.all(flood.map((browser, i) => browser.post('/account/signup', { csrf: csrfOf(forms[i]!.text), username: `flood-${i}`, password: PASSWORD }))),
      reader.post('/account/signin', { csrf: csrfOf(signInForm.text), username: 'rosa-reader', password: PASSWORD }),
    ]);
    assert.equal(signedIn.status, 303, 'the sign-in is not refused');
    assert.ok(Date.now() - started < 10_000);
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 303).length, 5, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 429).length, 7, statuses.join(' '));
    const refused = answers.find((a) => a.status === 429)!;
    assert.ok(Number(refused.headers['retry-after']) > 3000, 'the rest of the hour');
    assert.match(refused.text, /Too many new accounts have been asked for from here or from everyone just now: try again in \d+ seconds\./);
    assert.match(refused.text, /<input id="username" name="username"[^>]* value="flood-\d+"/, 'on the sign-up form, the name kept');
    assert.equal((await from(app, '198.51.100.8').submit('/account/signup', { username: 'other-address', password: PASSWORD })).status, 303, 'another address is not held back');
  });

  test('the editor signs in with the device cookie of an earlier sign-in while 50 failures over 20 addresses lock the name for every other browser', async () => {
    const editor = from(app, '192.0.2.10');
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303);
    const signedOut = await editor.get('/account/');
    assert.equal((await editor.post('/account/signout', { csrf: csrfOf(signedOut.text) })).status, 303);
    assert.ok(editor.cookies.has(DEVICE), 'the device cookie outlives the session');

    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      statuses.push((await from(app, `203.0.113.${1 + (i % 20)}`).submit('/account/signin', { username: 'ed-editor', password: `guess number ${i}` })).status);
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(40).fill(429));
    const attacker = from(app, '203.0.113.77');
    assert.equal((await attacker.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 429, 'a browser without a device cookie, the right password too');
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 303, 'the editor\'s browser signs in');
  });

  test('a device cookie: HttpOnly, SameSite=Lax, a year; worth nothing for another name, nor copied and altered, nor past its own 10 failures', async () => {
    const editor = from(app, '192.0.2.11');
    const answer = await editor.submit('/account/signin', { username: 'rosa-reader', password: PASSWORD });
    assert.equal(answer.status, 303);
    const cookie = setCookies(answer).find((c) => c.name === DEVICE)!;
    assert.ok(cookie.attributes.has('httponly'));
    assert.equal(cookie.attributes.get('samesite'), 'Lax');
    assert.equal(cookie.attributes.get('path'), '/');
    assert.ok((Date.parse(cookie.attributes.get('expires')!) - Date.now()) / 86_400_000 > 360);
    // ed-editor is locked for untrusted browsers (the test before): rosa-reader's device cookie is not ed-editor's.
    assert.equal((await editor.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 429);
    const forged = from(app, '192.0.2.12');
    const [, nonce, mac] = cookie.value.split('.');
    forged.cookies.set(DEVICE, `${Buffer.from('ed-editor').toString('base64url')}.${nonce}.${mac}`);
    assert.equal((await forged.submit('/account/signin', { username: 'ed-editor', password: PASSWORD })).status, 429, 'a cookie moved to another name is not trusted');
    // Ten failures of rosa-reader from her own browser count against its cookie, not her name...
    for (let i = 0; i < 10; i++) assert.equal((await editor.submit('/account/signin', { username: 'rosa-reader', password: `wrong ${i}` })).status, 401);
    const another = from(app, '192.0.2.13');
    assert.equal((await another.submit('/account/signin', { username: 'rosa-reader', password: PASSWORD })).status, 303, 'her name is not locked');
    // ...after which that cookie is distrusted: once guesses lock her name, its browser is refused like any other, her other browser is not.
    for (let i = 0; i < 10; i++) assert.equal((await from(app, `203.0.113.${200 + i}`).submit('/account/signin', { username: 'rosa-reader', password: `guess ${i}` })).status, 401);
    assert.equal((await editor.submit('/account/signin', { username: 'rosa-reader', password: PASSWORD })).status, 429, 'the distrusted cookie');
    assert.equal((await another.submit('/account/signin', { username: 'rosa-reader', password: PASSWORD })).status, 303, 'her other browser');
  });
});

test('sign-ups from everyone: 30 a minute, then 429', async () => {
  const app = await startTestApp({ settings: { contributions: '1', trustProxy: '1', rateLimitExempt: '' } });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await from(app, `198.51.100.${i + 1}`).submit('/account/signup', { username: `crowd-${i}`, password: PASSWORD })).status);
    assert.deepEqual(statuses, [...Array(30).fill(303), 429, 429]);
  } finally {
    await app.close();
  }
});

test('a crowd signing up from many addresses waits in its own line: a sign-in meanwhile is not refused', async () => {
  const app = await startTestApp({ settings: { contributions: '1', trustProxy: '1', rateLimitExempt: '' } });
  try {
    assert.equal((await from(app, '192.0.2.20').submit('/account/signup', { username: 'vera-visitor', password: PASSWORD })).status, 303);
    const crowd = Array.from({ length: 25 }, (_, i) => from(app, `203.0.113.${100 + i}`));
    const forms = await Promise.all(crowd.map((browser) => browser.get('/account/signup')));
    const vera = from(app, '192.0.2.21');
    const form = await vera.get('/account/signin');
    const [answers, signedIn] = await Promise.all([
      Promise.all(crowd.map((browser, i) => browser.post('/account/signup', { csrf: csrfOf(forms[i]!.text), username: `many-${i}`, password: PASSWORD }))),
      vera.post('/account/signin', { csrf: csrfOf(form.text), username: 'vera-visitor', password: PASSWORD }),
    ]);
    assert.equal(signedIn.status, 303, `the sign-in: ${signedIn.status}`);
    assert.ok(answers.every((a) => a.status === 303 || a.status === 503), answers.map((a) => a.status).join(' '));
  } finally {
    await app.close();
  }
});

test('on an https site the device cookie is Secure and __Host- prefixed, like the others', async () => {
  const app = await startTestApp({ settings: { contributions: '1', baseUrl: 'https://heritage.example.org', allowedHosts: '127.0.0.1' } });
  try {
    const made = await new FormClient(app).submit('/account/signup', { username: 'tess-secure', password: PASSWORD });
    assert.equal(made.status, 303);
    const device = setCookies(made).find((c) => c.name === '__Host-heritage-device');
    assert.ok(device !== undefined, setCookies(made).map((c) => c.name).join(', '));
    assert.ok(device.attributes.has('secure') && device.attributes.has('httponly'));
    assert.equal(device.attributes.get('path'), '/');
    assert.ok(!device.attributes.has('domain'));
  } finally {
    await app.close();
  }
});
