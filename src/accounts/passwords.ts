// Passwords (OWASP ASVS V2.1, V2.4): at least 10 characters, none of the common passwords
// @zxcvbn-ts/language-common ships (49,000, from breach corpora), hashed with scrypt (memory-
// hard, a random salt per account) in libuv's thread pool, never on the event loop. A
// stored hash names its parameters, so that they can be raised later without a migration.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; bounds the work a sign-in may ask of scrypt's input. */
export const MAX_PASSWORD_LENGTH = 200;

/** OWASP's Password Storage Cheat Sheet: N = 2^15 with r = 8 and p = 3 (32 MiB a hash), one of its equivalent minimums. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;

const COMMON = new Set((dictionary['passwords-common'] as readonly string[]).map((p) => p.toLowerCase()));

/** Why a new password is refused (a sentence for the form), or null. */
export function passwordProblem(password: string, username: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  const folded = password.toLowerCase();
  if (COMMON.has(folded)) return 'That password is among the commonest ones, which are tried first: choose another.';
  if (folded.includes(username.toLowerCase())) return 'The password must not contain the account name.';
  return null;
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether the password is the one hashed. With `hash` null (no such account) a hash is still
 * computed and compared, so that an unknown name costs the same time as a wrong password.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const parts = (hash ?? DUMMY_HASH).split('$');
  const [kind, n, r, p, salt, key] = parts;
  if (parts.length !== 6 || kind !== 'scrypt') return false;
  const expected = Buffer.from(key!, 'base64url');
  const found = await scrypt(password.slice(0, MAX_PASSWORD_LENGTH * 4), Buffer.from(salt!, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  return hash !== null && found.length === expected.length && timingSafeEqual(found, expected);
}

/** A hash of nothing anyone knows, with today's parameters: what an unknown name is checked against. */
export const DUMMY_HASH = ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, randomBytes(16).toString('base64url'), randomBytes(KEY_BYTES).toString('base64url')].join('$');
