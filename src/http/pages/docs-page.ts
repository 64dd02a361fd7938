// GET /api/docs/ and /ogc/docs/: an OpenAPI document as a readable reference, rendered in the browser by
// swagger-ui-dist, whose files are served from node_modules by this server: no CDN, no
// font or validator requests, so it works with no internet (the CSP forbids anything else).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../config.js';

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

/** The page's script: `documentUrl` relative to the page (`../v1/openapi.json`). */
const init = (documentUrl: string) => `window.ui = SwaggerUIBundle({
  url: '${documentUrl}',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  filter: true,
  defaultModelsExpandDepth: 0,
  validatorUrl: null,
  queryConfigEnabled: false,
});
`;

export type DocsAssets = (name: string) => Promise<Buffer>;

/**
 * The page at `prefix` (`/api/docs/`) showing the document at `documentPath`, which lies in
 * the prefix's parent folder (`/api/v1/openapi.json`), so the page finds it by a relative URL.
 */
export function registerDocsPage(app: FastifyInstance, config: Pick<Config, 'cacheControl'>, prefix: string, documentPath: string, assets: DocsAssets): void {
  const parent = prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1);
  if (!documentPath.startsWith(parent)) throw new Error(`${documentPath} is not beside ${prefix}`);
  const script = init(`../${documentPath.slice(parent.length)}`);
  const send = (reply: FastifyReply, type: string, body: string | Buffer) =>
    reply.header('content-security-policy', CSP).header('cache-control', config.cacheControl).type(type).send(body);
  app.get(prefix.slice(0, -1), async (_request, reply) => reply.code(301).header('location', prefix).send());
  app.get(prefix, async (_request, reply) => send(reply, 'text/html; charset=utf-8', PAGE));
  app.get(`${prefix}init.js`, async (_request, reply) => send(reply, 'text/javascript; charset=utf-8', script));
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`${prefix}${name}`, async (_request, reply) => send(reply, type, await assets(name)));
  }
}

/** swagger-ui-dist's files, read when first asked for and kept (about 2 MB), shared by the pages. */
export function docsAssets(): DocsAssets {
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
