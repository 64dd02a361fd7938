// A catalogue file read as a stream: bytes → UTF-8 text (refused when invalid) → stream-json
// tokens → one call per top-level value and per record of a top-level list. Only one record
// is ever held as a JS value, so a file of any size reads in bounded memory.
import { none, type Many } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { DEFAULT_CATALOGUE_LIMITS, count, describeLimit, type CatalogueLimits } from './limits.js';
import { isListName, type ListName } from './lists.js';
import type { LocatedProblem } from './paths.js';
import { errorMessage } from '../caught.js';
import { quote } from './strings.js';
import { TokenPacker, ValueBuilder, type PackedToken } from './value-builder.js';

/** What the reader hands on, in file order. */
export interface CatalogueEvents {
  /** A top-level value that is not a streamed list: `format`, an unknown key, a list key holding a non-list. */
  rootValue(key: string, value: unknown, problems?: readonly LocatedProblem[]): void;
  /** A top-level list starts (its value is `[]` as far as root checks go). */
  listStart(list: ListName): void;
  /** `problems`: what only the text shows (a key twice, a limit), paths relative to the record. */
  record(list: ListName, index: number, value: unknown, problems?: readonly LocatedProblem[]): void;
  listEnd(list: ListName): void;
  /** The top level is not an object: its value, lists and objects left empty. */
  notAnObject(value: unknown): void;
}

/** A problem with the file as a whole (`$`): not UTF-8, not JSON. */
export class FileProblem extends Error {}

const TOO_EARLY = '; the file ends too early (truncated?)';

type State =
  | { at: 'start' }
  | { at: 'root' }
  | { at: 'rootValue'; key: string; builder: ValueBuilder }
  | { at: 'list'; list: ListName; index: number; builder: ValueBuilder | null }
  | { at: 'skip'; depth: number }
  | { at: 'end' };

/** The reader's state machine over tokens. Feed text with `push`, then call `end`. */
export class CatalogueJsonReader {
  // Chunks, not whole values: a string is held only up to the string limit (TokenPacker).
  private readonly parse = jsonParser({ packValues: false, streamValues: true });
  private readonly packer: TokenPacker;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private state: State = { at: 'start' };
  private firstBytes = true;
  private line = 1;
  private readonly seenKeys = new Set<string>();

  constructor(private readonly events: CatalogueEvents, private readonly limits: CatalogueLimits = DEFAULT_CATALOGUE_LIMITS) {
    this.packer = new TokenPacker(limits.maxStringChars);
  }

  /** Raw bytes of the file, in order. */
  pushBytes(bytes: Uint8Array): void {
    if (this.firstBytes && bytes.length > 0) {
      this.firstBytes = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        throw new FileProblem('the file starts with a UTF-8 byte-order mark; a catalogue is plain JSON in UTF-8 without one');
      }
    }
    this.pushText(this.decode(bytes, true));
  }

  end(): void {
    this.pushText(this.decode(new Uint8Array(), false));
    this.tokens(() => this.parse(none as never), true);
    if (this.state.at !== 'end') throw new FileProblem(`the file is not valid JSON: Unexpected end of JSON input (line ${this.line})${TOO_EARLY}`);
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return this.decoder.decode(bytes, { stream });
    } catch {
      throw new FileProblem('the file is not valid UTF-8');
    }
  }

  /** Line by line, so that a syntax error can say which line it is on. */
  private pushText(text: string): void {
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf('\n', start);
      const stop = newline === -1 ? text.length : newline + 1;
      const piece = text.slice(start, stop);
      this.tokens(() => this.parse(piece), false);
      if (newline !== -1) this.line++;
      start = stop;
    }
  }

  private tokens(produce: () => Many<Token> | typeof none, atEnd: boolean): void {
    let produced: Many<Token> | typeof none;
    try {
      produced = produce();
    } catch (error) {
      throw new FileProblem(`the file is not valid JSON: ${syntaxMessage(errorMessage(error), atEnd)} (line ${this.line})${atEnd ? TOO_EARLY : ''}`);
    }
    if (produced === none) return;
    for (const token of produced.values) {
      const packed = this.packer.pack(token);
      if (packed !== null) this.take(packed);
    }
  }

  private take(token: PackedToken): void {
    const state = this.state;
    switch (state.at) {
      case 'start': return this.takeFirst(token);
      case 'root': return this.takeInRoot(token);
      case 'rootValue':
        if (state.builder.fresh && this.takeRootValueStart(token)) return;
        if (state.builder.take(token)) this.finishRootValue(state.key, state.builder);
        return;
      case 'list': return this.takeInList(state, token);
      case 'skip': return this.skip(state, token);
      case 'end': throw new FileProblem('the file is not valid JSON: Unexpected non-whitespace character after JSON');
    }
  }

  private takeFirst(token: PackedToken): void {
    if (token.name === 'startObject') {
      this.state = { at: 'root' };
      return;
    }
    // Not an object: only its kind matters, so a list is skipped, never built.
    const builder = new ValueBuilder(this.limits);
    if (token.name === 'startArray') this.events.notAnObject([]);
    else if (builder.take(token)) this.events.notAnObject(builder.value);
    this.state = token.name === 'startArray' ? { at: 'skip', depth: 1 } : { at: 'end' };
  }

  private skip(state: Extract<State, { at: 'skip' }>, token: PackedToken): void {
    if (token.name === 'startArray' || token.name === 'startObject') state.depth++;
    else if (token.name === 'endArray' || token.name === 'endObject') state.depth--;
    if (state.depth === 0) this.state = { at: 'end' };
  }

  private takeInRoot(token: PackedToken): void {
    if (token.name === 'endObject') {
      this.state = { at: 'end' };
      return;
    }
    if (token.name !== 'keyValue') return;
    const key = token.value;
    if (token.length > this.limits.maxStringChars) throw new FileProblem(`the file has a top-level key of ${count(token.length)} characters: ${describeLimit('maxStringChars', this.limits)}`);
    if (this.seenKeys.has(key)) throw new FileProblem(`the file has the top-level key ${quote(key)} twice`);
    this.seenKeys.add(key);
    this.state = { at: 'rootValue', key, builder: new ValueBuilder(this.limits) };
  }

  private finishRootValue(key: string, builder: ValueBuilder): void {
    this.events.rootValue(key, builder.value, builder.problems);
    this.state = { at: 'root' };
  }

  private takeInList(state: Extract<State, { at: 'list' }>, token: PackedToken): void {
    if (state.builder === null) {
      if (token.name === 'endArray') {
        this.events.listEnd(state.list);
        this.state = { at: 'root' };
        return;
      }
      state.builder = new ValueBuilder(this.limits);
    }
    if (state.builder.take(token)) {
      this.events.record(state.list, state.index++, state.builder.value, state.builder.problems);
      state.builder = null;
    }
  }

  /** A list key whose value opens a list streams its records; anything else is built whole. */
  private takeRootValueStart(token: PackedToken): boolean {
    const state = this.state;
    if (state.at !== 'rootValue' || token.name !== 'startArray' || !isListName(state.key)) return false;
    const list = state.key;
    this.events.listStart(list);
    this.state = { at: 'list', list, index: 0, builder: null };
    return true;
  }
}

/** stream-json's words → JSON.parse's, where the file simply stops. */
function syntaxMessage(message: string, atEnd: boolean): string {
  if (atEnd && /string value/.test(message)) return 'Unterminated string in JSON';
  if (atEnd) return 'Unexpected end of JSON input';
  if (/unexpected characters/.test(message)) return 'Unexpected non-whitespace character after JSON';
  return message.replace(/^Parser (cannot parse input: |has )/, '');
}
