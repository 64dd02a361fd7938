// The editors' back office (issue 47), registered with the contributors' face: every path
// under /edit/ is for editors and admins alone, checked when the request arrives, before its
// body or anything of the catalogue is read (anonymous: 303 to sign in; anyone else: 403).
// Each form's POST is checked by its csrf before its handler runs. A save is one change of
// the store, through apply's own machinery: one new catalogue version, kept in the history.
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayModerate } from '../../accounts/roles.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { CONTRIBUTE_PATHS, EDIT_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/accounts/account-plans.js';
import type { ContributeDeps, FormKit } from '../contribute/routes.js';
import { registerChangeRoutes } from './change-routes.js';
import { registerRecordRoutes } from './record-routes.js';

/**
 * A record's form: a footprint of 2,000 positions percent-encoded, or a text field of 50,000
 * characters (up to 9 bytes each encoded), read whole so that a field past the catalogue's own
 * limits is refused by those limits, with the form kept, rather than by the parser.
 */
export const EDIT_FORM_BYTES = 1024 * 1024;

/** What every editor's route shares. */
export interface EditDesk {
  deps: ContributeDeps;
  kit: FormKit;
  /** The editor this request is from: the guard found them before the handler runs. */
  editor(request: FastifyRequest): AccountRow;
}

const EDITORS = new WeakMap<FastifyRequest, AccountRow>();

export async function registerEditRoutes(scope: FastifyInstance, deps: ContributeDeps, kit: FormKit): Promise<void> {
  scope.addHook('onRequest', async (request, reply) => {
    const { account } = await kit.signedIn(request);
    if (account === null) return kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
    if (!mayModerate(account.role)) throw CONTRIBUTE_ERRORS.editorsOnly();
    EDITORS.set(request, account);
  });
  const desk: EditDesk = { deps, kit, editor: editorOf };
  await scope.register(async (forms) => {
    await forms.register(formBody, { bodyLimit: EDIT_FORM_BYTES });
    // A multipart form (a change file) is checked by its handler, from its first field: its body is streamed, not parsed here.
    forms.addHook('preHandler', async (request) => {
      if (request.method === 'POST' && !isMultipart(request)) await kit.checkForm(request);
    });
    registerRecordRoutes(forms, desk);
    await registerChangeRoutes(forms, desk);
  });
  // Any other path under /edit/ is guarded too: a contributor learns nothing of what exists there.
  scope.all(`${EDIT_PATHS.prefix}*`, async () => {
    throw CONTRIBUTE_ERRORS.noSuchEditPage();
  });
}

const isMultipart = (request: FastifyRequest) => (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');

function editorOf(request: FastifyRequest): AccountRow {
  const account = EDITORS.get(request);
  if (account === undefined) throw new Error('an editor\'s route ran without the editors\' guard');
  return account;
}

/** A 303 to a page of this site after a save. */
export const seeAfterSave = (desk: EditDesk, request: FastifyRequest, reply: FastifyReply, path: string) => desk.kit.see(reply, request, path);
