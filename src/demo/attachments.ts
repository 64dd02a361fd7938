// The demo's images, documents and media: attached to the better-known buildings and
// places (a draft's weight), a few percent of each kind unpublished.
import type { Author, Document, Image, Media } from '../catalogue/format.js';
import { authorPicker, type AuthorPicker } from './authors.js';
import { DEMO_SCALE_1, type DemoRecord, type ScaledCount } from './options.js';
import type { Draft } from './features.js';
import { dayOf, idSequence, isoDay, type Rng } from './random.js';
import * as T from './text.js';
import { at } from '../invariant.js';

export interface AttachmentPlan {
  rng: Rng;
  count: ScaledCount;
  authors: readonly Author[];
  /** The features that may carry attachments. */
  eligible: readonly Draft[];
}

/** What every kind of attachment draws on; images note the features they picture. */
interface Attaching extends AttachmentPlan {
  author: AuthorPicker;
  withImages: Set<number>;
}

const FIRST_DAY = dayOf(2016, 1, 1);
const LAST_DAY = dayOf(2019, 12, 31);
const FILE_SUFFIX_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Images, then documents, then media, in file order. */
export function* attachmentRecords(plan: AttachmentPlan): Generator<DemoRecord> {
  const attaching: Attaching = { ...plan, author: authorPicker(plan.rng, plan.authors), withImages: new Set() };
  yield* images(attaching);
  yield* documents(attaching);
  yield* media(attaching);
}

/** Images: uploaded in batches, several per feature for a few features, none for most. */
function* images(a: Attaching): Generator<DemoRecord> {
  const { rng } = a;
  const total = a.count(DEMO_SCALE_1.images, T.SHOWCASE_FILE_NAMES.length);
  const batches = rng.shuffle(spread(rng, a.eligible, total, () => Math.min(30, 1 + Math.floor(-Math.log(1 - rng.next()) * 3.5))));
  const nextImage = idSequence(rng, rng.int(1, 9), 0.05, 25);
  const hidden = unpublished(rng, total);
  const taken = new Set<string>();
  for (const [i, draft] of batches.entries()) {
    const file = uniqueFile(rng, `uploads/features/${draft.feature.id}/`, T.SHOWCASE_FILE_NAMES[i] ?? T.imageFileName(rng, draft.subject), taken);
    const by = a.author();
    const image: Image = {
      id: nextImage(), feature: draft.feature.id, author: by.id, title: T.imageTitle(rng, draft.subject), file,
      description: T.imageDescription(rng, draft.subject, by.username), copyright: rng.chance(0.3),
      created: rng.chance(0.1) ? null : isoDay(rng.int(FIRST_DAY, LAST_DAY)), published: !hidden(i),
    };
    a.withImages.add(image.feature);
    yield { list: 'images', record: image };
  }
}

/** `dir + name`, or with a random suffix before the extension when a file there has that name. */
function uniqueFile(rng: Rng, dir: string, name: string, taken: Set<string>): string {
  let unique = name;
  while (taken.has(dir + unique)) unique = unique.replace(/(\.[^.]*)?$/, (ext) => `_${rng.chars(FILE_SUFFIX_LETTERS, 7)}${ext}`);
  taken.add(dir + unique);
  return dir + unique;
}

/** Documents: one article for most documented features, a second or third for some. */
function* documents(a: Attaching): Generator<DemoRecord> {
  const { rng } = a;
  const total = a.count(DEMO_SCALE_1.documents, 3);
  const drafts = rng.shuffle(spread(rng, a.eligible, total, () => rng.weighted([[80, 1], [15, 2], [5, 3]]), (d) => (a.withImages.has(d.feature.id) ? 3 : 1)));
  const nextDocument = idSequence(rng, rng.int(1, 30), 0.06, 20);
  const hidden = unpublished(rng, total);
  const seen = new Map<number, number>();
  for (const [i, draft] of drafts.entries()) {
    const nth = seen.get(draft.feature.id) ?? 0;
    seen.set(draft.feature.id, nth + 1);
    yield { list: 'documents', record: makeDocument(a, draft, nth, i, { nextId: nextDocument, hidden }) };
  }
}

/** How a list's records are numbered, and which are unpublished by their index in it. */
interface Numbering {
  nextId: () => number;
  hidden: (index: number) => boolean;
}

/** A feature's nth document, the index-th of the list; the list's first is always a history. */
function makeDocument(a: Attaching, draft: Draft, nth: number, index: number, numbering: Numbering): Document {
  const { rng } = a;
  const history = index === 0 || rng.chance(nth === 0 ? 0.9 : 0.5);
  const created = rng.int(FIRST_DAY, LAST_DAY);
  const edited = rng.chance(0.06) ? created - rng.int(1, 200) : created + rng.int(0, 900);
  return {
    id: numbering.nextId(), feature: draft.feature.id, author: a.author(history ? 1.6 : 0.4).id, title: T.documentTitle(rng, draft.subject, nth),
    body: T.documentBody(rng, draft.subject, history), created: isoDay(created), last_edited: isoDay(edited), published: !numbering.hidden(index),
  };
}

/** Media: links to films of a few of the best-documented buildings. */
function* media(a: Attaching): Generator<DemoRecord> {
  const { rng } = a;
  const total = a.count(DEMO_SCALE_1.media, 3);
  const drafts = spread(rng, a.eligible, total, () => (rng.chance(0.85) ? 1 : 2), (d) => (a.withImages.has(d.feature.id) ? 4 : 1));
  const hidden = unpublished(rng, total);
  const nextMedia = idSequence(rng, rng.int(1, 5), 0.1, 6);
  for (const [i, draft] of drafts.entries()) {
    const record: Media = {
      id: nextMedia(), feature: draft.feature.id, author: a.author().id, title: T.mediaTitle(rng, draft.subject), url: T.mediaUrl(rng), published: !hidden(i),
    };
    yield { list: 'media', record };
  }
}

/** A few percent of n records are unpublished: always one, and never all of a short list. */
function unpublished(rng: Rng, n: number): (i: number) => boolean {
  const forced = rng.int(0, n - 1);
  return (i) => i === forced || (n >= 20 && rng.chance(0.03));
}

/**
 * `total` attachments spread over features in weighted random order, `batch()` at a time,
 * each feature appearing in one run (or again, when a small catalogue runs out of features).
 */
function spread(rng: Rng, drafts: readonly Draft[], total: number, batch: () => number, boost: (d: Draft) => number = () => 1): Draft[] {
  const order = rng.weightedOrder(drafts, (d) => d.weight * boost(d));
  const out: Draft[] = [];
  for (let j = 0; out.length < total; j++) {
    const draft = at(order, j % order.length);
    for (let k = Math.min(batch(), total - out.length); k > 0; k--) out.push(draft);
  }
  return out;
}
