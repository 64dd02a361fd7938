// GET /api/docs/: the OpenAPI document as a readable reference, rendered in the browser by
// swagger-ui-dist, whose files are served from node_modules by this server: no CDN, no
// font or validator requests, so it works with no internet (the CSP forbids anything else).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { DOCS_PREFIX, OPENAPI_PATH } from '../../constants.js';

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Relative URLs throughout, so the page works under a BASE_URL path prefix too.
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>heritage-api: API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="swagger-ui.css">
<link rel="icon" type="image/png" href="favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '..${OPENAPI_PATH.slice('/api'.length)}',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  filter: true,
  defaultModelsExpandDepth: 0,
  validatorUrl: null,
  queryConfigEnabled: false,
});
`;

export function registerDocsPage(app: FastifyInstance, config: Pick<Config, 'cacheControl'>): void {
  const assets = assetReader();
  const send = (reply: FastifyReply, type: string, body: string | Buffer) =>
    reply.header('content-security-policy', CSP).header('cache-control', config.cacheControl).type(type).send(body);
  app.get(DOCS_PREFIX.slice(0, -1), async (_request, reply) => reply.code(301).header('location', DOCS_PREFIX).send());
  app.get(DOCS_PREFIX, async (_request, reply) => send(reply, 'text/html; charset=utf-8', PAGE));
  app.get(`${DOCS_PREFIX}init.js`, async (_request, reply) => send(reply, 'text/javascript; charset=utf-8', INIT));
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`${DOCS_PREFIX}${name}`, async (_request, reply) => send(reply, type, await assets(name)));
  }
}

/** swagger-ui-dist's files, read when first asked for and kept (about 2 MB). */
function assetReader(): (name: string) => Promise<Buffer> {
  const files = new Map<string, Promise<Buffer>>();
  return (name) => {
    let file = files.get(name);
    if (file === undefined) {
      file = readFile(path.join(SWAGGER_UI_DIR, name));
      files.set(name, file);
    }
    return file;
  };
}
