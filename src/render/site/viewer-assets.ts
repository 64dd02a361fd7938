// The IIIF viewers' files, built by scripts/build-web.mjs into dist/web/iiif/ with hashed
// names (listed in dist/web/iiif.json) and served under /iiif/viewer/ (http/iiif/viewer-routes.ts):
// the picture page's deep zoom (OpenSeadragon within) and the comparison page's (Mirador
// within). Without a build the pages show their pictures plainly.
import fs from 'node:fs';
import path from 'node:path';
import { WEB_BUILD_DIR } from '../../package-files.js';
import { IIIF_PATHS } from '../../pages/paths.js';

export interface ViewerNames {
  picture: string;
  compare: string;
}

/** The folder under the build that /iiif/viewer/ serves. */
export const VIEWER_FOLDER = 'iiif';
const MANIFEST = 'iiif.json';

/** The names by build folder, read once: the build does not change under a running server. */
const built = new Map<string, ViewerNames | null>();

export function viewerNames(webDir: string = WEB_BUILD_DIR): ViewerNames | null {
  if (!built.has(webDir)) built.set(webDir, readNames(path.join(webDir, MANIFEST)));
  return built.get(webDir) ?? null;
}

function readNames(manifest: string): ViewerNames | null {
  if (!fs.existsSync(manifest)) return null;
  const names: unknown = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  if (typeof names !== 'object' || names === null) return null;
  const [picture, compare] = ['picture', 'compare'].map((key) => Reflect.get(names, key));
  if (typeof picture !== 'string' || typeof compare !== 'string') return null;
  return { picture, compare };
}

/** The viewers' URLs under a base URL, or null when they are not built. */
export function viewerAssets(baseUrl: string, webDir?: string): ViewerNames | null {
  const names = viewerNames(webDir);
  if (names === null) return null;
  const url = (file: string) => `${baseUrl}${IIIF_PATHS.viewerAsset(file)}`;
  return { picture: url(names.picture), compare: url(names.compare) };
}
