// One JS value built from stream-json's tokens, like JSON.parse (a `__proto__` key is an own
// property), with the checks only the text can answer: a key given twice in one object, and
// the size limits (limits.ts). Strings arrive in chunks and are held only up to the string
// limit, and a value past the record limit stops being built: memory stays bounded whatever
// the file holds. Each problem has its path relative to the value.
import type { Token } from 'stream-json/parser.js';
import { count, describeLimit, type CatalogueLimits } from './limits.js';
import type { LocatedProblem, PathSegment } from './paths.js';
import { cutKey, keyProblem, quote, stringProblem } from './strings.js';

type Structural = 'startObject' | 'endObject' | 'startArray' | 'endArray' | 'nullValue' | 'trueValue' | 'falseValue';

/** A token with its key, string or number whole (cut at the string limit), and its size in bytes. */
export type PackedToken =
  | { name: Structural; bytes: number }
  | { name: 'keyValue' | 'stringValue' | 'numberValue'; value: string; length: number; bytes: number };

const PACKED_NAMES = { endKey: 'keyValue', endString: 'stringValue', endNumber: 'numberValue' } as const;

/** stream-json's chunks → whole keys, strings and numbers, holding at most `cap` characters of each. */
export class TokenPacker {
  private text = '';
  private length = 0;
  private bytes = 0;

  constructor(private readonly cap: number) {}

  /** The packed token, or null while a key, string or number is still arriving. */
  pack(token: Token): PackedToken | null {
    switch (token.name) {
      case 'startKey':
      case 'startString':
      case 'startNumber':
        this.text = '';
        this.length = 0;
        this.bytes = 0;
        return null;
      case 'stringChunk':
      case 'numberChunk':
        this.add(token.value);
        return null;
      case 'endKey':
      case 'endString':
      case 'endNumber': {
        const packed = { name: PACKED_NAMES[token.name], value: this.text, length: this.length, bytes: this.bytes + (token.name === 'endNumber' ? 0 : 2) };
        this.text = '';
        return packed;
      }
      case 'keyValue':
      case 'stringValue':
      case 'numberValue':
      case 'whitespace':
        return null; // the parser is asked for chunks only, and gives no whitespace
      default:
        return { name: token.name, bytes: 1 };
    }
  }

  private add(chunk: string): void {
    this.length += chunk.length;
    this.bytes += Buffer.byteLength(chunk);
    if (this.text.length < this.cap) this.text += this.text.length + chunk.length <= this.cap ? chunk : chunk.slice(0, this.cap - this.text.length);
  }
}

export class ValueBuilder {
  private readonly stack: (unknown[] | Record<string, unknown>)[] = [];
  private readonly keys: (string | undefined)[] = [];
  private readonly seen: (Set<string> | null)[] = [];
  private readonly problemPaths = new Set<string>();
  readonly problems: LocatedProblem[] = [];
  value: unknown = undefined;
  done = false;
  private bytes = 0;
  /** Past the record limit: only the depth is followed, to find the value's end. */
  private skipDepth: number | null = null;

  constructor(private readonly limits: CatalogueLimits) {}

  /** No token taken yet. */
  get fresh(): boolean {
    return !this.done && this.stack.length === 0 && this.skipDepth === null;
  }

  /** Feeds one token; true once the value is complete. */
  take(token: PackedToken): boolean {
    this.bytes += token.bytes + (this.skipDepth === null ? this.separatorBytes(token) : 0);
    if (this.skipDepth === null && this.bytes > this.limits.maxRecordBytes) this.stopBuilding();
    if (this.skipDepth !== null) return this.skip(token, this.skipDepth);
    switch (token.name) {
      case 'startObject': return this.open({}, new Set());
      case 'startArray': return this.open([], null);
      case 'endObject':
      case 'endArray': return this.close();
      case 'keyValue': return this.key(token.value, token.length);
      case 'stringValue': return this.string(token.value, token.length);
      case 'numberValue': return this.number(token.value, token.length);
      case 'nullValue': return this.put(null);
      case 'trueValue': return this.put(true);
      case 'falseValue': return this.put(false);
    }
  }

  /** The `:` after a key and the `,` before an item but the first: sizes are of compact JSON text. */
  private separatorBytes(token: PackedToken): number {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return 0;
    if (token.name === 'keyValue') return (this.seen[this.seen.length - 1]?.size ?? 0) > 0 ? 2 : 1;
    return Array.isArray(top) && token.name !== 'endArray' && top.length > 0 ? 1 : 0;
  }

  private stopBuilding(): void {
    this.skipDepth = this.stack.length;
    this.stack.length = 0;
    this.keys.length = 0;
    this.seen.length = 0;
    this.problems.length = 0;
    this.problems.push({ segments: [], message: `is more than ${count(this.limits.maxRecordBytes)} bytes of JSON: ${describeLimit('maxRecordBytes', this.limits)}` });
  }

  /** A token of a record no longer built, `depth` containers deep: true once the record ends. */
  private skip(token: PackedToken, depth: number): boolean {
    if (token.name === 'startObject' || token.name === 'startArray') this.skipDepth = depth + 1;
    else if (token.name === 'endObject' || token.name === 'endArray') this.skipDepth = depth - 1;
    else if (token.name === 'keyValue') return false;
    if (this.skipDepth !== 0) return false;
    this.done = true;
    return true;
  }

  /** Where the value about to be put (or the key just read) is. */
  private path(): PathSegment[] {
    return this.stack.map((container, i) => (Array.isArray(container) ? container.length : cutKey(this.keys[i] ?? '')));
  }

  private report(message: string): void {
    const segments = this.path();
    const key = JSON.stringify(segments);
    if (this.problemPaths.has(key)) return;
    this.problemPaths.add(key);
    this.problems.push({ segments, message });
  }

  private open(container: unknown[] | Record<string, unknown>, keys: Set<string> | null): boolean {
    this.stack.push(container);
    this.keys.push(undefined);
    this.seen.push(keys);
    return false;
  }

  private close(): boolean {
    const container = this.stack.pop();
    this.keys.pop();
    this.seen.pop();
    return this.put(container);
  }

  private key(key: string, length: number): boolean {
    const top = this.keys.length - 1;
    // A key past the string limit was held only up to it: its path says so.
    this.keys[top] = length > key.length ? `${key}…` : key;
    const problem = keyProblem(key, length, this.limits);
    if (problem !== undefined) this.report(problem);
    const seen = this.seen[top];
    if (seen?.has(key)) this.report(`the key ${quote(key)} is given twice in this object (keys must be unique)`);
    seen?.add(key);
    return false;
  }

  private string(text: string, length: number): boolean {
    const problem = stringProblem(text, length, this.limits);
    if (problem !== undefined) this.report(problem);
    return this.put(text);
  }

  private number(text: string, length: number): boolean {
    if (length > this.limits.maxStringChars) this.report(`is a number of ${count(length)} characters: ${describeLimit('maxStringChars', this.limits)}`);
    return this.put(Number(text));
  }

  private put(value: unknown): boolean {
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) {
      this.value = value;
      this.done = true;
      return true;
    }
    // An object's key was read before its value (key); an array's is undefined.
    const key = this.keys[this.keys.length - 1] ?? '';
    if (Array.isArray(parent)) parent.push(value);
    else if (key === '__proto__') Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
    else parent[key] = value;
    return false;
  }
}
