// A contributed picture as /media/ serves it, as the executor runs it (src/work/reads.ts).
import type { PictureSize } from '../../contributions/kinds.js';
import type { ReadDeclaration } from '../../work/reads.js';
import { publicPicturePlan, type PublicPicture } from './picture-plans.js';

/** A contributed picture's size while it is public, from one catalogue version: an index lookup of one row, inline, like a record's detail. */
export const publicPictureRead: ReadDeclaration<[upload: string, size: PictureSize], PublicPicture> = {
  name: 'publicPicture',
  plan: (_dialect, upload, size) => publicPicturePlan(upload, size),
  workClass: () => null,
};
