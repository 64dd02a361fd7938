// The server's side of IIIF renders: a process of their own at the lowest priority
// (work/niced-process.ts), each render in a turn of its gate (at most WORK_PICTURES at once,
// a short line, the rest refused with 503 busy), a deadline per render that ends the process;
// each picture's size asked once and kept. A source's bytes go to the process only when it
// asks for them (it keeps recent pictures decoded): a file's path, or the store's bytes.
import { Gate } from '../work/gate.js';
import { NicedProcess, nicedCommand } from '../work/niced-process.js';
import type { ImageTransform, PixelSize } from './image-request.js';
import type { PictureSource, RenderJob, RenderReply, SourceProblem } from './render-jobs.js';

/** A picture to render: its key and file, or how its bytes are read from the store. */
export interface SourceRef {
  key: string;
  path?: string;
  bytes?: () => Promise<Buffer | null>;
}

export interface RenderLimits {
  /** Renders at once (WORK_PICTURES). */
  running: number;
  /** The longest a render may wait for its turn. */
  waitMs: number;
  /** The longest one render may take: past it the process is ended and the render refused (503). */
  deadlineMs: number;
}

/** Renders waiting per turn: a viewer asks for a screenful of tiles at once. */
const WAITING_PER_TURN = 16;
/**
 * Past this resident memory once idle, the render process is ended and the next render starts
 * another: its kept sources (256 MB at most, render.ts) and one render's buffers stay under
 * it, what glibc keeps of freed memory does not always.
 */
const RECYCLE_BYTES = 512 * 1024 * 1024;
/** Picture sizes remembered (a few dozen bytes each). */
const SIZES_KEPT = 10_000;

export type Rendered<T> = { ok: true; value: T } | { ok: false; problem: Exclude<SourceProblem, 'needBytes'> };

type Answered = { ok: true; size: PixelSize; bytes?: Uint8Array } | { ok: false; problem: Exclude<SourceProblem, 'needBytes'> };

/** A reply that still asks for bytes after it was sent them is a picture that cannot be read. */
function settled(reply: RenderReply): Answered {
  if (reply.ok) return reply;
  return { ok: false, problem: reply.problem === 'tooLarge' ? 'tooLarge' : 'unreadable' };
}

export class IiifRenderer {
  private readonly process: NicedProcess<RenderJob, RenderReply>;
  readonly gate: Gate;
  private readonly sizes = new Map<string, Promise<Rendered<PixelSize>>>();

  constructor(limits: RenderLimits) {
    const fromSources = import.meta.url.endsWith('.ts');
    this.process = new NicedProcess(() => nicedCommand('iiif/render-child', fromSources), limits.deadlineMs, RECYCLE_BYTES);
    this.gate = new Gate('picture renders', { running: limits.running, waiting: limits.running * WAITING_PER_TURN, waitMs: limits.waitMs });
  }

  /** The picture's upright size, asked of the process once per source (requests at once share the question). */
  size(ref: SourceRef): Promise<Rendered<PixelSize>> {
    let asked = this.sizes.get(ref.key);
    if (asked === undefined) {
      asked = this.ask(ref, (source) => ({ kind: 'size', source })).then((reply) => (reply.ok ? { ok: true, value: reply.size } : reply));
      this.sizes.set(ref.key, asked);
      // A refusal is not kept (a file may be mended); past the bound, the oldest size goes.
      asked.then((answer) => answer.ok || this.sizes.delete(ref.key), () => this.sizes.delete(ref.key));
      const oldest = this.sizes.keys().next();
      if (this.sizes.size > SIZES_KEPT && !oldest.done) this.sizes.delete(oldest.value);
    }
    return asked;
  }

  /** The request's pixels, encoded, in a turn of the gate (StoreBusyError when the line is full). */
  /** `gone`: aborted when the client has gone, which gives up its place in line (a render begun is finished and kept). */
  async render(ref: SourceRef, transform: ImageTransform, gone?: AbortSignal): Promise<Rendered<Buffer>> {
    const release = await this.gate.enter(gone);
    try {
      const reply = await this.ask(ref, (source) => ({ kind: 'render', source, transform }));
      if (!reply.ok) return reply;
      if (reply.bytes === undefined) return { ok: false, problem: 'unreadable' };
      return { ok: true, value: Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength) };
    } finally {
      release();
    }
  }

  close(): Promise<void> {
    return this.process.close();
  }

  /** A job by the source's key (and path); again with the bytes when the process has not kept it. */
  private async ask(ref: SourceRef, job: (source: PictureSource) => RenderJob): Promise<Answered> {
    const first = await this.process.run(job(ref.path === undefined ? { key: ref.key } : { key: ref.key, path: ref.path }));
    if (first.ok || first.problem !== 'needBytes') return settled(first);
    const bytes = ref.bytes === undefined ? null : await ref.bytes();
    if (bytes === null) return { ok: false, problem: 'unreadable' };
    return settled(await this.process.run(job({ key: ref.key, bytes })));
  }

}
