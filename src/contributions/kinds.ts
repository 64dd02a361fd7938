// What a contributor may send about a building (issue 37), kind by kind: the fields each
// form takes, the rules they are held to, and the catalogue record each becomes once an
// editor approves it. The fields are kept as read here (store/contributions/contribution-plans.ts): trimmed,
// a video link in its one canonical form (video-links.ts); the record is made from them at
// approval, so an editor's correction is an edit of the fields, held to the same rules.
import { DOCUMENT_KEYS as D } from '../catalogue/fields.js';
import type { CatalogueRecord } from '../catalogue/lists.js';
import { textToHtml } from './text.js';
import { canonicalVideoLink } from './video-links.js';

/** The media-root path a published picture is served from (contributions/pictures.ts writes it there). */
export const publishedPictureFile = (upload: string) => `contributions/${upload}.jpg`;

/** The sizes each picture is kept at (pictures.ts makes them; sharp is not loaded here, so the store may name them). */
export const PICTURE_SIZES = ['full', 'display', 'thumbnail'] as const;
export type PictureSize = (typeof PICTURE_SIZES)[number];

export const CONTRIBUTION_KINDS = ['image', 'document', 'media'] as const;
export type ContributionKind = (typeof CONTRIBUTION_KINDS)[number];

/** The catalogue list each kind is published into. */
export const KIND_LISTS = { image: 'images', document: 'documents', media: 'media' } as const satisfies Record<ContributionKind, string>;

export interface ImageFields {
  title: string;
  description: string;
  /** YYYY-MM-DD, or '' when not known. */
  created: string;
  /** 'copyright': all rights kept by the contributor; 'open': under the site's licence. */
  licence: 'copyright' | 'open';
  /** The kept upload's name (contributions/pictures.ts): never the sender's file name. */
  upload: string;
}

export interface DocumentFields {
  title: string;
  /** Markdown's safe subset: paragraphs, emphasis, links, bullet lists (text.ts). */
  body: string;
}

export interface MediaFields {
  title: string;
  url: string;
}

export type KindFields = { image: ImageFields; document: DocumentFields; media: MediaFields };
export type ContributionFields = KindFields[ContributionKind];

export const TITLE_MAX = 200;
export const BODY_MAX = 20_000;
export const DESCRIPTION_MAX = 2_000;

export type FieldProblems = Partial<Record<string, string>>;

/** The fields as sent, trimmed, and what is wrong with them (nothing: an empty object). */
export function readFields<K extends ContributionKind>(kind: K, form: Record<string, string>): { fields: KindFields[K]; problems: FieldProblems } {
  const title = (form.title ?? '').trim();
  const problems: FieldProblems = {};
  if (title === '') problems.title = 'Give it a title.';
  else if ([...title].length > TITLE_MAX) problems.title = `A title is at most ${TITLE_MAX} characters.`;
  return { fields: FIELD_READERS[kind](form, title, problems), problems };
}

/** Each kind's fields but the title, read from the form, their problems added to `problems`. */
const FIELD_READERS: { [K in ContributionKind]: (form: Record<string, string>, title: string, problems: FieldProblems) => KindFields[K] } = {
  image(form, title, problems) {
    const description = (form.description ?? '').replace(/\r\n?/g, '\n').trim();
    if ([...description].length > DESCRIPTION_MAX) problems.description = `A description is at most ${DESCRIPTION_MAX.toLocaleString('en-GB')} characters.`;
    const created = (form.created ?? '').trim();
    if (created !== '' && !isDay(created)) problems.created = 'Give the day it was made as YYYY-MM-DD (for example 1998-06-21), or leave it empty.';
    else if (created !== '' && Date.parse(`${created}T00:00:00Z`) > Date.now()) problems.created = `${created} is in the future: give the day the picture was made, or leave it empty.`;
    const licence = form.licence === 'open' ? 'open' : form.licence === 'copyright' ? 'copyright' : null;
    if (licence === null) problems.licence = 'Choose how others may use the picture.';
    return { title, description, created, licence: licence ?? 'copyright', upload: form.upload ?? '' };
  },
  document(form, title, problems) {
    const body = (form.body ?? '').replace(/\r\n?/g, '\n').trim();
    if (body === '') problems.body = 'Write something.';
    else if ([...body].length > BODY_MAX) problems.body = `Writing is at most ${BODY_MAX.toLocaleString('en-GB')} characters.`;
    return { title, body };
  },
  media(form, title, problems) {
    // Kept (so published) in its one canonical form: an editor's correction is read here too.
    const sent = (form.url ?? '').trim();
    const link = canonicalVideoLink(sent);
    if ('problem' in link) problems.url = link.problem;
    return { title, url: 'url' in link ? link.url : sent };
  },
};

const FIELD_KEYS = {
  image: ['title', 'description', 'created', 'licence', 'upload'],
  document: ['title', 'body'],
  media: ['title', 'url'],
} as const satisfies { [K in ContributionKind]: readonly (keyof KindFields[K])[] };

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null;

/** Whether fields read back (stored as JSON) are a `kind`'s: each of its fields a string, a picture's licence one of the two. */
export function isFieldsOf(kind: ContributionKind, value: unknown): value is ContributionFields {
  if (!isObject(value) || !FIELD_KEYS[kind].every((key) => typeof value[key] === 'string')) return false;
  return kind !== 'image' || value.licence === 'open' || value.licence === 'copyright';
}

/** A real calendar day, YYYY-MM-DD (whether it is past is asked apart, to say so). */
function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
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
export function recordOf(kind: ContributionKind, fields: ContributionFields, at: Publication): CatalogueRecord<'images'> | CatalogueRecord<'documents'> | CatalogueRecord<'media'> {
  const base = { id: at.id, feature: at.feature, author: at.author, title: fields.title, published: true };
  if (kind === 'image' && 'upload' in fields) {
    return { ...base, file: publishedPictureFile(fields.upload), description: fields.description, copyright: fields.licence === 'copyright', created: fields.created === '' ? null : fields.created };
  }
  if (kind === 'document' && 'body' in fields) return { ...base, body: textToHtml(fields.body), created: at.day, [D.lastEdited]: at.day };
  if (kind === 'media' && 'url' in fields) return { ...base, url: fields.url };
  throw new TypeError(`the fields of a contribution of kind ${kind} are another kind's`);
}
