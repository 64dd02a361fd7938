// A picture sent for review (issue 45): the session first (from the cookie, before any byte of
// the body is read), then the form read within bounds (picture-form.ts: csrf checked and a
// slot taken at the file part), the picture prepared in its own process, and the contribution
// and the picture's sizes written in one transaction. A refusal's body is read to its end
// first (drain.ts) so that the browser shows the page saying why.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { readFields } from '../../contributions/kinds.js';
import { PICTURE_MAX_BYTES } from '../../contributions/pictures.js';
import { PictureProcess } from '../../contributions/picture-process.js';
import { ApiError, CONTRIBUTE_ERRORS } from '../../errors.js';
import { htmlContributeForm, type FeatureLabel } from '../../render/contribute/contributions.js';
import type { AccountRow } from '../../store/accounts/account-plans.js';
import { sendPictureContributionPlan } from '../../store/contributions/contribution-plans.js';
import { Gate } from '../../work/gate.js';
import { pageAt } from '../../pages/request.js';
import { drainBody } from './drain.js';
import { EXPIRED_FORM } from './forms.js';
import { sameSitePath, signInFor } from './next.js';
import { ownPath } from './own-routes.js';
import { readPictureForm, type PictureForm } from './picture-form.js';
import type { ContributeDeps, FormKit } from './routes.js';

/** A picture's whole form at most: the picture and its few fields (routes.ts's multipart limits). */
const UPLOAD_FORM_MAX_BYTES = PICTURE_MAX_BYTES + 256 * 1024;
/** A refused upload's rest is read for at most this long (drain.ts). */
const DRAIN_MS = 10_000;

/** At most two pictures received and prepared at once (each up to 20 MB in memory), four more waiting (up to 30 s), the rest refused (503). */
export const pictureUploadSlots = () => new Gate('picture uploads', { running: 2, waiting: 4, waitMs: 30_000 });

export interface PictureUploadKit {
  /** The building a form is about, or a 404. */
  building(featureId: string | undefined): Promise<FeatureLabel>;
  /** pictureUploadSlots(), made by app.ts so that /metrics counts its turns. */
  slots: Gate;
  /** Decoded and encoded in a process of its own, at the lowest priority (picture-process.ts). */
  preparing: PictureProcess;
}

/** Said with every refusal of a picture's form: its words are kept, its file cannot be. */
export const CHOOSE_AGAIN = 'Your words are kept below, but a browser cannot keep the picture: choose the file again.';

export function pictureUpload(deps: ContributeDeps, kit: FormKit, pictures: PictureUploadKit) {
  const receive = async (request: FastifyRequest, reply: FastifyReply, account: AccountRow, featureId: string | undefined) => {
    if (!request.isMultipart()) throw CONTRIBUTE_ERRORS.notMultipart();
    const about = await pictures.building(featureId);
    const again = async (status: number, problem: string, fields: Record<string, string>) =>
      kit.html(reply, status, htmlContributeForm(pageAt(request), { kind: 'image', feature: about, csrf: await kit.formCsrf(request, reply), fields: { ...fields, upload: '' }, problem: `${problem} ${CHOOSE_AGAIN}` }));
    // The fields read before the file, kept to show again when the form is refused on the way.
    const sent: Record<string, string> = {};
    let expired = false;
    let form: PictureForm;
    try {
      form = await readPictureForm(request, async (fields, gone) => {
        expired = !(await kit.formValid(request, fields.csrf ?? ''));
        if (expired) throw CONTRIBUTE_ERRORS.badForm();
        return pictures.slots.enter(gone);
      }, undefined, sent);
    } catch (error) {
      // A form that had expired, or a picture too large: the page again, once the rest of the body is read.
      const tooLarge = error instanceof ApiError && error.status === 413;
      if (!expired && !tooLarge) throw error;
      await drainBody(request.raw, UPLOAD_FORM_MAX_BYTES, DRAIN_MS);
      return expired ? again(403, EXPIRED_FORM, sent) : again(413, CONTRIBUTE_ERRORS.pictureTooLarge().detail, sent);
    }
    try {
      if (form.bytes === null && !(await kit.formValid(request, form.fields.csrf ?? ''))) return again(403, EXPIRED_FORM, form.fields);
      const upload = randomUUID();
      const { fields, problems } = readFields('image', { ...form.fields, upload });
      const problem = Object.values(problems)[0] ?? (form.bytes === null || form.bytes.length === 0 ? 'Choose a picture to send.' : null);
      if (problem !== null || form.bytes === null) return again(400, problem ?? 'Choose a picture to send.', form.fields);
      const prepared = await pictures.preparing.prepare(form.bytes).catch(() => null);
      if (prepared === null) return again(503, 'The picture could not be prepared just now: try again in a minute, or send a smaller one.', form.fields);
      if (!prepared.ok) return again(prepared.status, prepared.problem, form.fields);
      // The sender's bytes go no further: the store keeps the re-encodings, with the contribution, in one transaction.
      const id = await deps.store.transact(sendPictureContributionPlan({ accountId: account.id, featureId: about.id, fields, now: Date.now() }, prepared.picture));
      return kit.see(reply, request, ownPath(id, 'sent'));
    } finally {
      form.release();
    }
  };
  return async (request: FastifyRequest, reply: FastifyReply, featureId: string | undefined) => {
    try {
      const { account } = await kit.signedIn(request);
      if (account === null) {
        await drainBody(request.raw, UPLOAD_FORM_MAX_BYTES, DRAIN_MS);
        return kit.see(reply, request, signInFor(sameSitePath(request.url)));
      }
      return await receive(request, reply, account, featureId);
    } catch (error) {
      // A stalled body is not waited for again: its refusal (408) goes at once.
      if (!(error instanceof ApiError && error.status === 408)) await drainBody(request.raw, UPLOAD_FORM_MAX_BYTES, DRAIN_MS);
      throw error;
    }
  };
}
