// Which bytes a picture's image service serves: an image record's `file`, published, as
// /media/ serves it: a contributed picture's archive copy (its full size) from the store, or
// a file of the media root (the same rules as /media/: nothing outside it, no dotfiles). The
// source's key changes with its bytes (a file's size and time; an upload is never reused),
// so what is rendered from it is kept by it (iiif/render-cache.ts).
import fs from 'node:fs/promises';
import { IIIF_ERRORS } from '../../errors.js';
import { ERRORS } from '../../errors.js';
import type { PixelSize } from '../../iiif/image-request.js';
import type { IiifRenderer, Rendered, SourceRef } from '../../iiif/render-process.js';
import type { ImageRow } from '../../store/store.js';
import { getReads } from '../../store/api/api-reads.js';
import { publicPictureRead } from '../../store/contributions/picture-reads.js';
import type { ServedStore } from '../../work/reads.js';
import { CONTRIBUTED_FOLDER, contributedPicture } from '../files/contributed-pictures.js';
import { mediaFileInside } from '../files/media.js';

export interface SourceDeps {
  store: Pick<ServedStore, 'ask'>;
  /** The media root, its real path; null without one. */
  mediaRoot: string | null;
  renderer: IiifRenderer;
  /** Pictures found lately (`PictureMemo`); without it each request reads its record and its file anew. */
  memo?: PictureMemo;
}

/**
 * How long a picture found stays found: its record as of the catalogue version it was read
 * at, its file as of at most this long ago (a file replaced under the same version is seen
 * within it). A viewer's tiles then cost no record read and no file system call each.
 */
const FOUND_MS = 1000;
const FOUND_KEPT = 10_000;

export class PictureMemo {
  private readonly found = new Map<number, { at: number; picture: ServedPicture }>();

  constructor(private readonly currentVersion: () => number | null) {}

  /** The picture found for this id at the current version within FOUND_MS, or undefined. */
  get(id: number): ServedPicture | undefined {
    const entry = this.found.get(id);
    if (entry === undefined) return undefined;
    if (entry.picture.version !== this.currentVersion() || performance.now() - entry.at > FOUND_MS) {
      this.found.delete(id);
      return undefined;
    }
    return entry.picture;
  }

  set(id: number, picture: ServedPicture): void {
    this.found.delete(id);
    this.found.set(id, { at: performance.now(), picture });
    const oldest = this.found.keys().next();
    if (this.found.size > FOUND_KEPT && !oldest.done) this.found.delete(oldest.value);
  }
}

export interface ServedPicture {
  version: number;
  row: ImageRow;
  source: SourceRef;
  size: PixelSize;
}

/** A published picture, its source and its size, or the refusal (404) a client reads. */
export async function servedPicture(deps: SourceDeps, id: number): Promise<ServedPicture> {
  const known = deps.memo?.get(id);
  if (known !== undefined) return known;
  const { version, row } = await deps.store.ask(getReads.images, id);
  if (row === null) throw ERRORS.notFound();
  const source = await sourceOf(deps, row.file);
  if (source === null) throw IIIF_ERRORS.pictureUnreadable();
  const size = answered(await deps.renderer.size(source));
  const picture = { version, row, source, size };
  deps.memo?.set(id, picture);
  return picture;
}

/** The picture's size, or null when it cannot be served (a building's manifest leaves it out). */
export async function pictureSize(deps: SourceDeps, row: ImageRow): Promise<PixelSize | null> {
  const source = await sourceOf(deps, row.file);
  if (source === null) return null;
  const sized = await deps.renderer.size(source);
  return sized.ok ? sized.value : null;
}

export function answered<T>(rendered: Rendered<T>): T {
  if (rendered.ok) return rendered.value;
  throw rendered.problem === 'tooLarge' ? IIIF_ERRORS.pictureTooLarge() : IIIF_ERRORS.pictureUnreadable();
}

async function sourceOf(deps: SourceDeps, file: string): Promise<SourceRef | null> {
  const named = file.startsWith(CONTRIBUTED_FOLDER) ? contributedPicture(file.slice(CONTRIBUTED_FOLDER.length)) : null;
  const onDisk = deps.mediaRoot === null ? null : await mediaFileInside(deps.mediaRoot, file);
  if (named !== null) {
    // From the store; a picture approved before issue 45 from the media root's own folder.
    const bytes = async () => (await deps.store.ask(publicPictureRead, named.upload, 'full')).picture?.bytes ?? (onDisk === null ? null : fs.readFile(onDisk));
    return { key: `upload:${named.upload}`, bytes };
  }
  if (onDisk === null) return null;
  const stat = await fs.stat(onDisk).catch(() => null);
  return stat === null ? null : { key: `file:${onDisk}:${stat.size}:${stat.mtimeMs}`, path: onDisk };
}
