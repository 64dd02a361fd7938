// What a contributor may send about a building (issue 37), kind by kind: the fields each
// form takes, the rules they are held to, and the catalogue record each becomes once an
// editor approves it. The fields are kept as written (store/contribution-plans.ts); the
// record is made from them at approval, so an editor's correction is an edit of the fields.
import type { CatalogueRecord } from '../catalogue/lists.js';
import { textToHtml } from './text.js';

export const CONTRIBUTION_KINDS = ['document', 'media'] as const;
export type ContributionKind = (typeof CONTRIBUTION_KINDS)[number];

/** The catalogue list each kind is published into. */
export const KIND_LISTS = { document: 'documents', media: 'media' } as const satisfies Record<ContributionKind, string>;

export interface DocumentFields {
  title: string;
  /** Plain text: paragraphs split by blank lines, links written out (text.ts). */
  body: string;
}

export interface MediaFields {
  title: string;
  url: string;
}

export type KindFields = { document: DocumentFields; media: MediaFields };
export type ContributionFields = KindFields[ContributionKind];

export const TITLE_MAX = 200;
export const BODY_MAX = 20_000;

/** Where a video link may point: the hosts whose pages the original site embedded, and nothing else (no open redirect, no tracking host). */
export const VIDEO_HOSTS: readonly string[] = ['www.youtube.com', 'youtube.com', 'm.youtube.com', 'youtu.be', 'vimeo.com', 'player.vimeo.com'];

export type FieldProblems = Partial<Record<string, string>>;

/** The fields as sent, trimmed, and what is wrong with them (nothing: an empty object). */
export function readFields<K extends ContributionKind>(kind: K, form: Record<string, string>): { fields: KindFields[K]; problems: FieldProblems } {
  const title = (form.title ?? '').trim();
  const problems: FieldProblems = {};
  if (title === '') problems.title = 'Give it a title.';
  else if ([...title].length > TITLE_MAX) problems.title = `A title is at most ${TITLE_MAX} characters.`;
  if (kind === 'document') {
    const body = (form.body ?? '').replace(/\r\n?/g, '\n').trim();
    if (body === '') problems.body = 'Write something.';
    else if ([...body].length > BODY_MAX) problems.body = `Writing is at most ${BODY_MAX.toLocaleString('en-GB')} characters.`;
    return { fields: { title, body } as KindFields[K], problems };
  }
  const url = (form.url ?? '').trim();
  const urlProblem = videoUrlProblem(url);
  if (urlProblem !== null) problems.url = urlProblem;
  return { fields: { title, url } as KindFields[K], problems };
}

export function videoUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Give the address of the video\'s page, starting https://';
  }
  if (parsed.protocol !== 'https:') return 'The address must start https://';
  if (parsed.username !== '' || parsed.password !== '') return 'The address must not hold a name or password.';
  if (!VIDEO_HOSTS.includes(parsed.hostname.toLowerCase())) return `Videos are linked from ${['YouTube', 'Vimeo'].join(' or ')} only.`;
  return null;
}

/** Who and when, as the record carries them. */
export interface Publication {
  id: number;
  feature: number;
  author: number;
  /** The day of approval, YYYY-MM-DD. */
  day: string;
}

/** The catalogue record an approved contribution becomes. */
export function recordOf(kind: ContributionKind, fields: ContributionFields, at: Publication): CatalogueRecord<'documents'> | CatalogueRecord<'media'> {
  const base = { id: at.id, feature: at.feature, author: at.author, title: fields.title, published: true };
  if (kind === 'document') return { ...base, body: textToHtml((fields as DocumentFields).body), created: at.day, last_edited: at.day };
  return { ...base, url: (fields as MediaFields).url };
}
