// The IIIF face's pages and the viewers' files: /iiif/viewer/{file}, the built viewers
// (scripts/build-web.mjs: the picture page's deep zoom, the comparison page's Mirador) under
// content-hashed names, kept a year; and /iiif/places/{id}/compare/, a building's
// pictures side by side in Mirador (404 for an unknown building or one with no picture to
// show), cached per catalogue version as every page is, with a policy of its own.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../errors.js';
import { COMPARE_PAGE_HEADERS, CONTENT_TYPE_HTML } from '../../pages/headers.js';
import { IIIF_PATHS } from '../../pages/paths.js';
import { WEB_BUILD_DIR } from '../../package-files.js';
import { htmlCompare } from '../../render/site/compare.js';
import { VIEWER_FOLDER } from '../../render/site/viewer-assets.js';
import { parseRecordId } from '../api/params.js';
import { cachedBytes, sendAnswer } from '../cache/answers.js';
import { registerHashedAssets } from '../pages/map-page.js';
import { placePictures, type IiifDeps } from './routes.js';

export async function registerViewerRoutes(app: FastifyInstance, deps: IiifDeps, webDir: string = WEB_BUILD_DIR): Promise<void> {
  const built = path.join(webDir, VIEWER_FOLDER);
  if (fs.existsSync(built)) await app.register((assets) => registerHashedAssets(assets, built, IIIF_PATHS.viewerAsset(''), deps.config.compress));
  const compare = IIIF_PATHS.compare(':id');
  app.get<{ Params: { id: string } }>(compare, async (request, reply) => {
    const id = parseRecordId(request.params.id);
    if (id === null) throw ERRORS.notFound();
    const key = `iiif\n${request.baseUrl}\n${IIIF_PATHS.compare(id)}`;
    const answer = await cachedBytes(deps, key, async () => {
      const { version, building, pictures } = await placePictures(deps, id);
      const html = htmlCompare({ baseUrl: request.baseUrl, site: deps.site }, building, pictures);
      return { version, bytes: Buffer.from(html), contentType: CONTENT_TYPE_HTML };
    });
    return sendAnswer(request, reply.headers(COMPARE_PAGE_HEADERS), deps, key, answer);
  });
  // Without its slash: the page's one URL.
  app.get<{ Params: { id: string } }>(compare.slice(0, -1), async (request, reply) => {
    const id = parseRecordId(request.params.id);
    if (id === null) throw ERRORS.notFound();
    return reply.code(301).header('location', IIIF_PATHS.compare(id)).send();
  });
}
