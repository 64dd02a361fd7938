// The demo's authors: the Survey's own accounts first, then made-up usernames; and who
// writes each attachment, with the long tail of a real community site.
import type { Author } from '../catalogue/format.js';
import { idSequence, type Rng } from './random.js';
import * as W from './words.js';
import { at } from '../invariant.js';

/** An author for the next attachment; `skew` > 1 favours the first authors more. */
export type AuthorPicker = (skew?: number) => Author;

export function makeAuthors(rng: Rng, n: number): Author[] {
  const names = new Set(W.FIXED_USERNAMES.slice(0, n));
  while (names.size < n) names.add(newUsername(rng, names));
  const next = idSequence(rng, rng.int(1, 3), 0.15, 12);
  return [...names].map((username) => ({ id: next(), username }));
}

function newUsername(rng: Rng, taken: ReadonlySet<string>): string {
  const first = rng.pick(W.FIRST_NAMES).toLowerCase();
  const last = rng.pick(W.SURNAMES).toLowerCase();
  let name = rng.pick([`${first}.${last.charAt(0)}`, `${first}_${last}`, `${first}${rng.int(10, 99)}`, `${last}_history`, `${first.charAt(0)}${last}`]);
  while (taken.has(name)) name += String(rng.int(0, 9));
  return name;
}

/** Picks authors with a long tail (Zipf-like): the Survey's own accounts write most records. */
export function authorPicker(rng: Rng, authors: readonly Author[]): AuthorPicker {
  const tables = new Map<number, number[]>();
  return (skew = 1) => {
    let cumulative = tables.get(skew);
    if (cumulative === undefined) {
      cumulative = cumulativeWeights(authors.length, skew);
      tables.set(skew, cumulative);
    }
    return at(authors, firstAbove(cumulative, rng.next() * (cumulative[cumulative.length - 1] ?? 0)));
  };
}

/** Running sums of 1 / rank^skew. */
function cumulativeWeights(n: number, skew: number): number[] {
  let sum = 0;
  return Array.from({ length: n }, (_, i) => (sum += 1 / Math.pow(i + 1, skew)));
}

/** The first index whose running sum exceeds x (binary search; the last index at most). */
function firstAbove(cumulative: readonly number[], x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] ?? 0) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
