// The upload crowd's senders (upload-crowd.ts), in a worker thread at the lowest priority as
// the isolation test's attackers are (isolation-attackers.ts): signed-in contributors, each
// sending the costliest picture the site takes, again and again (a refusal not waited out),
// until the window ends; every upload's outcome is tallied by kind and posted back.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../../src/work/thread-priority.js';
import type { Tally } from './isolation-attackers.js';

lowerThisThread();

export interface Uploader {
  kind: string;
  /** The contributor's session, as a Cookie header. */
  cookie: string;
  /** The whole multipart form (its csrf, fields and file) and its Content-Type. */
  body: Uint8Array;
  contentType: string;
}

export interface UploadPlan {
  origin: string;
  /** The form's target, /contribute/{featureId}/image. */
  path: string;
  windowMs: number;
  /** An upload without its status this long after it was sent is a hang. */
  hangMs: number;
  uploaders: Uploader[];
}

/** One upload: its status, or why there was none. */
function send(plan: UploadPlan, uploader: Uploader): Promise<string> {
  const { hostname, port } = new URL(plan.origin);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(hang);
      resolve(outcome);
    };
    const headers = { cookie: uploader.cookie, 'content-type': uploader.contentType, 'content-length': String(uploader.body.byteLength) };
    const req = http.request({ host: hostname, port, path: plan.path, method: 'POST', headers, agent: false }, (res) => {
      settle(String(res.statusCode));
      res.resume();
    });
    const hang = setTimeout(() => {
      settle('hang');
      req.destroy();
    }, plan.hangMs);
    // A refusal may close the connection while the body is still going out: the status came first.
    req.on('error', (error: NodeJS.ErrnoException) => settle(`error ${error.code ?? error.message}`));
    req.end(uploader.body);
  });
}

export async function uploadAttack(plan: UploadPlan): Promise<Tally> {
  const tally: Tally = {};
  const ends = Date.now() + plan.windowMs;
  await Promise.all(plan.uploaders.map(async (uploader) => {
    while (Date.now() < ends) {
      const outcome = await send(plan, uploader);
      const byOutcome = (tally[uploader.kind] ??= {});
      byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
    }
  }));
  return tally;
}

if (parentPort !== null && (workerData as { uploadAttack?: UploadPlan } | null)?.uploadAttack) {
  const port = parentPort;
  port.postMessage('started');
  void uploadAttack((workerData as { uploadAttack: UploadPlan }).uploadAttack).then((tally) => port.postMessage(tally));
}
