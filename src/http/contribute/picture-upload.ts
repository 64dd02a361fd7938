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
import { CONTRIBUTE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/account-plans.js';
import { sendPictureContributionPlan } from '../../store/contribution-plans.js';
import { Gate } from '../../work/gate.js';
import { pageAt } from '../../pages/request.js';
import { drainBody } from './drain.js';
import { readPictureForm } from './picture-form.js';
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

export function pictureUpload(deps: ContributeDeps, kit: FormKit, pictures: PictureUploadKit) {
  const receive = async (request: FastifyRequest, reply: FastifyReply, account: AccountRow, featureId: string | undefined) => {
    if (!request.isMultipart()) throw CONTRIBUTE_ERRORS.notMultipart();
    const about = await pictures.building(featureId);
    const form = await readPictureForm(request, async (fields, gone) => {
      await kit.checkForm(request, fields.csrf ?? '');
      return pictures.slots.enter(gone);
    });
    try {
      if (form.bytes === null) await kit.checkForm(request, form.fields.csrf ?? '');
      const again = async (status: number, problem: string) =>
        kit.html(reply, status, htmlContributeForm(pageAt(request), { kind: 'image', feature: about, csrf: await kit.formCsrf(request, reply), fields: { ...form.fields, upload: '' }, problem }));
      const upload = randomUUID();
      const { fields, problems } = readFields('image', { ...form.fields, upload });
      const problem = Object.values(problems)[0] ?? (form.bytes === null || form.bytes.length === 0 ? 'Choose a picture to send.' : null);
      if (problem !== null || form.bytes === null) return again(400, problem ?? 'Choose a picture to send.');
      const prepared = await pictures.preparing.prepare(form.bytes).catch(() => null);
      if (prepared === null) return again(503, 'The picture could not be prepared just now: try again in a minute, or send a smaller one.');
      if (!prepared.ok) return again(prepared.status, prepared.problem);
      // The sender's bytes go no further: the store keeps the re-encodings, with the contribution, in one transaction.
      await deps.store.transact(sendPictureContributionPlan({ accountId: account.id, featureId: about.id, fields, now: Date.now() }, prepared.picture));
      return kit.see(reply, request, CONTRIBUTE_PATHS.account);
    } finally {
      form.release();
    }
  };
  return async (request: FastifyRequest, reply: FastifyReply, featureId: string | undefined) => {
    try {
      const { account } = await kit.signedIn(request);
      if (account === null) {
        await drainBody(request.raw, UPLOAD_FORM_MAX_BYTES, DRAIN_MS);
        return kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
      }
      return await receive(request, reply, account, featureId);
    } catch (error) {
      // A stalled body is not waited for again: its refusal (408) goes at once.
      if (!(error instanceof ApiError && error.status === 408)) await drainBody(request.raw, UPLOAD_FORM_MAX_BYTES, DRAIN_MS);
      throw error;
    }
  };
}
