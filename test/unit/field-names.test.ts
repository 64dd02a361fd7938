// A record's field names are declared once (catalogue/fields.ts and the file's shape,
// catalogue/schema.ts) and every face derives them from there (FEATURE_KEYS, fieldsOf): this
// counts the files of src/ that spell each name, and fails past MAX_FILES.
//
// What counts as spelling a name: the name as an identifier (`f.b_name`, `{ b_name: … }`,
// `Pick<Row, 'b_name'>` counts as a string) or as a whole word in a string or template
// literal (SQL such as `SELECT f.b_name`), found by the TypeScript parser, so comments do not
// count. Left out: the demo generator (src/demo/, which writes records by hand), the
// migrations (a database's history, never edited) and changes/compiled-schema.ts (written
// from catalogue/schema.ts by the published-schemas test, never by hand). The names held are the catalogue's own
// words (a key with an underscore, and `postcode`): a field named by a plain word (`street`,
// `address`, `title`) cannot be told from the word itself.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../support/root.js';

const SRC = path.join(ROOT, 'src');
const MAX_FILES = 6;
const HELD = ['b_number', 'b_name', 'feature_type', 'postcode', 'search_str', 'last_edited'];
const LEFT_OUT = (file: string) => file.startsWith(`demo${path.sep}`) || /migrations?\b/.test(file) || file === path.join('changes', 'compiled-schema.ts');

function spelledIn(file: string, names: readonly string[]): Set<string> {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Set<string>();
  const words = (text: string) => { for (const name of names) if (new RegExp(`\\b${name}\\b`).test(text)) found.add(name); };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) words(node.text);
    else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) words(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each name → the files of src/ that spell it. */
export function fieldNameFiles(names: readonly string[]): Map<string, string[]> {
  const files = fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !LEFT_OUT(f)).sort();
  const byName = new Map<string, string[]>(names.map((name) => [name, []]));
  for (const file of files) for (const name of spelledIn(file, names)) byName.get(name)?.push(file);
  return byName;
}

test(`each of a record's field names is spelled in at most ${MAX_FILES} files of src/`, () => {
  for (const [name, files] of fieldNameFiles(HELD)) {
    assert.ok(files.length <= MAX_FILES, `${name} is spelled in ${files.length} files: ${files.join(', ')}`);
  }
});
