// `--media DIR`: every image file and category thumbnail into DIR at its media-root path,
// so `serve --media-root DIR` serves the mirror completely. A file already there with the
// size the server announces is kept; a file the server no longer has is reported, not fatal
// (old servers often miss a few uploads, and the catalogue is still worth having).
import fs from 'node:fs';
import path from 'node:path';
import { HttpStatusError, type HarvestClient } from './client.js';
import { HarvestError } from './errors.js';

export interface MediaOutcome {
  downloaded: number;
  kept: number;
  bytes: number;
  /** Media-root paths the server answered 404 or 410 for. */
  missing: string[];
}

export async function mirrorMedia(client: HarvestClient, dir: string, files: ReadonlyMap<string, string>, progressed: (done: number, total: number) => void): Promise<MediaOutcome> {
  const outcome: MediaOutcome = { downloaded: 0, kept: 0, bytes: 0, missing: [] };
  let done = 0;
  const tasks = [...files].map(async ([mediaPath, url]) => {
    await mirrorFile(client, fileInside(dir, mediaPath), mediaPath, url, outcome);
    progressed(++done, files.size);
  });
  await Promise.all(tasks);
  outcome.missing.sort();
  return outcome;
}

async function mirrorFile(client: HarvestClient, target: string, mediaPath: string, url: string, outcome: MediaOutcome): Promise<void> {
  try {
    if (await sameSizeThere(client, target, url)) {
      outcome.kept++;
      return;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const size = await client.download(url, target); // read before adding: `+= await` would add to a stale total
    outcome.bytes += size;
    outcome.downloaded++;
  } catch (error) {
    if (error instanceof HttpStatusError && (error.status === 404 || error.status === 410)) outcome.missing.push(mediaPath);
    else throw error;
  }
}

/** Only a file already there costs a HEAD request; a missing one is fetched straight away. */
async function sameSizeThere(client: HarvestClient, target: string, url: string): Promise<boolean> {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return false;
  return (await client.remoteSize(url)) === stat.size;
}

/** The validator already refused `..` and absolute paths; this keeps the promise locally too. */
function fileInside(dir: string, mediaPath: string): string {
  const root = path.resolve(dir);
  const target = path.resolve(root, ...mediaPath.split('/'));
  if (!target.startsWith(root + path.sep)) throw new HarvestError(`the media path ${mediaPath} points outside ${dir}.`);
  return target;
}
