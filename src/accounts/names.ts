// Account names: what a contributor is credited as (a catalogue author's username), so they
// are short, printable and unambiguous. Two names that fold alike are one account (nameKey),
// and two that look alike cannot both be taken (nameSkeleton: Unicode TR39's skeleton, so
// that a Cyrillic "dеmo-еditor" is the Latin "demo-editor"); the names below, and every
// catalogue author's name, are kept for the accounts they belong to.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const NAME_RULE = 'from 3 to 40 letters, digits, dots, hyphens or underscores';
const NAME = /^[\p{L}\p{N}._-]{3,40}$/u;

/**
 * Unicode's confusables (TR39 §4, confusables.txt), as unhomoglyph ships them: one character
 * to its prototype. Read once at start-up from the package's data file, checked as it is read.
 */
const CONFUSABLES: ReadonlyMap<string, string> = (() => {
  const file = createRequire(import.meta.url).resolve('unhomoglyph/data.json');
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (parsed === null || typeof parsed !== 'object') throw new Error(`${file} is not the confusables table`);
  return new Map(Object.entries(parsed).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
})();

/** TR39's skeleton: NFD, each character mapped to its prototype, NFD again. */
function tr39(text: string): string {
  let mapped = '';
  for (const ch of text.normalize('NFD')) mapped += CONFUSABLES.get(ch) ?? ch;
  return mapped.normalize('NFD');
}

/**
 * What a name looks like, for telling look-alikes apart: TR39's skeleton of the folded name
 * (nameKey), folded and mapped again, so that folding cannot bring back a character the table
 * maps ("О", "0" and "o" are one). Two names of one key have one skeleton: the unique column.
 */
export function nameSkeleton(username: string): string {
  return tr39(tr39(nameKey(username)).toLowerCase());
}

/**
 * Every skeleton the name may be read as: its own, and that of its capitals as shown before
 * folding ("Ian" reads as "lan"), for the names that must not be imitated at all.
 */
export function nameLooks(username: string): string[] {
  return [...new Set([nameSkeleton(username), tr39(tr39(username).toLowerCase())])];
}

/** Names no contributor may take (compared by skeleton): they would read as the site's own voice. */
export const RESERVED_NAMES = [
  'admin', 'administrator', 'root', 'system', 'sysadmin', 'superuser', 'moderator', 'editor', 'editors', 'staff', 'support',
  'security', 'postmaster', 'webmaster', 'hostmaster', 'abuse', 'noreply', 'no-reply', 'null', 'undefined', 'nobody',
  'anonymous', 'api', 'www', 'mail', 'info', 'help', 'owner', 'official', 'heritage', 'heritage-api',
] as const;
const RESERVED = new Set(RESERVED_NAMES.map(nameSkeleton));

/** Why a new account's name is refused (a sentence), or null. Catalogue authors' names are the store's to check. */
export function nameProblem(username: string): string | null {
  if (!NAME.test(username)) return `The account name must be ${NAME_RULE}.`;
  if (nameLooks(username).some((look) => RESERVED.has(look))) return 'That account name is kept for the site itself: choose another.';
  return null;
}

/** The refusal of a name that is, or looks like, a catalogue author's. */
export const AUTHOR_NAME_PROBLEM = 'That name is a catalogue author\'s, kept for the author\'s own account, which an editor can link to it: choose another name.';

/** The name as accounts are looked up by: NFKC, lower case. */
export function nameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}
