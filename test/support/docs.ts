// The project's documentation as the tests read it: README.md and every page of docs/, so
// that an example, a setting or an error quoted on any page is checked wherever it moved.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.js';

export interface DocPage {
  /** Relative to the project's folder: `README.md`, `docs/gis.md`. */
  path: string;
  text: string;
}

/** README.md, then docs/*.md in name order. */
export function docPages(): DocPage[] {
  const pages = fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...pages].map((page) => ({ path: page, text: fs.readFileSync(path.join(ROOT, page), 'utf8') }));
}

/** The one page holding `marker` (a heading, a bold lead-in): found wherever it moved, never two. */
export function pageHolding(marker: string): DocPage {
  const holding = docPages().filter((page) => page.text.includes(marker));
  const [page] = holding;
  if (page === undefined || holding.length > 1) throw new Error(`${holding.length} pages of the docs hold ${marker}: ${holding.map((p) => p.path).join(', ')}`);
  return page;
}
