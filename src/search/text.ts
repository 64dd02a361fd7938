// Full-text search words, the same on both stores: the text indexed for each record, and
// the words of a `q` query. Matching is case- and accent-insensitive and by word prefix.

/**
 * Bounds of a `q` value, so that no text query holds the database for long; far above what a
 * person types (the longest place name in Britain has 58 letters).
 */
export const MAX_QUERY_LENGTH = 500;
export const MAX_QUERY_WORDS = 20;
export const MAX_WORD_LENGTH = 64;

/**
 * The words a store must match: a repeated word, or one that begins another word of the
 * query, changes no answer (every word must begin a word of the record), only the cost.
 */
export function essentialWords(words: readonly string[]): string[] {
  const unique = [...new Set(words)];
  return unique.filter((w) => !unique.some((other) => other !== w && other.startsWith(w)));
}

/** Words of a query: letters and digits, lower case, accents removed; punctuation separates. */
export function queryWords(q: string): string[] {
  return foldText(q).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Lower case without accents ("Café" → "cafe"), so stores need no accent rules of their own. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of an HTML body, for indexing only: tags dropped, common entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => decodeEntity(entity, name));
}

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return ENTITIES[name.toLowerCase()] ?? entity;
}

/**
 * The indexed text: the words of the parts that exist, split exactly as queries are, one
 * space apart, so that both stores' tokenisers see the same words.
 */
export function searchText(parts: readonly (string | null | undefined)[]): string {
  return queryWords(parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ')).join(' ');
}

const PLAIN_WORD = /^[a-z0-9]+$/;

/** Words of ASCII letters and digits only: those a text can be checked for without a store's tokeniser (beginsWordsOf). */
export function arePlainWords(words: readonly string[]): boolean {
  return words.every((w) => PLAIN_WORD.test(w));
}

/**
 * Whether every word begins a word of an indexed text (searchText's: words one space apart),
 * told from the text alone, for plain words (arePlainWords): true when each is met at a
 * word's start; false when one is met nowhere a word could start. SQLite's FTS5 splits some
 * letters JavaScript calls letters (U+19B0…) and folds others (ς to σ), but never into or
 * out of ASCII (test/unit/words-in-box.test.ts holds it to that), so a word of its own can
 * start only at ours or right after a letter beyond ASCII: a plain word met only there is
 * null, for FTS5 to decide. Null too for words that are not plain.
 */
export function beginsWordsOf(text: string, words: readonly string[]): boolean | null {
  if (!arePlainWords(words)) return null;
  let undecided = false;
  for (const word of words) {
    if (text.startsWith(word) || text.includes(` ${word}`)) continue;
    if (!metAfterOtherLetter(text, word)) return false;
    undecided = true;
  }
  return undecided ? null : true;
}

/** Whether the word occurs right after a character beyond ASCII. */
function metAfterOtherLetter(text: string, word: string): boolean {
  for (let at = text.indexOf(word, 1); at !== -1; at = text.indexOf(word, at + 1)) {
    if (text.charCodeAt(at - 1) > 0x7f) return true;
  }
  return false;
}
