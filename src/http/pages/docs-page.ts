// GET /api/docs/ and /ogc/docs/: an OpenAPI document as a readable reference, rendered in the browser by
// swagger-ui-dist, whose files are served from node_modules by this server: no CDN, no
// font or validator requests, so it works with no internet (the CSP forbids anything else).
// Swagger UI is made accessible here rather than forked: our style sheet after its own
// (contrast to WCAG AA, nothing wider than a phone), and the page's script, as Swagger UI
// renders: names what it leaves unnamed (its selects, the filter box, regions outside its
// main landmark), sets the headings' levels in order, and takes the href off the deep link
// inside each operation's button (a link in a button is nested interaction).
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
const page = (title: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${title}: every path, parameter, answer and error, with requests to try.">
<link rel="stylesheet" href="swagger-ui.css">
<link rel="stylesheet" href="accessible.css">
<link rel="icon" type="image/png" href="favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="init.js"></script>
</body>
</html>
`;

/** Swagger UI's colours darkened to WCAG AA contrast (4.5:1 for text), and its layout kept within a 390 px screen. */
const ACCESSIBLE_CSS = `.swagger-ui .opblock .opblock-summary-method{color:#fff;text-shadow:none}
.swagger-ui .opblock.opblock-get .opblock-summary-method{background:#1d5f9e}
.swagger-ui .opblock.opblock-head .opblock-summary-method{background:#6a0dbf}
.swagger-ui .opblock.opblock-options .opblock-summary-method{background:#0d4f91}
.swagger-ui .opblock.opblock-post .opblock-summary-method{background:#1e7a4f}
.swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#b3261e}
.swagger-ui .opblock.opblock-put .opblock-summary-method,.swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#8a4b00}
.swagger-ui .info .title small{background:#4d5a66}.swagger-ui .info .title small.version-stamp{background:#3d6b00}
.swagger-ui .info .title small pre{color:#fff}
.swagger-ui .opblock-tag small,.swagger-ui .opblock .opblock-summary-description,.swagger-ui .parameter__in,.swagger-ui .parameter__type,.swagger-ui .prop-format,.swagger-ui .model .property,.swagger-ui .response-col_links,.swagger-ui table thead tr td,.swagger-ui table thead tr th,.swagger-ui .model-title,.swagger-ui .model,.swagger-ui .renderedMarkdown p,.swagger-ui .parameter__name,.swagger-ui .response-col_status{color:#1b1f24}
.swagger-ui .parameter__name.required span,.swagger-ui .parameter__name.required:after{color:#a3141b}
.swagger-ui .opblock-tag,.swagger-ui .opblock .opblock-summary-path,.swagger-ui .opblock .opblock-summary-path__deprecated{color:#1b1f24}
.swagger-ui a.nostyle,.swagger-ui .info a,.swagger-ui .renderedMarkdown a{color:#0b57a4}
.swagger-ui .model-toggle:after{opacity:1}
.swagger-ui .filter-container .operation-filter-input{border-color:#6b7480}
.swagger-ui .wrapper{padding:0 12px;max-width:100%;box-sizing:border-box}
.swagger-ui .opblock .opblock-summary{flex-wrap:wrap}
.swagger-ui .opblock .opblock-summary-path{word-break:break-all;max-width:100%;flex-shrink:1}
.swagger-ui .opblock-tag{flex-wrap:wrap;word-break:break-word}
.swagger-ui .info{margin:24px 0}.swagger-ui .info .title{word-break:break-word}
.swagger-ui .renderedMarkdown,.swagger-ui .markdown{overflow-wrap:anywhere}
.swagger-ui .renderedMarkdown table,.swagger-ui .markdown table{display:block;overflow-x:auto;max-width:100%}
.swagger-ui .scheme-container{padding:12px 0}.swagger-ui .scheme-container .schemes{flex-wrap:wrap}
.swagger-ui section.models{overflow-x:auto}
@media (max-width:600px){.swagger-ui .opblock .opblock-summary-method{min-width:64px}.swagger-ui .info .title{font-size:28px}}
`;

/** The page's script: `documentUrl` relative to the page (`../v1/openapi.json`). */
const init = (documentUrl: string) => `// Names what Swagger UI leaves unnamed, as it renders it: each select by the words before it, the filter box.
function nameControls(root) {
  for (const select of root.querySelectorAll('select:not([aria-label]):not([aria-labelledby])')) {
    const near = select.closest('label, div, td, section');
    const words = near && near.textContent.replace(select.textContent, '').trim().slice(0, 60);
    select.setAttribute('aria-label', words || 'Choose');
  }
  for (const input of root.querySelectorAll('input.operation-filter-input:not([aria-label])')) input.setAttribute('aria-label', 'Filter the operations by tag');
  // A deep link's anchor inside an operation's button is a control in a control: the button alone
  // opens it (and the deep-linking plugin still writes the URL's fragment).
  for (const a of root.querySelectorAll('.opblock-summary-control a[href], button a[href]')) a.removeAttribute('href');
  // Everything outside Swagger UI's own main landmark is in a named region.
  for (const [selector, name] of [['.information-container', 'About this API'], ['.scheme-container', 'Server'], ['.filter-container', 'Filter']]) {
    for (const element of root.querySelectorAll(selector)) if (!element.hasAttribute('role')) { element.setAttribute('role', 'region'); element.setAttribute('aria-label', name); }
  }
  // The page's title is its one first-level heading; the tags and the schemas come next, at the second.
  const level = (element, n) => { if (element && element.getAttribute('aria-level') !== n) { element.setAttribute('role', 'heading'); element.setAttribute('aria-level', n); } };
  level(root.querySelector('.info h2.title'), '1');
  for (const heading of root.querySelectorAll('h3.opblock-tag, section.models > h4')) level(heading, '2');
}
const root = document.getElementById('swagger-ui');
new MutationObserver(() => nameControls(root)).observe(root, { childList: true, subtree: true });
window.ui = SwaggerUIBundle({
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
  // One page for both references (only its script names the document), so that a test can hold them equal.
  const html = page('heritage-api: API reference');
  app.get(prefix, async (_request, reply) => send(reply, 'text/html; charset=utf-8', html));
  app.get(`${prefix}init.js`, async (_request, reply) => send(reply, 'text/javascript; charset=utf-8', script));
  app.get(`${prefix}accessible.css`, async (_request, reply) => send(reply, 'text/css; charset=utf-8', ACCESSIBLE_CSS));
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
