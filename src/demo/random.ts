// A small seeded PRNG (sfc32 seeded through xmur3) and the draws the demo generator needs.
// Never Math.random, never the clock: the same seed gives the same sequence on every run.

function xmur3(text: string): () => number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return h >>> 0;
  };
}

/** Any value but undefined, which an index past a list's end reads as: so a missing item is told from a present one. */
type Defined = NonNullable<unknown> | null;

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seedText: string) {
    const hash = xmur3(seedText);
    this.a = hash();
    this.b = hash();
    this.c = hash();
    this.d = hash();
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.d = (this.d + 1) | 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** A float in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T extends Defined>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** Picks by relative weight: `[[weight, value], ...]`. */
  weighted<T>(table: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of table) total += w;
    let x = this.next() * total;
    for (const [w, value] of table) {
      x -= w;
      if (x < 0) return value;
    }
    const last = table[table.length - 1];
    if (last === undefined) throw new RangeError('weighted pick from an empty table');
    return last[1];
  }

  /** Shuffles in place (Fisher-Yates) and returns the array. */
  shuffle<T extends Defined>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = items[i];
      const b = items[j];
      if (a === undefined || b === undefined) throw new RangeError(`shuffle: no item ${i} or ${j}`);
      items[i] = b;
      items[j] = a;
    }
    return items;
  }

  /** `count` characters drawn from `alphabet`. */
  chars(alphabet: string, count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += alphabet.charAt(Math.floor(this.next() * alphabet.length));
    return out;
  }

  /** Items ordered by a weighted random key (heavier items tend to come first). */
  weightedOrder<T>(items: readonly T[], weight: (item: T) => number): T[] {
    const keyed = items.map((item) => ({ item, key: -Math.log(1 - this.next()) / weight(item) }));
    keyed.sort((x, y) => x.key - y.key);
    return keyed.map((k) => k.item);
  }
}

/**
 * Ascending, positive, non-contiguous ids, as a real database hands them out:
 * mostly consecutive, with the occasional gap where rows were deleted.
 */
export function idSequence(rng: Rng, start: number, gapRate: number, maxGap: number): () => number {
  let next = start;
  // Even a short list shows a gap: one of its first few ids is always followed by one.
  let untilGap = rng.int(1, 2);
  return () => {
    const id = next;
    next += 1 + (rng.chance(gapRate) || --untilGap === 0 ? rng.int(1, maxGap) : 0);
    return id;
  };
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` for a day counted from 1970-01-01 (UTC). */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day number of a calendar date. */
export function dayOf(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}
