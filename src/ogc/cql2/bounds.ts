// The size limits of one filter. A filter arrives in a URL or a body from anyone, so its
// length, nesting and number of nodes are bounded before any SQL is made of it: the SQL
// text and its parameters grow with the nodes, and the parser and the readers recurse
// with the nesting. Its geometries' positions are bounded too: each row a spatial test
// checks costs in proportion to them (an 850-vertex polygon held a SQLite server for 5-9 s).
import { childrenOf, type Geometry, type Node } from './ast.js';
import { Cql2Error } from './errors.js';

export interface Cql2Limits {
  /** Characters (UTF-16 code units) of the filter's text, CQL2-Text or CQL2-JSON. */
  readonly maxLength: number;
  /** Levels of the tree: `a = 1` is 2 (the comparison and its operands). */
  readonly maxDepth: number;
  /** Nodes of the tree: expressions, operands, literals (a geometry counts as one). */
  readonly maxNodes: number;
  /** Positions (vertices) of all the filter's POINTs, POLYGONs and MULTIPOLYGONs together, each ring's closing one included. */
  readonly maxPositions: number;
}

export const DEFAULT_CQL2_LIMITS: Cql2Limits = Object.freeze({ maxLength: 8000, maxDepth: 32, maxNodes: 500, maxPositions: 500 });

export function checkLength(text: string, limits: Cql2Limits): void {
  if (text.length > limits.maxLength) {
    throw new Cql2Error(
      `The filter is ${text.length} characters long; at most ${limits.maxLength} are accepted.`,
    );
  }
}

export function depthError(limits: Cql2Limits): Cql2Error {
  return new Cql2Error(`The filter is nested more than ${limits.maxDepth} levels deep.`);
}

/** Depth, node count and positions of a tree, refused past any limit. */
export function checkTree(root: Node, limits: Cql2Limits): void {
  let nodes = 0;
  let positions = 0;
  const pending: { node: Node; depth: number }[] = [{ node: root, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    nodes += 1;
    if (next.depth > limits.maxDepth) throw depthError(limits);
    if (nodes > limits.maxNodes) {
      throw new Cql2Error(`The filter has more than ${limits.maxNodes} terms; simplify it.`);
    }
    if (next.node.kind === 'geometry') positions += positionsOf(next.node.value);
    for (const child of childrenOf(next.node)) pending.push({ node: child, depth: next.depth + 1 });
  }
  if (positions > limits.maxPositions) {
    throw new Cql2Error(`The filter's geometries have ${positions} positions (vertices) in all; at most ${limits.maxPositions} are accepted.`);
  }
}

function positionsOf(geometry: Geometry): number {
  const rings = (polygon: readonly (readonly unknown[])[]) => polygon.reduce((sum, ring) => sum + ring.length, 0);
  switch (geometry.type) {
    case 'Point': return 1;
    case 'Polygon': return rings(geometry.coordinates);
    case 'MultiPolygon': return geometry.coordinates.reduce((sum, polygon) => sum + rings(polygon), 0);
  }
}

/**
 * The deepest nesting of brackets in CQL2-Text, outside string literals. Checked before
 * parsing so that the recursive descent parser never meets thousands of levels. A tree of
 * depth d needs fewer than 2d brackets (geometries add at most four), hence the guard.
 */
export function checkBracketNesting(text: string, limits: Cql2Limits): void {
  const allowed = 2 * limits.maxDepth + 4;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (inString && char === '\\') i += 1; // \' and \\ stay inside the string
    else if (char === "'") inString = !inString; // '' closes and reopens: the same
    else if (inString) continue;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    if (depth > allowed) throw depthError(limits);
  }
}
