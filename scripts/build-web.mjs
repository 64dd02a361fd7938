// Builds the map explorer (web/) into dist/web/: the page and its assets with content-hashed
// names (served for a year by /map/assets/), MapLibre's worker and CSS included, nothing
// fetched from elsewhere; and the editors' footprint map (web/edit/), a bundle of its own
// named in dist/web/edit.json; and the IIIF viewers (web/iiif/: the picture page's deep zoom
// with OpenSeadragon, the comparison page's Mirador) into dist/web/iiif/, named in
// dist/web/iiif.json, served under /iiif/viewer/. `npm run build` runs it; the browser tests
// run it when web/ changed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const WEB_SOURCE = path.join(ROOT, 'web');
export const WEB_OUT = path.join(ROOT, 'dist', 'web');
/** The footprint bundle's hashed names, read by src/render/edit/footprint-field.ts. */
export const EDIT_MANIFEST = 'edit.json';
/** The IIIF viewers' hashed names, read by src/render/site/viewer-assets.ts. */
export const IIIF_MANIFEST = 'iiif.json';

const BUNDLE_OPTIONS = {
  absWorkingDir: ROOT,
  bundle: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: true,
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'linked',
};

export async function buildWeb({ outDir = WEB_OUT } = {}) {
  const assets = path.join(outDir, 'assets');
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await esbuild.build({ ...BUNDLE_OPTIONS, entryPoints: { main: 'web/main.ts', styles: 'web/styles.css' }, outdir: assets });
  const named = (entry) => path.basename(outputOf(result, entry)[0]);
  const worker = copyHashed(path.join(ROOT, 'node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs'), assets);
  fs.writeFileSync(path.join(outDir, EDIT_MANIFEST), `${JSON.stringify({ footprint: await buildFootprint(assets, worker) })}\n`);
  fs.writeFileSync(path.join(outDir, IIIF_MANIFEST), `${JSON.stringify(await buildViewers(path.join(outDir, 'iiif')))}\n`);
  const html = fs.readFileSync(path.join(WEB_SOURCE, 'index.html'), 'utf8')
    .replace('%SCRIPT%', named('web/main.ts'))
    .replace('%STYLES%', named('web/styles.css'))
    .replace('%WORKER%', worker);
  fs.writeFileSync(path.join(outDir, 'index.html'), html);
  const files = fs.readdirSync(assets);
  for (const file of files.filter((f) => /\.(js|css)$/.test(f))) precompress(path.join(assets, file));
  return { outDir, files };
}

/**
 * The footprint map of the editors' form: a build of its own, so that the map explorer's
 * bundle stays as it was, with the name of MapLibre's worker (shared with the explorer)
 * written into it. Its style sheet is the one its script imports.
 */
async function buildFootprint(assets, worker) {
  const result = await esbuild.build({
    ...BUNDLE_OPTIONS, entryPoints: { footprint: 'web/edit/footprint.ts' }, outdir: assets, define: { FOOTPRINT_WORKER: JSON.stringify(worker) },
  });
  const [script, output] = outputOf(result, 'web/edit/footprint.ts');
  return { script: path.basename(script), style: path.basename(output.cssBundle) };
}

/**
 * The IIIF viewers, in a folder of their own (served under /iiif/viewer/): the picture page's
 * deep zoom (OpenSeadragon within) and the comparison page's Mirador, each bundled with its
 * library. Mirador from its ES build, with React's production build: the UMD bundle Mirador
 * ships carries React's development JSX runtime, whose warnings reach the console.
 */
async function buildViewers(dir) {
  const result = await esbuild.build({
    ...BUNDLE_OPTIONS, entryPoints: { 'picture-viewer': 'web/iiif/picture-viewer.ts', compare: 'web/iiif/compare.ts' }, outdir: dir,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const named = (entry) => path.basename(outputOf(result, entry)[0]);
  const names = { picture: named('web/iiif/picture-viewer.ts'), compare: named('web/iiif/compare.ts') };
  for (const file of Object.values(names)) precompress(path.join(dir, file));
  return names;
}

/** The output file of an entry point, and what esbuild says of it. */
function outputOf(result, entry) {
  return Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === entry);
}

/**
 * Brotli (best quality) and gzip copies beside a script or style sheet, which the server sends
 * by Accept-Encoding (COMPRESS, on by default): compressed once here, never per request. Source
 * maps are left plain: only a developer's tools fetch them, and brotli at its best quality
 * took ten seconds over them.
 */
function precompress(file) {
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
}

function copyHashed(file, dir) {
  const bytes = fs.readFileSync(file);
  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const name = `${path.basename(file, '.mjs')}-${hash}.js`;
  fs.writeFileSync(path.join(dir, name), bytes);
  return name;
}

/** The newest modification time under web/, its folders too (and of this script): is dist/web older? */
/** The files of src/ that web/ imports (they are bundled too): a change to one is a change to the bundles. */
function sharedSources() {
  const imported = /from '((?:\.\.\/)+src\/[^']+)\.js'/g;
  const files = fs.readdirSync(WEB_SOURCE, { recursive: true }).map((f) => path.join(WEB_SOURCE, String(f))).filter((f) => f.endsWith('.ts'));
  return [...new Set(files.flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(imported)].map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`))))];
}

export function webBuildIsStale({ outDir = WEB_OUT } = {}) {
  const built = [path.join(outDir, 'index.html'), path.join(outDir, EDIT_MANIFEST), path.join(outDir, IIIF_MANIFEST)];
  if (!built.every((file) => fs.existsSync(file))) return true;
  const sources = [...fs.readdirSync(WEB_SOURCE, { recursive: true }).map((f) => path.join(WEB_SOURCE, String(f))), ...sharedSources()];
  const newest = Math.max(fs.statSync(fileURLToPath(import.meta.url)).mtimeMs, ...sources.map((f) => fs.statSync(f).mtimeMs));
  return Math.min(...built.map((file) => fs.statSync(file).mtimeMs)) < newest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { outDir, files } = await buildWeb();
  process.stderr.write(`Built the map page into ${path.relative(ROOT, outDir)}/ (${files.length} assets).\n`);
}
