// What every contributors' form shares (OWASP ASVS V3 sessions, V4.2.2 CSRF): the session
// cookie and a browser's form cookie, and the `csrf` field, an HMAC of whichever of the two the
// browser holds under the site's secret, so that a form made for one browser (or session) is
// refused from any other; and the device cookie a sign-in leaves (accounts/devices.ts). The
// cookies are HttpOnly, SameSite=Lax, and on https (directly or through a trusted proxy) Secure
// with the __Host- prefix (no Domain, Path=/: no other host or path can set them).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie'; // its request.cookies and reply.setCookie
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { requestScheme } from '../protocol/host.js';

/** The code of a thrown error (Fastify's and its plugins' say what went wrong by it), if it has one. */
export const errorCode = (error: unknown): unknown => (typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined);

export interface CookieNames { session: string; form: string; device: string }

/** Secure cookies whenever the site or the request is https: BASE_URL, TLS, or a trusted proxy's X-Forwarded-Proto. */
export function isSecure(request: FastifyRequest, config: Pick<Config, 'baseUrl' | 'trustProxy'>): boolean {
  return config.baseUrl?.startsWith('https:') === true || requestScheme(request, config) === 'https';
}

export function cookieNames(secure: boolean): CookieNames {
  return secure
    ? { session: '__Host-heritage-session', form: '__Host-heritage-form', device: '__Host-heritage-device' }
    : { session: 'heritage-session', form: 'heritage-form', device: 'heritage-device' };
}

const cookieOptions = (secure: boolean, expires?: Date) => ({ httpOnly: true, sameSite: 'lax' as const, secure, path: '/', ...(expires ? { expires } : {}) });

export function setSessionCookie(reply: FastifyReply, secure: boolean, token: string, expires: number): void {
  reply.setCookie(cookieNames(secure).session, token, cookieOptions(secure, new Date(expires)));
}

/** The browser's device cookie (accounts/devices.ts), kept past sign-out: it says the browser, not the session. */
export function setDeviceCookie(reply: FastifyReply, secure: boolean, value: string, expires: number): void {
  reply.setCookie(cookieNames(secure).device, value, cookieOptions(secure, new Date(expires)));
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(cookieNames(secure).session, cookieOptions(secure));
}

/**
 * What a form's csrf is bound to: the session's token when signed in, else this browser's form
 * cookie, set now when it has none (a session cookie of its own, ended with the browser).
 */
export function formBinding(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const sent = sentBinding(request, secure);
  if (sent !== null) return sent;
  const form = randomBytes(32).toString('base64url');
  reply.setCookie(cookieNames(secure).form, form, cookieOptions(secure));
  return `form:${form}`;
}

/** The binding of the cookies as the browser sent them: its session's, else its form cookie's, else none. */
function sentBinding(request: FastifyRequest, secure: boolean): string | null {
  const names = cookieNames(secure);
  const session = request.cookies[names.session];
  if (session) return `session:${session}`;
  const form = request.cookies[names.form];
  return form ? `form:${form}` : null;
}

export function csrfToken(secret: string, binding: string): string {
  return createHmac('sha256', secret).update(binding).digest('base64url');
}

/** Whether a POST's csrf is its binding's; the binding read from the cookies as sent, none set. */
export function csrfValid(request: FastifyRequest, secret: string, secure: boolean, given: unknown): boolean {
  const binding = sentBinding(request, secure);
  if (binding === null || typeof given !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, binding));
  const found = Buffer.from(given);
  return found.length === expected.length && timingSafeEqual(found, expected);
}

/** Refuses (403) a POST whose csrf is not its binding's. */
export function checkCsrf(request: FastifyRequest, secret: string, secure: boolean, given: unknown): void {
  if (!csrfValid(request, secret, secure, given)) throw CONTRIBUTE_ERRORS.badForm();
}

/** What a form refused for its csrf says when it is shown again, with what was written and a fresh csrf (403). */
export const EXPIRED_FORM = 'This form had expired, or was opened in another browser or session: nothing was sent. What you wrote is below with a fresh form: check it and send it again.';
