// Why a feature matched a text search: which of its shown fields hold a word beginning with
// each searched word, folded as the server folds them (src/search/text.ts). A word found in
// none of them matched text the list does not carry (tags, description, an attached
// record's text), and is said so.
import { essentialWords, queryWords } from '../src/search/text.js';
import type { ListedFeature } from './types.js';

export interface MatchReason {
  word: string;
  /** Where it was found: "name “Great Synagogue”", …; empty when only in text the list does not show. */
  places: string[];
}

export function matchReasons(feature: ListedFeature, q: string): MatchReason[] {
  const p = feature.properties;
  const fields: [string, string | null][] = [
    ['name', p.b_name], ['address', p.address], ['street', p.street], ['postcode', p.postcode],
    ...p.categories.map((c): [string, string] => ['category', c.name]),
    ...p.images.map((r): [string, string] => ['image', r.title]),
    ...p.documents.map((r): [string, string] => ['document', r.title]),
    ...p.media.map((r): [string, string] => ['media', r.title]),
  ];
  return essentialWords(queryWords(q)).map((word) => ({
    word,
    places: fields.filter(([, text]) => text !== null && queryWords(text).some((w) => w.startsWith(word))).map(([what, text]) => `${what} “${text}”`),
  }));
}

/** One line: `“synag” in name “Great Synagogue”; “fournier” in its description or an attached record’s text`. */
export function describeReasons(reasons: readonly MatchReason[]): string {
  return reasons.map((r) => `“${r.word}” in ${r.places.length > 0 ? dedupe(r.places).slice(0, 2).join(', ') : 'its tags, description or an attached record’s text'}`).join('; ');
}

function dedupe(places: string[]): string[] {
  return [...new Set(places)];
}

