// Problem paths: where in the file a problem is (`features[12].geometry.coordinates[0][0]`),
// and the order problems are listed in (the order of the file itself).
import { cutKey } from './strings.js';

/** An object key or an array index. */
export type PathSegment = string | number;

/** A problem while its path is still segments, so it can be sorted by file position. */
export interface LocatedProblem {
  segments: PathSegment[];
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['features', 12, 'geometry']` → `features[12].geometry`; the whole file is `$`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let path = '';
  for (const whole of segments) {
    const segment = typeof whole === 'string' ? cutKey(whole) : whole;
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path === '' ? '$' : path.startsWith('[') ? `$${path}` : path;
}

/**
 * Ajv's JSON Pointer (`/features/12/geometry`) → segments. An all-digit segment is an array
 * index: every key the schema walks into is a word, so none of them is all digits.
 */
export function pointerToSegments(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/**
 * Where a path lies in the file, as one number per segment: the array index, or the key's
 * place among its object's keys (a missing key sorts after the keys that are there).
 */
export function filePosition(root: unknown, segments: readonly PathSegment[]): number[] {
  const position: number[] = [];
  let node: unknown = root;
  for (const segment of segments) {
    const keys = typeof segment === 'string' && isPlainObject(node) ? Object.keys(node) : [];
    const place = typeof segment === 'number' ? segment : keys.indexOf(segment);
    position.push(place === -1 ? keys.length : place);
    node = isPlainObject(node) || Array.isArray(node) ? Reflect.get(node, segment) : undefined;
  }
  return position;
}

export function comparePositions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
