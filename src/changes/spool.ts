// The records a diff will put, kept aside as text until both files have passed their checks
// (a problem late in the new file refuses the whole diff) and then read back per list in id
// order. The text goes to a byte log, a temporary file for the command line, so memory holds
// only an (id, offset, length) entry per record, whatever the size of the change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ListName } from '../catalogue/lists.js';
import { NumberColumn, orderById } from './columns.js';
import { outOfBounds } from '../invariant.js';

/** Where spooled text is kept: appended once, read back by ranges. */
export interface ByteLog {
  append(bytes: Buffer): void;
  /** Bytes written so far; whatever is buffered is readable. */
  read(offset: number, length: number): Buffer;
  close(): void;
}

/** Reads back as one range when neighbouring records were written one after the other. */
const READ_RUN_BYTES = 1 << 20;

class ListIndex {
  readonly ids = new NumberColumn('f64');
  readonly offsets = new NumberColumn('f64');
  readonly lengths = new NumberColumn('u32');
}

export class PutSpool {
  private readonly lists = new Map<ListName, ListIndex>();
  private written = 0;

  constructor(private readonly log: ByteLog) {}

  add(list: ListName, id: number, text: string): void {
    const bytes = Buffer.from(text);
    const index = this.indexOf(list);
    index.ids.push(id);
    index.offsets.push(this.written);
    index.lengths.push(bytes.length);
    this.log.append(bytes);
    this.written += bytes.length;
  }

  count(list: ListName): number {
    return this.lists.get(list)?.ids.length ?? 0;
  }

  /** The list's texts in id order, read back in runs of neighbours. */
  *texts(list: ListName): Generator<string> {
    const index = this.lists.get(list);
    if (index === undefined) return;
    const order = orderById(index.ids);
    for (let start = 0; start < order.length;) {
      const end = runEnd(index, order, start);
      const first = order[start];
      const last = order[end - 1];
      if (first === undefined || last === undefined) outOfBounds();
      const base = index.offsets.at(first);
      const bytes = this.log.read(base, index.offsets.at(last) + index.lengths.at(last) - base);
      for (let k = start; k < end; k++) {
        const at = order[k];
        if (at === undefined) outOfBounds();
        const from = index.offsets.at(at) - base;
        yield bytes.toString('utf8', from, from + index.lengths.at(at));
      }
      start = end;
    }
  }

  close(): void {
    this.log.close();
  }

  private indexOf(list: ListName): ListIndex {
    let index = this.lists.get(list);
    if (index === undefined) this.lists.set(list, (index = new ListIndex()));
    return index;
  }
}

/** The end of the run from `start`: records adjacent in the log, up to READ_RUN_BYTES. */
function runEnd(index: ListIndex, order: Uint32Array, start: number): number {
  const first = order[start];
  if (first === undefined) outOfBounds();
  const base = index.offsets.at(first);
  let end = start + 1;
  while (end < order.length) {
    const previous = order[end - 1];
    const next = order[end];
    if (previous === undefined || next === undefined) outOfBounds();
    const adjacent = index.offsets.at(next) === index.offsets.at(previous) + index.lengths.at(previous);
    if (!adjacent || index.offsets.at(next) + index.lengths.at(next) - base > READ_RUN_BYTES) break;
    end++;
  }
  return end;
}

/** In memory: small diffs and tests. */
export class MemoryLog implements ByteLog {
  private chunks: Buffer[] = [];
  private whole: Buffer | null = null;

  append(bytes: Buffer): void {
    this.chunks.push(bytes);
    this.whole = null;
  }

  read(offset: number, length: number): Buffer {
    this.whole ??= Buffer.concat(this.chunks);
    this.chunks = [this.whole];
    return this.whole.subarray(offset, offset + length);
  }

  close(): void {
    this.chunks = [];
    this.whole = null;
  }
}

const WRITE_BUFFER_BYTES = 1 << 20;

/** A temporary file in its own folder, removed on close; writes gathered a megabyte at a time. */
export class FileLog implements ByteLog {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heritage-api-diff-'));
  private readonly fd = fs.openSync(path.join(this.dir, 'put.jsonl'), 'w+');
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  append(bytes: Buffer): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= WRITE_BUFFER_BYTES) this.flush();
  }

  read(offset: number, length: number): Buffer {
    this.flush();
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const read = fs.readSync(this.fd, bytes, done, length - done, offset + done);
      if (read === 0) throw new Error('the diff\'s temporary file ended early');
      done += read;
    }
    return bytes;
  }

  close(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    for (let done = 0; done < bytes.length;) done += fs.writeSync(this.fd, bytes, done);
    this.pending = [];
    this.pendingBytes = 0;
  }
}
