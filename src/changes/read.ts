// A change file's bytes → one JS value and what only its text shows (a key twice, NUL, lone
// surrogates, the string limit), by the catalogue's own value builder. A change file is a
// few records, so it is held whole; each record's size is checked after (validate.ts).
import { none, type Many } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import type { CatalogueLimits } from '../catalogue/limits.js';
import type { LocatedProblem } from '../catalogue/paths.js';
import { TokenPacker, ValueBuilder } from '../catalogue/value-builder.js';
import { errorMessage } from '../caught.js';

export type ReadResult = { ok: true; value: unknown; problems: readonly LocatedProblem[] } | { ok: false; message: string };

const BOM = [0xef, 0xbb, 0xbf];

export function readChangeBytes(bytes: Uint8Array, limits: CatalogueLimits): ReadResult {
  if (BOM.every((b, i) => bytes[i] === b)) return { ok: false, message: 'the file starts with a UTF-8 byte-order mark; a change file is plain JSON in UTF-8 without one' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'the file is not valid UTF-8' };
  }
  try {
    JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the file is not valid JSON: ${errorMessage(error)}` };
  }
  return build(text, limits);
}

/** Valid JSON through the catalogue's token packer and value builder (no record-size cut: records are measured one by one later). */
function build(text: string, limits: CatalogueLimits): ReadResult {
  const parse = jsonParser({ packValues: false, streamValues: true });
  const packer = new TokenPacker(limits.maxStringChars);
  const builder = new ValueBuilder({ ...limits, maxRecordBytes: Number.MAX_SAFE_INTEGER });
  const produced: readonly (Many<Token> | typeof none)[] = [parse(text), parse(none as never)];
  for (const tokens of produced) {
    if (tokens === none) continue;
    for (const token of tokens.values) {
      const packed = packer.pack(token);
      if (packed !== null) builder.take(packed);
    }
  }
  return { ok: true, value: builder.value, problems: builder.problems };
}
