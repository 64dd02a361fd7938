// Validation of a catalogue file (catalogue-format.md, clarifications.md): the whole-file
// checks on its bytes, then every rule on its value. A file is refused with every problem
// it has, in file order, or accepted as a normalised `Catalogue`.
import type { Problem, ValidationResult } from './format.js';
import { normaliseCatalogue } from './normalise.js';
import { formatPath, sortByFilePosition } from './paths.js';
import { referenceProblems } from './references.js';
import type { CatalogueFile } from './schema.js';
import { structuralProblems } from './structure.js';

function refuseWhole(message: string): ValidationResult {
  return { ok: false, problems: [{ path: '$', message }] };
}

function hasByteOrderMark(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** `fatal` refuses invalid UTF-8; `ignoreBOM` keeps a BOM visible (we refuse it before). */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: jsonErrorMessage(text, error instanceof Error ? error.message : String(error)) };
  }
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  return `line ${before.split('\n').length}, column ${position - before.lastIndexOf('\n')}`;
}

/**
 * What JSON.parse said, with the line and column of its position (files are big), and a
 * word when the text stops early: V8 words a truncated file in several ways.
 */
function jsonErrorMessage(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message)?.[1];
  const place = position === undefined ? '' : ` (${lineAndColumn(text, Number(position))})`;
  const truncated = message.startsWith('Unexpected end of JSON input') || Number(position) === text.length;
  return `${message}${place}${truncated ? '; the file ends too early (truncated?)' : ''}`;
}

/** A catalogue file's bytes → its normalised catalogue, or every problem it has. */
export function parseCatalogueBytes(bytes: Uint8Array): ValidationResult {
  if (hasByteOrderMark(bytes)) return refuseWhole('the file starts with a UTF-8 byte-order mark; a catalogue is plain JSON in UTF-8 without one');
  const text = decodeUtf8(bytes);
  if (text === undefined) return refuseWhole('the file is not valid UTF-8');
  const parsed = parseJson(text);
  if ('error' in parsed) return refuseWhole(`the file is not valid JSON: ${parsed.error}`);
  return validateCatalogue(parsed.value);
}

/** A parsed catalogue file → its normalised catalogue, or every problem it has. */
export function validateCatalogue(value: unknown): ValidationResult {
  const located = [...structuralProblems(value), ...referenceProblems(value)];
  if (located.length === 0) return { ok: true, catalogue: normaliseCatalogue(value as CatalogueFile) };
  const problems: Problem[] = sortByFilePosition(value, located).map(({ segments, message }) => ({
    path: formatPath(segments),
    message,
  }));
  return { ok: false, problems };
}
