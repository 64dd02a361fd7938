// A streamed job made in a worker thread (a download), as a readable body: the first part
// is its head (a download's version and count), then chunks of bytes, each asked for only
// when the body has room for it, so a client that reads slowly holds one chunk in this
// process, not the whole file.
import { Readable } from 'node:stream';
import type { WorkerLane } from './pool.js';
import { crossed, type JobCall } from './protocol.js';

export interface WorkerStream<H> {
  readonly head: H;
  readonly body: Readable;
}

export function startStream<H>(lane: WorkerLane, call: JobCall, deadlineMs: number): Promise<WorkerStream<H>> {
  return new Promise((resolve, reject) => {
    let body: Readable | null = null;
    let finished = false;
    const parts = lane.stream(call, deadlineMs, (part) => {
      if (body !== null) {
        if (part instanceof Uint8Array) body.push(Buffer.from(part));
        else body.destroy(new Error('a streamed job sent a part that is not bytes after its head'));
        return;
      }
      body = new Readable({
        highWaterMark: 64 * 1024,
        read: () => parts.more(),
        destroy: (error, callback) => {
          if (!finished) parts.stop();
          callback(error);
        },
      });
      resolve({ head: crossed<H>(part), body });
    });
    parts.done.then(
      () => {
        finished = true;
        body?.push(null);
      },
      (error: Error) => {
        finished = true;
        if (body === null) reject(error);
        else body.destroy(error);
      },
    );
  });
}
