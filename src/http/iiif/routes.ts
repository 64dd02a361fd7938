// The IIIF face (issue 49): the Image API 3.0 for every published picture (info.json, renders,
// the base URI's 303) and the Presentation 3.0 manifests (a building's, a picture's, the
// catalogue's collection and its pages). JSON through the answer cache per catalogue version
// (as JSON-LD with its profile when asked for); renders kept by picture and request
// (render-cache.ts), their ETag known before any pixel is made, so a revalidation costs no
// render. CORS as every shared file has it (protocol/cors.ts); HEAD as Fastify gives it.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import type { Config } from '../../config.js';
import { MAX_PAGE_SIZE } from '../../constants.js';
import { ERRORS, IIIF_ERRORS } from '../../errors.js';
import { canonicalPath, CONTENT_TYPES, readImageRequest, type ImageLimits } from '../../iiif/image-request.js';
import { IMAGE_INFO_JSON_LD, imageInfo } from '../../iiif/info.js';
import { buildingManifest, catalogueCollection, COLLECTION_PAGE_SIZE, collectionPage, IN_COPYRIGHT, PRESENTATION_JSON_LD, pictureManifest, rightsUri, type ManifestBuilding, type ManifestContext, type ManifestPicture } from '../../iiif/manifest.js';
import type { RenderCache } from '../../iiif/render-cache.js';
import { IIIF_PATHS } from '../../pages/paths.js';
import type { Site } from '../../pages/site.js';
import { getReads, listReads } from '../../store/api/api-reads.js';
import { picturedBuildingsRead } from '../../store/iiif/iiif-reads.js';
import type { ImageRow, NestedFeatureRow } from '../../store/store.js';
import { ProcessEndedError } from '../../work/niced-process.js';
import type { ServedStore } from '../../work/reads.js';
import { parseRecordId } from '../api/params.js';
import { cachedBytes, matchesEtag, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { answered, pictureSize, servedPicture, type SourceDeps } from './picture-sources.js';

export interface IiifDeps extends AnswerDeps, SourceDeps {
  store: ServedStore;
  renders: RenderCache;
  site: Site;
}

export function imageLimits(config: Pick<Config, 'iiifMaxArea' | 'iiifMaxSide'>): ImageLimits {
  return { maxWidth: config.iiifMaxSide, maxHeight: config.iiifMaxSide, maxArea: config.iiifMaxArea };
}

const idOf = (text: string) => parseRecordId(text) ?? (() => { throw ERRORS.notFound(); })();

/** JSON-LD with the API's profile when Accept names it or there is no Accept (Image §5.1, Presentation §6.1), else plain JSON. */
const wantsJsonLd = (request: FastifyRequest) => request.headers.accept === undefined || request.headers.accept.includes('application/ld+json');

type Json = Record<string, unknown>;

/**
 * A JSON document of the face through the answer cache, keyed by base URL, path and the type
 * asked for; and by `source`, the key of the bytes it describes, when a file may change under
 * the same catalogue version (a picture's info.json).
 */
async function sendDocument(request: FastifyRequest, reply: FastifyReply, deps: IiifDeps, profile: string, make: () => Promise<{ version: number; body: Json }>, source = '') {
  const jsonLd = wantsJsonLd(request);
  const key = `iiif\n${request.baseUrl}\n${request.url.split('?')[0] ?? ''}\n${jsonLd ? 'ld' : 'json'}\n${source}`;
  const answer = await cachedBytes(deps, key, async () => {
    const { version, body } = await make();
    return { version, bytes: Buffer.from(JSON.stringify(body)), contentType: jsonLd ? profile : 'application/json' };
  });
  return sendAnswer(request, reply.header('vary', 'Accept'), deps, key, answer);
}

export function registerIiifRoutes(app: FastifyInstance, deps: IiifDeps): void {
  const limits = imageLimits(deps.config);
  const context = (request: FastifyRequest): ManifestContext => ({ baseUrl: request.baseUrl, site: deps.site, limits });

  app.get<{ Params: { id: string } }>(IIIF_PATHS.imageService(':id'), async (request, reply) => {
    return reply.code(303).header('location', IIIF_PATHS.imageInfo(idOf(request.params.id))).send();
  });

  app.get<{ Params: { id: string } }>(IIIF_PATHS.imageInfo(':id'), async (request, reply) => {
    const id = idOf(request.params.id);
    // Read first (an index lookup, a stat, a size kept): the document is kept by the bytes it describes.
    const picture = await servedPicture(deps, id);
    return sendDocument(request, reply, deps, IMAGE_INFO_JSON_LD, async () => {
      const rights = picture.row.copyright ? IN_COPYRIGHT : rightsUri(deps.site.licence.url);
      return { version: picture.version, body: imageInfo(`${request.baseUrl}${IIIF_PATHS.imageService(id)}`, picture.size, limits, rights) };
    }, picture.source.key);
  });

  app.get<{ Params: { id: string; region: string; size: string; rotation: string; file: string } }>(
    `${IIIF_PATHS.imageService(':id')}/:region/:size/:rotation/:file`,
    (request, reply) => sendRender(request, reply, deps, limits),
  );

  app.get<{ Params: { id: string } }>(IIIF_PATHS.placeManifest(':id'), (request, reply) => {
    const id = idOf(request.params.id);
    return sendDocument(request, reply, deps, PRESENTATION_JSON_LD, () => placeManifest(deps, context(request), id));
  });

  app.get<{ Params: { id: string } }>(IIIF_PATHS.pictureManifest(':id'), (request, reply) => {
    const id = idOf(request.params.id);
    return sendDocument(request, reply, deps, PRESENTATION_JSON_LD, async () => {
      const picture = await servedPicture(deps, id);
      return { version: picture.version, body: pictureManifest(context(request), buildingOf(picture.row.feature), manifestPicture(picture.row, picture.size)) };
    });
  });

  app.get(IIIF_PATHS.collection, (request, reply) => sendDocument(request, reply, deps, PRESENTATION_JSON_LD, async () => {
    const { version, count } = await deps.store.ask(picturedBuildingsRead, 0, 0);
    return { version, body: catalogueCollection(context(request), count) };
  }));

  app.get<{ Params: { page: string } }>(IIIF_PATHS.collectionPage(':page'), (request, reply) => {
    // The pattern's `:page.json` gives the parameter without `.json`.
    if (!/^[1-9][0-9]{0,6}$/.test(request.params.page)) throw ERRORS.notFound();
    const n = Number(request.params.page);
    return sendDocument(request, reply, deps, PRESENTATION_JSON_LD, async () => {
      const { version, count, rows } = await deps.store.ask(picturedBuildingsRead, (n - 1) * COLLECTION_PAGE_SIZE, COLLECTION_PAGE_SIZE);
      if (rows.length === 0) throw ERRORS.notFound();
      return { version, body: collectionPage(context(request), n, count, rows.map((r) => ({ id: r.id, label: r.name || r.address, address: r.address }))) };
    });
  });
}

function buildingOf(feature: NestedFeatureRow) {
  return { id: feature.id, label: feature[F.name] || feature.address, address: feature.address };
}

function manifestPicture(row: ImageRow, size: ManifestPicture['size']): ManifestPicture {
  return { id: row.id, title: row.title, description: row.description, author: row.author.username, created: row.created, copyright: row.copyright, size };
}

/** A building and its published pictures that can be read, in the record's order: its manifest's canvases (and the comparison page's windows). */
export async function placePictures(deps: IiifDeps, id: number): Promise<{ version: number; building: ManifestBuilding; pictures: ManifestPicture[] }> {
  const [feature, images] = await Promise.all([deps.store.ask(getReads.features, id), deps.store.ask(listReads.images, { page: 1, pageSize: MAX_PAGE_SIZE }, { feature: id })]);
  if (feature.row === null) throw ERRORS.notFound();
  const rows = images.page?.rows ?? [];
  const sizes = await Promise.all(rows.map((row) => pictureSize(deps, row)));
  const pictures = rows.flatMap((row, i) => {
    const size = sizes[i];
    return size == null ? [] : [manifestPicture(row, size)];
  });
  if (pictures.length === 0) throw IIIF_ERRORS.noPictures();
  const f = feature.row;
  return { version: Math.min(feature.version, images.version), building: { id: f.id, label: f[F.name] || f.address, address: f.address }, pictures };
}

/** A building's manifest. */
async function placeManifest(deps: IiifDeps, at: ManifestContext, id: number): Promise<{ version: number; body: Json }> {
  const { version, building, pictures } = await placePictures(deps, id);
  return { version, body: buildingManifest(at, building, pictures) };
}

/**
 * Aborted when the client closes its side of the connection before the answer is sent: a
 * render no one waits for gives up its place in line. Node's server keeps a connection
 * half open after the client's FIN (to write to a client that only shut its side), so the
 * socket's end is what tells it: a viewer cancelling a tile closes the connection so.
 */
function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const socket = request.raw.socket;
  const onEnd = () => {
    if (!reply.raw.writableFinished) gone.abort(ERRORS.badRequest());
  };
  socket.once('end', onEnd);
  socket.once('close', onEnd);
  reply.raw.once('finish', () => {
    socket.off('end', onEnd);
    socket.off('close', onEnd);
  });
  return gone.signal;
}

/** A render: the picture checked public, the request read against its size, then kept or made. */
async function sendRender(request: FastifyRequest<{ Params: { id: string; region: string; size: string; rotation: string; file: string } }>, reply: FastifyReply, deps: IiifDeps, limits: ImageLimits) {
  const { region, size, rotation, file } = request.params;
  const picture = await servedPicture(deps, idOf(request.params.id));
  const parsed = readImageRequest({ region, size, rotation, qualityFormat: file }, picture.size, limits);
  if (!parsed.ok) throw IIIF_ERRORS.invalidImageParameter(parsed.problem.parameter, parsed.problem.problem);
  const key = `${picture.source.key}\n${canonicalPath(parsed.value, picture.size, limits)}`;
  // The same source and request, the same bytes: the tag is known before they are made.
  const etag = `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', deps.config.cacheControl).header('content-type', CONTENT_TYPES[parsed.value.format]);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  let kept = deps.renders.get(key);
  if (kept === undefined) {
    const made = await deps.renderer.render(picture.source, parsed.value, clientGone(request, reply)).catch((error: unknown) => {
      throw error instanceof ProcessEndedError ? IIIF_ERRORS.renderTimedOut() : error;
    });
    kept = { bytes: answered(made), etag };
    deps.renders.set(key, kept);
  }
  return reply.code(200).send(kept.bytes);
}
