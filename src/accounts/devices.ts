// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
// that signed in to an account is given a cookie naming that account and a random nonce,
// signed (HMAC-SHA-256) under the site's secret, so that it cannot be forged or moved to
// another name. A later sign-in to that name showing it is the owner's browser's: its
// failures count against the nonce alone (throttle.ts), never lock the account.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a browser stays known: a year from its last sign-in (each sign-in gives a new cookie). */
export const DEVICE_LIFETIME_MS = 365 * 24 * 3600 * 1000;

const sign = (secret: string, key: string, nonce: string) => createHmac('sha256', secret).update(`device\0${key}\0${nonce}`).digest('base64url');

/** A new device cookie's value for the account of this name key: `key.nonce.mac`, each part base64url. */
export function deviceCookie(secret: string, accountKey: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return [Buffer.from(accountKey).toString('base64url'), nonce, sign(secret, accountKey, nonce)].join('.');
}

/** The nonce of a device cookie when it is this site's and for this name key; else null. */
export function deviceNonce(secret: string, value: string | undefined, accountKey: string): string | null {
  const [key, nonce, mac, ...rest] = (value ?? '').split('.');
  if (key === undefined || nonce === undefined || mac === undefined || rest.length > 0) return null;
  if (Buffer.from(key, 'base64url').toString() !== accountKey) return null;
  const expected = Buffer.from(sign(secret, accountKey, nonce));
  const found = Buffer.from(mac);
  return found.length === expected.length && timingSafeEqual(found, expected) ? nonce : null;
}
