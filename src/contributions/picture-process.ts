// Pictures are decoded and re-encoded in a process of their own at the lowest CPU priority
// (work/niced-process.ts says why), not in the server's. Started at the first upload, ended
// with the server; a picture that takes past its deadline ends the process (the next upload
// starts another) and is refused (the form says so, 503).
import { NicedProcess, nicedCommand } from '../work/niced-process.js';
import type { PictureOutcome } from './pictures.js';

/** A picture of 50 megapixels takes about 2 s here at full load; past this it is given up. */
export const PICTURE_DEADLINE_MS = 60_000;

export class PictureProcess {
  private readonly process: NicedProcess<Uint8Array, PictureOutcome>;

  constructor(deadlineMs = PICTURE_DEADLINE_MS) {
    const fromSources = import.meta.url.endsWith('.ts');
    this.process = new NicedProcess(() => nicedCommand('contributions/picture-child', fromSources), deadlineMs);
  }

  prepare(bytes: Buffer): Promise<PictureOutcome> {
    return this.process.run(bytes);
  }

  close(): Promise<void> {
    return this.process.close();
  }
}
