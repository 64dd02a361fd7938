// Account names' look (src/accounts/names.ts): a table of names that must read alike (Unicode's
// confusables, written here as code points, not taken from the table) and of names that must
// not, and the reserved names as the sign-up form refuses them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameLooks, nameProblem, nameSkeleton } from '../../src/accounts/names.js';

const ALIKE: readonly [string, string, string][] = [
  ['demo-editor', 'd\u0435mo-\u0435ditor', 'Cyrillic e (U+0435)'],
  ['surveyoflondon', '\u0455urveyoflondon', 'Cyrillic dze (U+0455)'],
  ['surveyoflondon', 'surveyofl0ndon', 'the digit zero'],
  ['paypal', '\u0440\u0430ypal', 'Cyrillic er and a'],
  ['Ann-Smith', 'ann-smith', 'case'],
  ['william', 'wi11iam', 'the digit one for l'],
  ['modern', 'rnodern', '"rn" for "m"'],
  ['cafe\u0301', 'caf\u00e9', 'NFD and NFC'],
  ['ｒｏｏｔ-user', 'root-user', 'fullwidth letters'],
];

const APART: readonly [string, string][] = [
  ['ann-smith', 'ann-smyth'],
  ['zoë', 'zoe'],
  ['rosa', 'rose'],
];

test('look-alikes have one skeleton', () => {
  for (const [a, b, why] of ALIKE) assert.equal(nameSkeleton(a), nameSkeleton(b), why);
});

test('names that differ to the eye do not', () => {
  for (const [a, b] of APART) assert.notEqual(nameSkeleton(a), nameSkeleton(b), `${a} / ${b}`);
});

test('a capital I is read as the l it looks like, for the names that must not be imitated', () => {
  assert.ok(nameLooks('Ian').includes(nameSkeleton('lan')));
});

test('reserved names, and their look-alikes, are refused; names that only contain them are not', () => {
  for (const name of ['admin', 'Admin', '\u0430dmin', 'ROOT', 'r00t', 'webmaster', 'noreply', 'www', 'api', 'null', 'SYSTEM']) {
    assert.equal(nameProblem(name), 'That account name is kept for the site itself: choose another.', name);
  }
  for (const name of ['admin-ann', 'rootsy', 'apiary', 'nullarbor']) assert.equal(nameProblem(name), null, name);
});
