// The contribution pages: a building's forms, the editors' queue, a review (the record's own
// page as it will be published, with the editor's panel above it).
import { KIND_LISTS, recordOf, type ContributionKind } from '../../contributions/kinds.js';
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';
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
const STATE_TEXT: Readonly<Record<ContributionState, string>> = { pending: 'waiting for an editor', published: 'published', rejected: 'not published', withdrawn: 'published, then withdrawn by an editor' };

const FORM_TITLES: Readonly<Record<ContributionKind, (label: string) => string>> = {
  image: (label) => `Add a picture of ${label}`,
  document: (label) => `Write about ${label}`,
  media: (label) => `Share a video of ${label}`,
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const emptyFields = { title: '', body: '', url: '', description: '', created: '', licence: '' };

export interface ContributeForm {
  kind: ContributionKind;
  feature: FeatureLabel;
  csrf: string;
  fields: Record<string, string>;
  problem: string | null;
}

export function htmlContributeForm(at: PageAt, form: ContributeForm): string {
  const title = FORM_TITLES[form.kind](form.feature.label);
  const featureHref = recordHref(at, 'features', form.feature.id);
  return CONTRIBUTE_PAGES.render('contribute-form', {
    page: page(at, { title, heading: title, crumbs: [homeCrumb(at), { href: featureHref, label: form.feature.label }], alternates: [], description: title }),
    kind: form.kind, featureHref, featureLabel: form.feature.label, accountHref: `${at.baseUrl}${CONTRIBUTE_PATHS.account}`,
    action: `${at.baseUrl}${CONTRIBUTE_PATHS.contribute(form.feature.id, form.kind)}`, multipart: form.kind === 'image', csrf: form.csrf, fields: { ...emptyFields, ...form.fields }, problem: form.problem,
  });
}

/** What the account page and the queue show of each. */
export function listed(at: PageAt, { contribution: c, featureLabel }: ContributionItem) {
  const list = KIND_LISTS[c.kind];
  return {
    title: c.fields.title, kind: KIND_NAMES[c.kind], sent: day(c.created), state: c.state, stateText: STATE_TEXT[c.state], reason: c.reason,
    href: c.state === 'published' && c.recordId !== null ? recordHref(at, list, c.recordId) : null,
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
}

/** The record's page exactly as it will be published (htmlAttachment), with the editor's panel above. */
export function htmlReview(at: PageAt, r: Review): string {
  const c = r.contribution;
  const today = day(Date.now());
  const nested = (r.feature ?? standIn(c.featureId)) as unknown as NestedFeatureRow;
  const record = recordOf(c.kind, c.fields, { id: 0, feature: c.featureId, author: 0, day: today });
  const row = { ...record, author: { id: 0, username: c.username }, feature: nested };
  const moderation = {
    heading: c.state === 'pending' ? 'Waiting for review' : `Already ${STATE_TEXT[c.state]}`,
    pending: c.state === 'pending', kind: c.kind, username: c.username, sent: day(c.created), problem: r.problem,
    fields: { ...emptyFields, ...(r.fields ?? c.fields) }, csrf: r.csrf, seen: r.seen,
    approve: `${at.baseUrl}${CONTRIBUTE_PATHS.approve(c.id)}`, reject: `${at.baseUrl}${CONTRIBUTE_PATHS.reject(c.id)}`, queue: `${at.baseUrl}${CONTRIBUTE_PATHS.queue}`,
  };
  // recordOf gives an image its file and a writing its body.
  const attachment: Attachment = 'file' in row ? { collection: 'images', row } : 'body' in row ? { collection: 'documents', row } : { collection: 'media', row };
  // A waiting picture is not under /media/ yet: the editor's own route shows it.
  const picture = c.kind === 'image' ? `${at.baseUrl}${CONTRIBUTE_PATHS.review(c.id)}/picture` : undefined;
  return htmlAttachment(at, `${at.baseUrl}${CONTRIBUTE_PATHS.review(c.id)}`, attachment, { ...moderation, picture });
}

/** What a record page reads of a building that is gone: enough to name it. */
function standIn(id: number) {
  return { id, [F.type]: 'WHITECHAPEL_BUILDING', [F.number]: null, [F.name]: `Building ${id} (removed)`, [F.address]: '', count: 0 };
}
