// A new password's rules (issue 45) and the hashes' normalisation: the pure functions of
// accounts/passwords.ts, against answers written out here (an old-format hash made here with
// node's scrypt, as issue 37's code made it).
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { test } from 'node:test';
import { hashPassword, passwordProblem, siteWords, verifyPassword } from '../../src/accounts/passwords.js';

const SITE = siteWords({ title: 'Histories of Whitechapel', description: 'The buildings and places of Whitechapel in London\'s East End.', locality: 'London' });
const TOO_FEW = 'The password must have at least 10 characters.';
const BLANK = 'The password must have letters, digits or signs, not only spaces or invisible characters.';
const NAME = 'The password must not contain the account name.';
const GUESSABLE = 'That password would be easy to guess.';

test('the site\'s words: title, description and locality, and "heritage", lower case, once each, of three letters or more', () => {
  assert.deepEqual(SITE, ['histories', 'whitechapel', 'the', 'buildings', 'and', 'places', 'london', 'east', 'end', 'heritage']);
  assert.deepEqual(siteWords({ title: 'Ça va', description: '', locality: null }), ['heritage']);
});

test('a new password: refused with a sentence a person can act on', () => {
  const zwsp = '\u200b';
  const cases: [string, string][] = [
    ['short', TOO_FEW],
    // Five letters, each with a combining acute accent: ten code points as sent, five once composed (NFC).
    ['a\u0301e\u0301i\u0301o\u0301u\u0301', TOO_FEW],
    ['x'.repeat(201), 'The password must have at most 200 characters.'],
    [' '.repeat(10), BLANK],
    ['\u00a0\t \u3000\u2003\u00a0\t \u3000\u2003', BLANK],
    [zwsp.repeat(10), BLANK],
    ['\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u034f\ufe0f\u3164', BLANK],
    [' \u200b'.repeat(5), BLANK],
    ['bob-builder-2024', NAME],
    ['My BOB-BUILDER password', NAME],
    [`bob${zwsp}-builder on the roof`, NAME],
    ['aaaaaaaaaa', `${GUESSABLE} Repeated characters like "aaa" are easy to guess.`],
    // Invisible characters pad nothing: judged as the ten a's it shows.
    [[...'aaaaaaaaaa'].join(zwsp), `${GUESSABLE} Repeated characters like "aaa" are easy to guess.`],
    ['P@ssw0rd12', `${GUESSABLE} This is similar to a commonly used password.`],
    ['qwertyuiop', `${GUESSABLE} This is a frequently used password.`],
    ['Password123', `${GUESSABLE} This is a commonly used password.`],
    ['abcdefghijkl', `${GUESSABLE} Common character sequences like "abc" are easy to guess.`],
    // Strong enough elsewhere; here, the site's own words.
    ['historieswhitechapel', `${GUESSABLE} It uses the account name or the site's own words.`],
    ['whitechapel1888', `${GUESSABLE} It uses the account name or the site's own words.`],
  ];
  for (const [password, sentence] of cases) {
    const problem = passwordProblem(password, 'bob-builder', SITE) ?? '';
    assert.ok(problem.startsWith(sentence), `${JSON.stringify(password)}: ${problem}`);
  }
  // A refusal for its strength says what to do.
  assert.match(passwordProblem('aaaaaaaaaa', 'bob-builder') ?? '', /\. (Add|Avoid|Use) [^.]+\.$/);
});

test('a new password: accepted when long, visible and hard to guess, whatever its normalisation', () => {
  const accepted = [
    'a long walk down Brick Lane',
    'a crowd of patient senders',
    'correct horse battery staple',
    'crème brûlée à la carte',
    'crème brûlée à la carte'.normalize('NFD'),
    // Without the site's words, these are strong enough.
    'historieswhitechapel',
    'whitechapel1888',
  ];
  for (const password of accepted) assert.equal(passwordProblem(password, 'bob-builder'), null, password);
  for (const password of accepted.slice(0, 5)) assert.equal(passwordProblem(password, 'bob-builder', SITE), null, password);
  // The demo editor's password (cli/serve.ts): 12 random bytes, base64url.
  for (let i = 0; i < 20; i++) {
    const password = randomBytes(12).toString('base64url');
    assert.equal(passwordProblem(password, 'demo-editor', SITE), null, password);
  }
  // Called as before, with the name alone.
  assert.equal(passwordProblem('a long walk down Brick Lane', ''), null);
});

test('hashes: new ones NFC and named so; issue 37\'s (scrypt$, NFKC) still verify', async () => {
  const ligatures = '\ufb01ve \ufb01ne \ufb01sh in a row';
  const folded = 'five fine fish in a row';
  const salt = randomBytes(16);
  const key = scryptSync(ligatures.normalize('NFKC'), salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 });
  const old = ['scrypt', 2 ** 15, 8, 3, salt.toString('base64url'), key.toString('base64url')].join('$');
  assert.equal(await verifyPassword(ligatures, old), true);
  assert.equal(await verifyPassword(folded, old), true, 'NFKC folds the ligature, as it did');
  assert.equal(await verifyPassword('five fine fish in a rod', old), false);

  const fresh = await hashPassword(ligatures);
  assert.match(fresh, /^scrypt-nfc\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
  assert.equal(await verifyPassword(ligatures, fresh), true);
  assert.equal(await verifyPassword(folded, fresh), false, 'NFC keeps the ligature a character of its own');
  const accented = await hashPassword('crème brûlée à la carte');
  assert.equal(await verifyPassword('crème brûlée à la carte'.normalize('NFD'), accented), true, 'composed or not, one password');

  assert.equal(await verifyPassword(ligatures, old.replace(/^scrypt\$/, 'bcrypt$')), false, 'an unknown kind');
  assert.equal(await verifyPassword(ligatures, `${fresh}$more`), false);
});
