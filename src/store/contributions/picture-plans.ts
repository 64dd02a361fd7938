// Contributed pictures in the store (issue 45; account-schema.ts's contribution_pictures),
// as plans for both stores: kept with their contribution in one transaction, public exactly
// while the image record they were approved into is published and names them (a join, so an
// approval, a rejection, an undo, an apply or an import changes what is served in its own
// transaction, and nothing can disagree with it), read by the editors before that.
import { createHash } from 'node:crypto';
import { PICTURE_SIZES, publishedPictureFile, type PictureSize } from '../../contributions/kinds.js';
import type { PreparedPicture } from '../../contributions/pictures.js';
import { selectRows, versionPlan, type Plan } from '../read-plans.js';

export interface StoredPicture {
  bytes: Buffer;
  /** A strong validator of the bytes (a digest: the same bytes, the same tag, on every process). */
  etag: string;
}

/** A public picture as of one catalogue version (what the answer cache keeps it under); null: not public. */
export interface PublicPicture {
  version: number;
  picture: StoredPicture | null;
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

type Flat = Record<string, unknown>;

function toPicture(row: Flat | undefined): StoredPicture | null {
  if (row === undefined || !Buffer.isBuffer(row.bytes) || typeof row.etag !== 'string') return null;
  return { bytes: row.bytes, etag: row.etag };
}

/** Every size of a prepared picture, kept for its contribution (the original is not among them). */
export function* keepPicturePlan(upload: string, contributionId: number, picture: PreparedPicture, now: number): Plan<void> {
  for (const size of PICTURE_SIZES) {
    yield {
      sql: 'INSERT INTO contribution_pictures (upload, size, bytes, etag, created, contribution_id) VALUES ($1, $2, $3, $4, $5, $6)',
      params: [upload, size, picture[size], etagOf(picture[size]), now, contributionId],
    };
  }
}

/** A size of a picture while the record it was published as is published and still shows it. */
export function* publicPicturePlan(upload: string, size: PictureSize): Plan<PublicPicture> {
  const version = yield* versionPlan();
  const rows = yield* selectRows<Flat>({
    sql: `SELECT p.bytes, p.etag FROM contribution_pictures p JOIN images i ON i.id = p.record_id
      WHERE p.upload = $1 AND p.size = $2 AND i.published AND i.file = $3`,
    params: [upload, size, publishedPictureFile(upload)],
  });
  return { version, picture: toPicture(rows[0]) };
}

/** A size of a picture whatever its state: for the editors' review, and for what an approval checks is there. */
export function* keptPicturePlan(upload: string, size: PictureSize): Plan<StoredPicture | null> {
  const rows = yield* selectRows<Flat>({ sql: 'SELECT bytes, etag FROM contribution_pictures WHERE upload = $1 AND size = $2', params: [upload, size] });
  return toPicture(rows[0]);
}

/** Whether the picture's sizes are kept (a contribution sent before issue 45 kept its files on disk instead). */
export function* hasPicturePlan(upload: string): Plan<boolean> {
  const rows = yield* selectRows<Flat>({ sql: 'SELECT count(*) AS n FROM contribution_pictures WHERE upload = $1', params: [upload] });
  return Number(rows[0]?.n ?? 0) > 0;
}

/** The image record a picture was published as (its public URLs answer while that record shows it). */
export function* attachPicturePlan(upload: string, recordId: number): Plan<void> {
  yield { sql: 'UPDATE contribution_pictures SET record_id = $1 WHERE upload = $2', params: [recordId, upload] };
}

/** A rejected picture's every size gone with the decision: nothing of it is kept. */
export function* dropPicturePlan(upload: string): Plan<void> {
  yield { sql: 'DELETE FROM contribution_pictures WHERE upload = $1', params: [upload] };
}
