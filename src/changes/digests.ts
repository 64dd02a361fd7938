// The old catalogue, kept small while the new one streams past: per list, each record's id
// and a 64-bit digest of its normalised JSON text (16 bytes a record). A new record is only
// ever compared with the old record of its own id, so a changed record is taken as the same
// with a chance of 2^-64 (about 5·10^-14 over a million changed records).
import crypto from 'node:crypto';
import { NumberColumn, orderById } from './columns.js';
import { outOfBounds } from '../invariant.js';

/** What a new record is, against the old catalogue. */
export type Match = 'added' | 'same' | 'changed';

interface Sealed {
  ids: Float64Array;
  high: Uint32Array;
  low: Uint32Array;
  seen: Uint8Array;
}

export function digestOf(text: string): Buffer {
  return crypto.createHash('sha1').update(text).digest();
}

/** One list's old records: filled with `add`, then `seal`ed for `match` and `unseen`. */
export class DigestTable {
  private readonly ids = new NumberColumn('f64');
  private readonly high = new NumberColumn('u32');
  private readonly low = new NumberColumn('u32');
  private sealed: Sealed | null = null;

  add(id: number, digest: Buffer): void {
    this.ids.push(id);
    this.high.push(digest.readUInt32BE(0));
    this.low.push(digest.readUInt32BE(4));
  }

  /** Sorted by id for lookups; the columns are copied once, in order. */
  seal(): void {
    const order = orderById(this.ids);
    const take = <T extends Float64Array | Uint32Array>(into: T, column: NumberColumn) => {
      order.forEach((from, to) => (into[to] = column.at(from)));
      return into;
    };
    const n = order.length;
    this.sealed = { ids: take(new Float64Array(n), this.ids), high: take(new Uint32Array(n), this.high), low: take(new Uint32Array(n), this.low), seen: new Uint8Array(n) };
  }

  /** The new record with this id and digest, against the old one (which is marked as seen). */
  match(id: number, digest: Buffer): Match {
    const table = this.table();
    const at = findId(table.ids, id);
    if (at === -1) return 'added';
    table.seen[at] = 1;
    return table.high[at] === digest.readUInt32BE(0) && table.low[at] === digest.readUInt32BE(4) ? 'same' : 'changed';
  }

  /** The old ids no new record matched, in id order: the records removed. */
  *unseen(): Generator<number> {
    const { ids, seen } = this.table();
    for (let i = 0; i < ids.length; i++) {
      if (seen[i] !== 0) continue;
      const id = ids[i];
      if (id === undefined) outOfBounds();
      yield id;
    }
  }

  private table(): Sealed {
    if (this.sealed === null) throw new Error('DigestTable used before seal()');
    return this.sealed;
  }
}

/** Binary search in ids sorted ascending; -1 when absent. */
function findId(ids: Float64Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle];
    if (value === undefined) outOfBounds();
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
