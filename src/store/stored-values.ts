// What a stored value can be, the same on both stores, so that a value from a request that no
// stored one can equal is never sent to SQL: PostgreSQL fails on it (an integer past its
// `integer` columns, text holding NUL) where SQLite finds nothing, a 500 against a 200.
// Every id, year and count is in a PostgreSQL `integer` column, and no stored text holds NUL
// (the catalogue refuses it: catalogue/strings.ts).

/** PostgreSQL's `integer`: 32 bits, signed. */
export const STORED_INTEGER = Object.freeze({ min: -2_147_483_648, max: 2_147_483_647 });

export function isStoredInteger(value: number): boolean {
  return Number.isInteger(value) && value >= STORED_INTEGER.min && value <= STORED_INTEGER.max;
}

/** Whether some stored text could equal this one. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000');
}
