// The contribution pages: a building's forms, the editors' queue, a review (the record's own
// page as it will be published, with the editor's panel above it).
import { KIND_LISTS, recordOf, type ContributionFields, type ContributionKind } from '../../contributions/kinds.js';
import { textToHtml } from '../../contributions/text.js';
import { sanitiseDocument } from '../../pages/sanitise.js';
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { CONTRIBUTE_PATHS, EDIT_PATHS } from '../../site/paths.js';
import type { ContributionRow, ContributionState } from '../../store/contributions/contribution-plans.js';
import type { FeatureRow, NestedFeatureRow } from '../../store/store.js';
import { htmlAttachment, recordHref, type Attachment } from '../site/record.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PAGES } from './templates.js';

export interface FeatureLabel {
  id: number;
  label: string;
}

/** A contribution as listed: with the name of the building it is about (null: removed since). */
export interface ContributionItem {
  contribution: ContributionRow;
  featureLabel: string | null;
}

export const KIND_NAMES: Readonly<Record<ContributionKind, string>> = { image: 'Picture', document: 'Writing', media: 'Video link' };
export const STATE_TEXT: Readonly<Record<ContributionState, string>> = {
  pending: 'waiting for an editor', published: 'published', rejected: 'not published', withdrawn: 'published, then withdrawn by an editor', cancelled: 'withdrawn by you',
};
/** What a review says of a contribution decided already: an undone publication is not "published". */
const REVIEW_HEADINGS: Readonly<Record<ContributionState, string>> = {
  pending: 'Waiting for review', published: 'Already published', rejected: 'Already rejected',
  withdrawn: 'Published, then withdrawn by an undo', cancelled: 'Withdrawn by its contributor',
};

const FORM_TITLES: Readonly<Record<ContributionKind, (label: string) => string>> = {
  image: (label) => `Add a picture of ${label}`,
  document: (label) => `Write about ${label}`,
  media: (label) => `Share a video of ${label}`,
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const emptyFields = { title: '', body: '', url: '', description: '', created: '', licence: '' };

export interface ContributeForm {
  kind: ContributionKind;
  feature: FeatureLabel;
  csrf: string;
  fields: Record<string, string>;
  problem: string | null;
  /** The fields as they will be published, shown above the form (its Preview button): nothing is stored. */
  preview?: Preview | null;
}

/** Writing as its page will show it (the one conversion: contributions/text.ts), or a video's link. */
export interface Preview { title: string; html: string | null; url: string | null }

/** The preview of writing or a video link whose fields were found right. */
export function previewOf(kind: ContributionKind, fields: ContributionFields): Preview | null {
  if (kind === 'document' && 'body' in fields) return { title: fields.title, html: sanitiseDocument(textToHtml(fields.body), 'preview'), url: null };
  if (kind === 'media' && 'url' in fields) return { title: fields.title, html: null, url: fields.url };
  return null;
}

export function htmlContributeForm(at: PageAt, form: ContributeForm): string {
  const title = FORM_TITLES[form.kind](form.feature.label);
  const featureHref = recordHref(at, 'features', form.feature.id);
  return CONTRIBUTE_PAGES.render('contribute-form', {
    page: page(at, { title, heading: title, crumbs: [homeCrumb(at), { href: featureHref, label: form.feature.label }], alternates: [], description: title }),
    kind: form.kind, featureHref, featureLabel: form.feature.label, accountHref: `${at.baseUrl}${CONTRIBUTE_PATHS.account}`,
    action: `${at.baseUrl}${CONTRIBUTE_PATHS.contribute(form.feature.id, form.kind)}`, multipart: form.kind === 'image', csrf: form.csrf, fields: { ...emptyFields, ...form.fields }, problem: form.problem,
    preview: form.preview ?? null,
  });
}

/** What the account page and the queue show of each. */
export function listed(at: PageAt, { contribution: c, featureLabel }: ContributionItem) {
  const list = KIND_LISTS[c.kind];
  return {
    title: c.fields.title, kind: KIND_NAMES[c.kind], sent: day(c.created), state: c.state, stateText: STATE_TEXT[c.state], reason: c.reason,
    // Linked while it is published only: an undone one's record answers 404.
    href: c.state === 'published' && c.recordId !== null ? recordHref(at, list, c.recordId) : null,
    own: `${at.baseUrl}${CONTRIBUTE_PATHS.mine(c.id)}`,
    review: `${at.baseUrl}${CONTRIBUTE_PATHS.review(c.id)}`,
    featureHref: recordHref(at, 'features', c.featureId), featureLabel: featureLabel ?? `Building ${c.featureId} (removed)`, username: c.username,
  };
}

export function htmlQueue(at: PageAt, items: readonly ContributionItem[]): string {
  return CONTRIBUTE_PAGES.render('moderate', {
    page: page(at, { title: 'Waiting for review', heading: 'Waiting for review', crumbs: [homeCrumb(at)], alternates: [], description: 'Contributions waiting for an editor.' }),
    items: items.map((item) => ({ ...listed(at, item), href: listed(at, item).review })),
  });
}

export interface Review {
  contribution: ContributionRow;
  /** The building, null when it has been removed since. */
  feature: FeatureRow | null;
  csrf: string;
  problem: string | null;
  /** The fields as an editor sent them back, when they could not be taken. */
  fields?: Record<string, string>;
  /** The digest of the stored fields this page shows, sent back with a decision (a correction since refuses it). */
  seen: string;
  /** Said above the form once a correction is kept ("Save the correction"). */
  saved?: boolean;
}

/** Where a review leads an editor: the building's form and history, and the record it was published as, with its history. */
function reviewLinks(at: PageAt, c: ContributionRow): { href: string; label: string }[] {
  const links = [
    { href: `${at.baseUrl}${EDIT_PATHS.record('features', c.featureId)}`, label: 'Edit the building' },
    { href: `${at.baseUrl}${CONTRIBUTE_PATHS.history('features', c.featureId)}`, label: 'The building\'s history' },
  ];
  const list = KIND_LISTS[c.kind];
  if (c.recordId !== null) {
    links.push({ href: `${at.baseUrl}${CONTRIBUTE_PATHS.history(list, c.recordId)}`, label: 'History of what it was published as' });
  }
  return links;
}

/** The record's page exactly as it will be published (htmlAttachment), with the editor's panel above. */
export function htmlReview(at: PageAt, r: Review): string {
  const c = r.contribution;
  const today = day(Date.now());
  const nested = (r.feature ?? standIn(c.featureId)) as unknown as NestedFeatureRow;
  const record = recordOf(c.kind, c.fields, { id: 0, feature: c.featureId, author: 0, day: today });
  const row = { ...record, author: { id: 0, username: c.username }, feature: nested };
  const moderation = {
    heading: REVIEW_HEADINGS[c.state], saved: r.saved === true,
    pending: c.state === 'pending', kind: c.kind, username: c.username, sent: day(c.created), problem: r.problem,
    // The licence is the contributor's to choose: shown to the editor, never a field of theirs.
    licenceFixed: c.kind === 'image' && 'licence' in c.fields ? LICENCE_TEXT[c.fields.licence] : null,
    fields: { ...emptyFields, ...(r.fields ?? c.fields) }, csrf: r.csrf, seen: r.seen,
    approve: `${at.baseUrl}${CONTRIBUTE_PATHS.approve(c.id)}`, reject: `${at.baseUrl}${CONTRIBUTE_PATHS.reject(c.id)}`, queue: `${at.baseUrl}${CONTRIBUTE_PATHS.queue}`,
    links: reviewLinks(at, c),
  };
  // recordOf gives an image its file and a writing its body.
  const attachment: Attachment = 'file' in row ? { collection: 'images', row } : 'body' in row ? { collection: 'documents', row } : { collection: 'media', row };
  // A waiting picture is not under /media/ yet: the editor's own route shows it.
  const picture = c.kind === 'image' ? `${at.baseUrl}${CONTRIBUTE_PATHS.review(c.id)}/picture` : undefined;
  return htmlAttachment(at, `${at.baseUrl}${CONTRIBUTE_PATHS.review(c.id)}`, attachment, { ...moderation, picture });
}

export const LICENCE_TEXT = { copyright: 'the contributor keeps the copyright: shown here with their name, no other use', open: 'under this site\'s licence' } as const;

/** What a record page reads of a building that is gone: enough to name it. */
function standIn(id: number) {
  return { id, [F.type]: 'WHITECHAPEL_BUILDING', [F.number]: null, [F.name]: `Building ${id} (removed)`, [F.address]: '', count: 0 };
}
