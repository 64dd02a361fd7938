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
}

export interface ServedPicture {
  version: number;
  row: ImageRow;
  source: SourceRef;
  size: PixelSize;
}

/** A published picture, its source and its size, or the refusal (404) a client reads. */
export async function servedPicture(deps: SourceDeps, id: number): Promise<ServedPicture> {
  const { version, row } = await deps.store.ask(getReads.images, id);
  if (row === null) throw ERRORS.notFound();
  const source = await sourceOf(deps, row.file);
  if (source === null) throw IIIF_ERRORS.pictureUnreadable();
  const size = answered(await deps.renderer.size(source));
  return { version, row, source, size };
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
