// The IIIF face wired once per app: its render process and cache, its routes, its pages and
// viewers' files, and the process ended with the app.
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs/promises';
import type { Config } from '../../config.js';
import { RenderCache } from '../../iiif/render-cache.js';
import { IiifRenderer } from '../../iiif/render-process.js';
import type { Site } from '../../pages/site.js';
import type { Gate } from '../../work/gate.js';
import type { ServedStore } from '../../work/reads.js';
import type { AnswerDeps } from '../cache/answers.js';
import { PictureMemo } from './picture-sources.js';
import { registerIiifRoutes } from './routes.js';
import { registerViewerRoutes } from './viewer-routes.js';

/** Renders wait for a turn at most this many DB_TIMEOUT_MS, as other costly work does (work/classes.ts). */
const WAIT_DEADLINES = 5;
/** A render is given up past this: a 100-megapixel picture decodes in about 3 s here. */
export const RENDER_DEADLINE_MS = 30_000;

export async function registerIiif(app: FastifyInstance, deps: AnswerDeps & { store: ServedStore; config: Config; site: Site }): Promise<{ gate: Gate }> {
  const { config } = deps;
  const renderer = new IiifRenderer({ running: config.workPictures, waitMs: config.dbTimeoutMs * WAIT_DEADLINES, deadlineMs: RENDER_DEADLINE_MS });
  app.addHook('onClose', async () => renderer.close());
  const mediaRoot = config.mediaRoot === null ? null : await fs.realpath(config.mediaRoot);
  const memo = new PictureMemo(() => deps.versions.current());
  const iiif = { ...deps, renderer, mediaRoot, memo, renders: new RenderCache(config.iiifCacheMb * 1024 * 1024) };
  registerIiifRoutes(app, iiif);
  await registerViewerRoutes(app, iiif);
  return { gate: renderer.gate };
}
