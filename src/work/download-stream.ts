// A download made in a worker thread, as a readable body: the first part is its head
// (version, count), then chunks, each asked for only when the body has room for it, so a
// client that reads slowly holds one chunk in this process, not the whole file.
import { Readable } from 'node:stream';
import type { WorkerLane } from './pool.js';
import type { DownloadCall, DownloadHead } from './protocol.js';

export interface WorkerDownload extends DownloadHead {
  readonly body: Readable;
}

export function startDownload(lane: WorkerLane, call: DownloadCall, deadlineMs: number): Promise<WorkerDownload> {
  return new Promise((resolve, reject) => {
    let body: Readable | null = null;
    let finished = false;
    const parts = lane.stream(call, deadlineMs, (part) => {
      if (body !== null) {
        body.push(Buffer.from(part as Uint8Array));
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
      resolve({ ...(part as DownloadHead), body });
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
