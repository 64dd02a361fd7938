// The size limits of one record of a catalogue file: the one table of them, with why.
// They are checked by `import` and `validate` (a record past one is refused with its path
// and the limit); the server relies on them: every answer is built from at most 100 records,
// so these numbers bound the work of any one answer (docs/operators.md, Security: measured there).

export interface CatalogueLimits {
  /** Longest string, value or key, in characters (UTF-16 code units). */
  readonly maxStringChars: number;
  /** Most positions in one feature's footprint, all its rings together. */
  readonly maxPositions: number;
  /** Largest record, in bytes of its JSON text without whitespace. */
  readonly maxRecordBytes: number;
}

export interface LimitDefinition {
  /** The environment variable and the `import`/`validate` flag (both settings: src/settings/table.ts). */
  env: string;
  flag: string;
  defaultValue: number;
  /** The unit as messages say it. */
  unit: string;
  /** What it bounds, as `--help` says it. */
  help: string;
  why: string;
}

export const CATALOGUE_LIMITS: { readonly [K in keyof CatalogueLimits]: LimitDefinition } = {
  maxStringChars: {
    env: 'CATALOGUE_MAX_STRING_CHARS', flag: '--max-string-chars', defaultValue: 50_000, unit: 'characters',
    help: 'longest string (value or key) of a record, in characters',
    why: 'a document body is the longest real string (the demo\'s are about 1,300 characters; a long article some 10,000); a 10 MB key or value must not be held or printed',
  },
  maxPositions: {
    env: 'CATALOGUE_MAX_POSITIONS', flag: '--max-positions', defaultValue: 2_000, unit: 'positions',
    help: 'most positions in one footprint, all its rings together',
    why: 'real building footprints have at most a few hundred positions (the demo\'s 15); 2,000 positions are about 50 kB of JSON, within the record limit',
  },
  maxRecordBytes: {
    env: 'CATALOGUE_MAX_RECORD_BYTES', flag: '--max-record-bytes', defaultValue: 64_000, unit: 'bytes',
    help: 'largest record, in bytes of its JSON text without whitespace',
    why: 'an answer holds at most 100 records and their nested features (about 13 MB at the limits), made in about 35 ms on the 2 shared cores of the test machine (bench/record-limits.ts); the validator stops building a record past it, so memory stays bounded',
  },
};

export const DEFAULT_CATALOGUE_LIMITS: CatalogueLimits = Object.freeze({
  maxStringChars: CATALOGUE_LIMITS.maxStringChars.defaultValue,
  maxPositions: CATALOGUE_LIMITS.maxPositions.defaultValue,
  maxRecordBytes: CATALOGUE_LIMITS.maxRecordBytes.defaultValue,
});

/** The largest value a setting may raise a limit to (V8's strings stop near 512 MB anyway). */
export const LIMIT_CEILING = 500_000_000;

/** How a message names a limit: `the limit is 200,000 characters (--max-string-chars, CATALOGUE_MAX_STRING_CHARS)`. */
export function describeLimit(key: keyof CatalogueLimits, limits: CatalogueLimits): string {
  const definition = CATALOGUE_LIMITS[key];
  return `the limit is ${count(limits[key])} ${definition.unit} (${definition.flag}, ${definition.env})`;
}

export const count = (n: number): string => n.toLocaleString('en-GB');
