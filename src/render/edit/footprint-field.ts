// The footprint field of the editors' record form: a GeoJSON textarea that works alone (the
// fallback without JavaScript), which the footprint bundle (web/edit/footprint.ts) finds by
// [data-footprint] and puts a map above. What a page that holds it needs: the bundle's
// script and style sheet (their hashed names in dist/web/edit.json) and headers that let
// them run.
import fs from 'node:fs';
import path from 'node:path';
import { MAP_ASSETS_PATH } from '../../constants.js';
import { WEB_BUILD_DIR } from '../../package-files.js';
import { PAGE_HEADERS } from '../../pages/headers.js';
import { escapeAttribute } from '../../pages/sanitise.js';

/** The form field's name (and the textarea's id). */
export const FOOTPRINT_FIELD = 'geometry';
const LABEL = 'Footprint (GeoJSON MultiPolygon, longitude/latitude)';
const HINT = 'Each part is a list of rings: its outline first, then any courtyards (holes). A ring repeats its first position last.';

/**
 * The field's HTML: the GeoJSON text (as sent, or formatFootprint's) and the problem found
 * in it, or null. The newline after <textarea> is the one the HTML parser drops, so a text
 * that begins with a newline keeps it.
 */
export function footprintField(geometryText: string, problem: string | null): string {
  const [hintId, problemId] = [`hint-${FOOTPRINT_FIELD}`, `problem-${FOOTPRINT_FIELD}`];
  const described = problem === null ? hintId : `${hintId} ${problemId}`;
  return `<div class="footprint" data-footprint>
<label for="${FOOTPRINT_FIELD}">${LABEL}</label>
<p class="hint muted" id="${hintId}">${HINT}</p>
${problem === null ? '' : `<p class="problem" role="alert" id="${problemId}">${escapeAttribute(problem)}</p>\n`}<textarea id="${FOOTPRINT_FIELD}" name="${FOOTPRINT_FIELD}" rows="8" spellcheck="false" aria-describedby="${described}"${problem === null ? '' : ' aria-invalid="true"'}>
${escapeAttribute(geometryText)}</textarea>
</div>`;
}

export interface FootprintAssets {
  /** An ES module: `<script type="module" src>`. */
  script: string;
  /** `<link rel="stylesheet" href>`. */
  style: string;
}

/** The bundle's hashed file names by build folder, read once: the build does not change under a running server. */
const builtNames = new Map<string, { script: string; style: string } | null>();

function footprintNames(webDir: string): { script: string; style: string } | null {
  if (!builtNames.has(webDir)) builtNames.set(webDir, readFootprintNames(path.join(webDir, 'edit.json')));
  return builtNames.get(webDir) ?? null;
}

function readFootprintNames(manifest: string): { script: string; style: string } | null {
  if (!fs.existsSync(manifest)) return null;
  const { footprint }: { footprint?: { script?: unknown; style?: unknown } } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  if (typeof footprint?.script !== 'string' || typeof footprint.style !== 'string') return null;
  return { script: footprint.script, style: footprint.style };
}

/** The footprint bundle's URLs under a base URL, or null when it is not built (the textarea alone then). */
export function footprintAssets(baseUrl: string, webDir: string = WEB_BUILD_DIR): FootprintAssets | null {
  const names = footprintNames(webDir);
  if (names === null) return null;
  return { script: `${baseUrl}${MAP_ASSETS_PATH}${names.script}`, style: `${baseUrl}${MAP_ASSETS_PATH}${names.style}` };
}

/** The tags for a page's head that load the bundle (none without one). */
export function footprintHead(assets: FootprintAssets | null): string {
  if (assets === null) return '';
  return `<link rel="stylesheet" href="${escapeAttribute(assets.style)}">\n<script type="module" src="${escapeAttribute(assets.script)}"></script>\n`;
}

/**
 * The pages' headers (PAGE_HEADERS), with what the map needs: scripts from this server,
 * MapLibre's worker (from this server too), and fetches of /map/config.json and the tiles;
 * the base map's origin when BASEMAP_URL names one, as the map page allows it.
 */
export function footprintPageHeaders(basemapUrl: string | null): Record<string, string> {
  const basemap = basemapUrl === null ? '' : ` https: ${new URL(basemapUrl).origin}`;
  const csp = [
    "default-src 'none'",
    `connect-src 'self'${basemap}`,
    "style-src 'self'",
    `img-src 'self' data: blob:${basemap}`,
    "script-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
  return { ...PAGE_HEADERS, 'content-security-policy': csp };
}
