// The house's walls (issue 46): which folders may import which. A face other than OGC
// imports nothing of OGC's; the engines import no face; the executor (work/) imports no
// face. Read from each module's import and export specifiers, dynamic imports included,
// by TypeScript's own pre-parse.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../support/root.js';

const SRC = path.join(ROOT, 'src');

/** Every module of src/, relative to it, with the src/ modules it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(SRC, file), 'utf8'), true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), name)).replace(/\.js$/, '.ts'));
    graph.set(file.split(path.sep).join('/'), targets.map((t) => t.split(path.sep).join('/')));
  }
  return graph;
}

const under = (...folders: string[]) => (file: string) => folders.some((f) => (f.endsWith('.ts') ? file === f : file.startsWith(`${f}/`)));

/** OGC's modules: its folders and its store plans. */
export const isOgc = under('ogc', 'http/ogc', 'render/ogc', 'openapi/ogc', 'store/ogc');

interface Wall {
  /** What the rule says, as a failure names it. */
  rule: string;
  from: (file: string) => boolean;
  forbidden: (target: string) => boolean;
}

/**
 * Every face: its routes, renderers, documents and store plans. Not faces: the catalogue, the
 * change files, search/ (box geometry and the search text's words, which the engines' SQL
 * functions need) and the contributors' schema (store/accounts/account-schema.ts: tables each
 * engine creates and migrates, as it does the catalogue's).
 */
const isFace = under('ogc', 'http', 'render', 'openapi', 'site', 'pages', 'contributions', 'accounts', 'tiles', 'endpoints', 'store/ogc', 'store/api', 'store/map', 'store/site', 'store/tiles', 'store/contributions', 'store/accounts');
const SCHEMA = 'store/accounts/account-schema.ts';
const FACES = (file: string) => file !== SCHEMA && isFace(file);

const WALLS: Wall[] = [
  {
    rule: 'a face other than OGC imports no OGC module',
    from: under('site', 'render/site', 'http/site', 'render/contribute', 'http/contribute', 'accounts', 'contributions', 'pages', 'work', 'http/pages', 'http/api', 'http/files'),
    forbidden: isOgc,
  },
  // OGC links to the site's pages by the page layer's paths, and the app hands it the site's record page.
  { rule: 'OGC imports none of the site\'s pages or routes', from: isOgc, forbidden: under('http/site', 'render/site') },
  { rule: 'the engines import no face', from: under('store/sqlite', 'store/postgres', 'store/store.ts'), forbidden: FACES },
  { rule: 'the executor (work/) imports no face', from: under('work'), forbidden: FACES },
];

test('the import walls hold: faces apart from OGC, engines and the executor apart from every face', () => {
  const graph = importGraph();
  assert.ok(graph.size > 200, `${graph.size} modules read`);
  const broken: string[] = [];
  for (const wall of WALLS) {
    let checked = 0;
    for (const [file, targets] of graph) {
      if (!wall.from(file)) continue;
      checked++;
      for (const target of targets) if (wall.forbidden(target)) broken.push(`${wall.rule}: ${file} imports ${target}`);
    }
    assert.ok(checked > 0, `${wall.rule}: no module is on its near side (folders moved?)`);
  }
  assert.deepEqual(broken, []);
});
