// /media/contributions/{upload}.jpg (the display size, what an image record's `file` names)
// and {upload}-small.jpg (its thumbnail): contributed pictures from the store (issue 45), so
// that every process, host and replica serves the same ones with no shared folder, each
// public exactly while its record is published (store/picture-plans.ts). An index lookup of
// one row, kept in the answer cache per catalogue version like any answer; a name never
// reused (a UUID) and a digest for its ETag, so browsers and proxies may keep it long.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MEDIA_PREFIX } from '../../constants.js';
import type { PictureSize } from '../../contributions/kinds.js';
import { ERRORS } from '../../errors.js';
import type { CatalogueReader } from '../../store/store.js';
import type { Answer } from '../cache/answer-cache.js';
import { cachedBytes, matchesEtag, type AnswerDeps } from '../cache/answers.js';
import { MEDIA_CSP } from './media.js';

/** The folder of /media/ the store answers for (a media root's own `contributions/` is not read there, but for pictures sent before issue 45). */
export const CONTRIBUTED_FOLDER = 'contributions/';

/**
 * A day: a picture undone or unpublished leaves caches within it (the server answers 404 at
 * once); `immutable`, since its bytes never change under its name, spares revalidations.
 */
export const PICTURE_CACHE_CONTROL = 'public, max-age=86400, immutable';

const NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(-small)?\.jpg$/;

/** The upload and size a public file name is, or null. */
export function contributedPicture(file: string): { upload: string; size: PictureSize } | null {
  const [, upload, small] = NAME.exec(file) ?? [];
  return upload === undefined ? null : { upload, size: small === undefined ? 'display' : 'thumbnail' };
}

export interface PictureDeps extends AnswerDeps {
  store: Pick<CatalogueReader, 'picture'>;
  /** A picture approved before issue 45, from the media root's own folder (media.ts), when there is one. */
  fromMediaRoot: ((reply: FastifyReply, relative: string) => Promise<FastifyReply>) | null;
}

export function registerContributedPictures(app: FastifyInstance, deps: PictureDeps): void {
  app.get<{ Params: { file: string } }>(`${MEDIA_PREFIX}${CONTRIBUTED_FOLDER}:file`, async (request, reply) => {
    const { file } = request.params;
    const named = contributedPicture(file);
    const answer = named === null ? null : await cachedPicture(deps, named.upload, named.size);
    if (answer === null || answer.body.length === 0) {
      if (deps.fromMediaRoot !== null && named !== null) return deps.fromMediaRoot(reply, `${CONTRIBUTED_FOLDER}${file}`);
      throw ERRORS.notFound();
    }
    reply.header('etag', answer.etag).header('cache-control', PICTURE_CACHE_CONTROL).header('content-security-policy', MEDIA_CSP).type(answer.contentType);
    if (matchesEtag(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
    return reply.code(200).send(answer.body);
  });
}

/** The picture at the current version from the cache, else read (empty bytes: not public then); its tag is its bytes' digest, the same on every process and version. */
function cachedPicture(deps: PictureDeps, upload: string, size: PictureSize): Promise<Answer> {
  return cachedBytes(deps, `picture\n${upload}\n${size}`, async () => {
    const { version, picture } = await deps.store.picture(upload, size);
    return { version, bytes: picture?.bytes ?? Buffer.alloc(0), contentType: 'image/jpeg', etag: picture?.etag };
  });
}
