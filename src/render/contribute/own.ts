// A contributor's own contribution (issue 47): what they sent and its state, the thanks once
// sent, and while it waits, their correction (the form filled in, with the digest of what it
// shows, as an editor's) and its withdrawal. Another account's is never shown (a 404).
import { KIND_LISTS } from '../../contributions/kinds.js';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';
import { recordHref } from '../site/record.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { emptyFields, KIND_NAMES, previewOf, STATE_TEXT, type ContributionItem } from './contributions.js';
import { CONTRIBUTE_PAGES } from './templates.js';

/** What the page says above the rest, after the action that led to it. */
export const OWN_NOTICES = {
  sent: 'Thank you — sent. It is waiting for an editor, who reads everything before it is published. Until then you can correct it or withdraw it here.',
  saved: 'Saved: your correction is kept, and it still waits for an editor.',
  withdrawn: 'Withdrawn: an editor will not see it.',
} as const;
export type OwnNotice = keyof typeof OWN_NOTICES;

export interface OwnPage {
  item: ContributionItem;
  csrf: string;
  seen: string;
  notice: OwnNotice | null;
  problem: string | null;
  /** The fields as sent back, when they could not be taken. */
  fields?: Record<string, string>;
}

export function htmlOwnContribution(at: PageAt, own: OwnPage): string {
  const c = own.item.contribution;
  const accountHref = `${at.baseUrl}${CONTRIBUTE_PATHS.account}`;
  const title = `${KIND_NAMES[c.kind]}: ${c.fields.title}`;
  const pending = c.state === 'pending';
  return CONTRIBUTE_PAGES.render('own-contribution', {
    page: page(at, { title, heading: c.fields.title, crumbs: [homeCrumb(at), { href: accountHref, label: 'Your account' }], alternates: [], description: title }),
    notice: own.notice === null ? null : OWN_NOTICES[own.notice],
    kind: c.kind, kindName: KIND_NAMES[c.kind], sent: new Date(c.created).toISOString().slice(0, 10), state: c.state, stateText: STATE_TEXT[c.state], reason: c.reason,
    featureHref: recordHref(at, 'features', c.featureId), featureLabel: own.item.featureLabel ?? `Building ${c.featureId} (removed)`,
    // Linked while it is published only: an undone one's record answers 404.
    href: c.state === 'published' && c.recordId !== null ? recordHref(at, KIND_LISTS[c.kind], c.recordId) : null,
    // A waiting picture is not public: its author sees it from this page's own route; a decided one's is the record's.
    picture: pending && c.kind === 'image' ? `${at.baseUrl}${CONTRIBUTE_PATHS.mine(c.id)}/picture` : null,
    preview: previewOf(c.kind, c.fields),
    pending, problem: own.problem, csrf: own.csrf, seen: own.seen,
    fields: { ...emptyFields, ...(own.fields ?? c.fields) },
    action: `${at.baseUrl}${CONTRIBUTE_PATHS.mine(c.id)}`, withdraw: `${at.baseUrl}${CONTRIBUTE_PATHS.mine(c.id)}/withdraw`, accountHref,
  });
}
