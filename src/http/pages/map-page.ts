// The map explorer: its page at / and /map/, its bundled assets under /map/assets/ (built by
// scripts/build-web.mjs into dist/web/, content-hashed names cached for a year) and
// /map/config.json, the extent, tiles and legend it opens with; map-data.ts its searches and labels.
import fs from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { renderMapConfig } from '../../render/map-config.js';
import type { ServedStore } from '../../work/reads.js';
import { cachedAnswer, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { ERRORS } from '../../errors.js';
import { sendError } from '../protocol/reply.js';
import { registerMapData } from './map-data.js';
import { WEB_BUILD_DIR } from '../../package-files.js';
import { overviewRead } from '../../store/map/map-reads.js';

export const MAP_PREFIX = '/map/';
const PAGE_PATHS = ['/', MAP_PREFIX];

export interface MapPageDeps extends AnswerDeps {
  store: ServedStore;
  config: Config;
  /** Where the built page lives; WEB_BUILD_DIR by default. */
  webDir?: string;
}

export async function registerMapPage(app: FastifyInstance, deps: MapPageDeps): Promise<void> {
  const webDir = deps.webDir ?? WEB_BUILD_DIR;
  const page = pageReader(`${webDir}/index.html`);
  const headers = pageHeaders(deps.config);
  for (const path of PAGE_PATHS) {
    app.get(path, async (request, reply) => {
      const html = page();
      if (html === null) return sendError(reply, ERRORS.mapPageNotBuilt());
      return reply.headers(headers).type('text/html; charset=utf-8').send(html.replaceAll('%BASE_PATH%', basePath(deps.config)));
    });
  }
  registerMapData(app, deps);
  app.get('/map', async (_request, reply) => reply.code(301).header('location', MAP_PREFIX).send());
  app.get(`${MAP_PREFIX}config.json`, async (request, reply) => {
    const baseUrl = request.baseUrl;
    const key = `${baseUrl}\n${MAP_PREFIX}config.json`;
    const answer = await cachedAnswer(deps, key, async () => {
      const overview = await deps.store.ask(overviewRead);
      return { version: overview.version, body: renderMapConfig(overview, baseUrl, deps.config.basemapUrl) };
    });
    return sendAnswer(request, reply, deps, key, answer);
  });
  if (fs.existsSync(`${webDir}/assets`)) await app.register((assets) => registerHashedAssets(assets, `${webDir}/assets`, `${MAP_PREFIX}assets/`, deps.config.compress));
}

/** Built files of content-hashed names (the map's, the IIIF viewers'), in a context of their own: its hook runs for their answers only. */
export async function registerHashedAssets(app: FastifyInstance, root: string, prefix: string, compress: boolean): Promise<void> {
  // @fastify/static does not say that the body depends on Accept-Encoding; a shared cache must know.
  if (compress) {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('vary', reply.hasHeader('vary') ? `${String(reply.getHeader('vary'))}, Accept-Encoding` : 'Accept-Encoding');
      return payload;
    });
  }
  await app.register(fastifyStatic, {
    root, prefix, decorateReply: false, index: false, list: false,
    // Every file name carries a hash of its content.
    immutable: true, maxAge: '365d',
    // The .br and .gz files the build writes beside each asset (scripts/build-web.mjs), chosen by Accept-Encoding.
    preCompressed: compress,
  });
}

/** The page's HTML, read once it exists (the bundle may be built after the server starts). */
function pageReader(file: string): () => string | null {
  let html: string | null = null;
  return () => {
    if (html === null && fs.existsSync(file)) html = fs.readFileSync(file, 'utf8');
    return html;
  };
}

/** The path part of BASE_URL ('' without it): the page's URLs when served under a prefix. */
function basePath(config: Config): string {
  return config.baseUrl === null ? '' : new URL(config.baseUrl).pathname.replace(/\/+$/, '');
}

/** Scripts only from this server, so even markup that slipped through sanitising cannot run. */
function pageHeaders(config: Config): Record<string, string> {
  const basemap = config.basemapUrl === null ? '' : ` https: ${new URL(config.basemapUrl).origin}`;
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${basemap}`,
    `connect-src 'self'${basemap}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
  return { 'cache-control': 'no-cache', 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };
}

