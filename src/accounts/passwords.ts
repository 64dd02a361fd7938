// Passwords (OWASP ASVS V2.1, V2.4): normalised to NFC and counted in code points after it (so
// a letter and its combining accent are one character), at least 10 of them, not only spaces
// or invisible characters, without the account name, and hard enough to guess by zxcvbn's
// estimate (score 3 of 4, the level its authors advise for a site that hashes slowly), whose
// dictionaries hold the common passwords of breach corpora and English words, and which is
// told the account's name and the site's own words. Hashed with scrypt (memory-hard, a random
// salt per account) in libuv's thread pool, never on the event loop. A stored hash names its
// parameters and the normalisation it was made with, so either can change without a migration.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; bounds the work a sign-in may ask of scrypt's input. */
export const MAX_PASSWORD_LENGTH = 200;
/** zxcvbn's 0–4: 3 is "safely unguessable: moderate protection from offline slow-hash scenario". */
export const MIN_PASSWORD_SCORE = 3;
/** zxcvbn's cost grows with the length: it reads this much, and the rest can only add strength. */
const ESTIMATED_LENGTH = 100;

/** Format characters (zero-width spaces and joiners, direction marks, soft hyphens) and the other default-ignorable ones: nothing a reader sees. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
const ONLY_SPACE = /^\p{White_Space}*$/u;

/** OWASP's Password Storage Cheat Sheet: N = 2^15 with r = 8 and p = 3 (32 MiB a hash), one of its equivalent minimums. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;

/**
 * The hash kinds, by the normalisation the password was hashed under: NFC today; `scrypt`
 * (issue 37's hashes, still verified) was NFKC, which also folds look-alike forms together.
 */
const NORMALISATION = { 'scrypt-nfc': 'NFC', scrypt: 'NFKC' } as const;
type HashKind = keyof typeof NORMALISATION;
const HASH_KIND: HashKind = 'scrypt-nfc';
const isHashKind = (kind: string | undefined): kind is HashKind => kind !== undefined && Object.hasOwn(NORMALISATION, kind);

// Made at the first estimate (a tenth of a second, the dictionaries ranked), then shared.
let estimator: ZxcvbnFactory | null = null;
function strength(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: { ...english.translations, warnings: { ...english.translations.warnings, userInputs: 'It uses the account name or the site\'s own words.' } },
    maxLength: ESTIMATED_LENGTH,
  });
  return estimator;
}

/**
 * Why a new password is refused (a sentence for the form), or null. `userInputs`: the words
 * a guesser would try first on this site (siteWords), besides the account name.
 */
export function passwordProblem(password: string, username: string, userInputs: readonly string[] = []): string | null {
  const normal = password.normalize('NFC');
  const length = [...normal].length;
  if (length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  // Judged as seen: invisible characters add nothing a person could remember typing.
  const seen = normal.replace(INVISIBLE, '');
  if (ONLY_SPACE.test(seen)) return 'The password must have letters, digits or signs, not only spaces or invisible characters.';
  const name = username.normalize('NFC').toLowerCase();
  if (name !== '' && seen.toLowerCase().includes(name)) return 'The password must not contain the account name.';
  return strengthProblem(seen, [username, ...userInputs]);
}

function strengthProblem(password: string, userInputs: string[]): string | null {
  const { score, feedback } = strength().check(password, userInputs);
  if (score >= MIN_PASSWORD_SCORE) return null;
  const why = feedback.warning ? ` ${feedback.warning}` : '';
  const advice = feedback.suggestions.length > 0 ? feedback.suggestions.join(' ') : 'Add a word or two that are less common.';
  return `That password would be easy to guess.${why} ${advice}`;
}

/** The words of the site a guesser would try first: its title's, its description's, its locality and "heritage". */
export function siteWords(site: { title: string; description: string; locality: string | null }): string[] {
  const words = [site.title, site.description, site.locality ?? '', 'heritage'].join(' ').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => [...word].length >= 3))];
}

function scrypt(password: string, kind: HashKind, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize(NORMALISATION[kind]), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt-nfc$N$r$p$salt$key`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, HASH_KIND, salt, SCRYPT);
  return [HASH_KIND, SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether the password is the one hashed. With `hash` null (no such account) a hash is still
 * computed and compared, so that an unknown name costs the same time as a wrong password.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const parts = (hash ?? DUMMY_HASH).split('$');
  const [kind, n, r, p, salt = '', key = ''] = parts;
  if (parts.length !== 6 || !isHashKind(kind)) return false;
  const expected = Buffer.from(key, 'base64url');
  const found = await scrypt(password.slice(0, MAX_PASSWORD_LENGTH * 4), kind, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  return hash !== null && found.length === expected.length && timingSafeEqual(found, expected);
}

/** A hash of nothing anyone knows, with today's parameters: what an unknown name is checked against. */
export const DUMMY_HASH = [HASH_KIND, SCRYPT.N, SCRYPT.r, SCRYPT.p, randomBytes(16).toString('base64url'), randomBytes(KEY_BYTES).toString('base64url')].join('$');
