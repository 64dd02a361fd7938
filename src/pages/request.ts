// Where a request's page is made: its base URL and the site's texts, which buildApp sets on
// the app (settings SITE_*).
import type { FastifyRequest } from 'fastify';
import type { PageAt } from './shell.js';
import type { Site } from './site.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the pages say of the catalogue (settings SITE_*), set by buildApp. */
    site: Site;
  }
}

export const pageAt = (request: FastifyRequest): PageAt => ({ baseUrl: request.baseUrl, site: request.server.site });
