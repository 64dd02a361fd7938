// What the server asks of the IIIF render process and what it answers (render-process.ts
// sends, render-child.ts answers): a picture's size, or a request's pixels encoded. Each
// names its source by a key that changes when its bytes do; the process keeps recent
// sources decoded, so the bytes (or the file's path) go with a job only when it asks.
import type { ImageTransform, PixelSize } from './image-request.js';

/** A picture's bytes: a file of the media root (read by the process), or bytes from the store. */
export interface PictureSource {
  /** Changes with the bytes: the file's path, size and time, or a contributed picture's upload (never reused). */
  key: string;
  path?: string;
  bytes?: Uint8Array;
}

export type RenderJob =
  | { kind: 'size'; source: PictureSource }
  | { kind: 'render'; source: PictureSource; transform: ImageTransform };

/** Why a picture cannot be served. */
export type SourceProblem = 'needBytes' | 'unreadable' | 'tooLarge';

export type RenderReply =
  | { ok: true; size: PixelSize; bytes?: Uint8Array }
  | { ok: false; problem: SourceProblem };
