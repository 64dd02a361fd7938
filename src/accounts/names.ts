// Account names: what a contributor is credited as (a catalogue author's username), so they
// are short, printable and unambiguous; two names that fold alike are one account.

export const NAME_RULE = 'from 3 to 40 letters, digits, dots, hyphens or underscores';
const NAME = /^[\p{L}\p{N}._-]{3,40}$/u;

/** Why a new account's name is refused (a sentence), or null. */
export function nameProblem(username: string): string | null {
  return NAME.test(username) ? null : `The account name must be ${NAME_RULE}.`;
}

/** The name as accounts are looked up by: NFKC, lower case. */
export function nameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}
