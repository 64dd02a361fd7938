// A change file's form (issue 47): its bounds, read from a multipart body (a file field, or the
// text pasted) or an urlencoded one (the text), and the seal that carries a previewed file to
// its application. The file previewed is carried in the page itself, normalised, with an
// HMAC of its text, its name and the digest of the records it touches as the preview saw
// them, keyed by this session's csrf (itself an HMAC of the session under the site's secret):
// no table to keep or clean, and a file changed on its way back, or sent from another
// session, does not match its seal and is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CatalogueLimits } from '../../catalogue/limits.js';
import { CATALOGUE_LISTS } from '../../catalogue/lists.js';
import { CHANGES_FORMAT, type ChangeSet } from '../../changes/format.js';
import { ApiError, CONTRIBUTE_ERRORS } from '../../errors.js';
import { drainBody } from '../contribute/drain.js';
import { errorCode } from '../contribute/forms.js';
import { field } from '../contribute/routes.js';

/**
 * A change file sent through the browser is at most 64 records at the catalogue's largest
 * (CATALOGUE_MAX_RECORD_BYTES: 4 MB by default), and names at most 1,000 records: larger ones
 * are for `apply` on the server, whose preview would not fit a page either.
 */
export const changeFileMaxBytes = (limits: CatalogueLimits): number => 64 * limits.maxRecordBytes;
export const CHANGE_FILE_MAX_RECORDS = 1_000;
/** A refused form's rest is read for at most this long (drain.ts). */
const DRAIN_MS = 10_000;
const NAME_MAX = 100;

/** What the change file's form sent. */
export interface ChangeForm {
  fields: Record<string, string>;
  /** The file's bytes and name, when a file was chosen. */
  file: { bytes: Buffer; name: string } | null;
  /** Whether a field or the file was past its bound. */
  tooLarge: boolean;
}

/** A file, or its text pasted, of `maxBytes`; a carried file normalised may be longer than the file sent (a record's default search text written out), so twice that. */
export const multipartLimits = (maxBytes: number) => ({ fileSize: maxBytes, fieldSize: 2 * maxBytes, files: 1, fields: 10, parts: 12, headerPairs: 50 });

const isMultipart = (request: FastifyRequest) => (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');

/** The form's fields and file, within bounds; a body that cannot be read as a form is refused (400). */
export async function readChangeForm(request: FastifyRequest, maxBytes: number): Promise<ChangeForm> {
  if (!isMultipart(request)) {
    const fields: Record<string, string> = {};
    for (const name of ['csrf', 'action', 'text', 'name', 'seen', 'seal', 'carried']) fields[name] = field(request.body, name);
    return { fields, file: null, tooLarge: false };
  }
  const form: ChangeForm = { fields: {}, file: null, tooLarge: false };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.valueTruncated) form.tooLarge = true;
        else if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
      } else if (part.fieldname === 'file' && form.file === null) {
        const bytes = await part.toBuffer();
        if (bytes.length > 0) form.file = { bytes, name: fileName(part.filename) };
      } else {
        part.file.resume();
      }
    }
    return form;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    await drainBody(request.raw, 2 * maxBytes, DRAIN_MS);
    if (errorCode(error) === 'FST_REQ_FILE_TOO_LARGE') return { ...form, tooLarge: true };
    throw CONTRIBUTE_ERRORS.badUpload();
  }
}

/** A file's name as the history keeps it: its last part, without control characters, at most 100 characters. */
export function fileName(given: string | undefined): string {
  const last = (given ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...last.replace(/[\p{Cc}\p{Cf}]/gu, '').trim()].slice(0, NAME_MAX).join('');
  return clean === '' ? 'pasted text' : clean;
}

/** The changes as one change file's text, normalised (what the preview showed is what is applied). */
export function changeFileText(changes: ChangeSet): string {
  const file: Record<string, unknown> = { format: CHANGES_FORMAT };
  for (const list of CATALOGUE_LISTS) {
    const { put, remove } = changes[list];
    if (put.length + remove.length === 0) continue;
    file[list] = { ...(put.length > 0 ? { put } : {}), ...(remove.length > 0 ? { remove } : {}) };
  }
  return JSON.stringify(file);
}

/** How many records a change file names. */
export const recordCount = (changes: ChangeSet): number => CATALOGUE_LISTS.reduce((n, list) => n + changes[list].put.length + changes[list].remove.length, 0);

/** The seal of a previewed file: its text, name and `seen` digest, under this session's csrf. */
export function sealOf(csrf: string, carried: { name: string; seen: string; text: string }): string {
  return createHmac('sha256', `heritage-changes seal:${csrf}`).update(`${carried.name}\n${carried.seen}\n${carried.text}`).digest('base64url');
}

export function sealHolds(csrf: string, carried: { name: string; seen: string; text: string }, seal: string): boolean {
  const expected = Buffer.from(sealOf(csrf, carried));
  const given = Buffer.from(seal);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
