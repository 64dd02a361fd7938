// A filter written in another CRS (`filter-crs`, OGC API – Features Part 2): its positions
// and BBOXes are read with that CRS's checks (its axis order, where its coordinates are
// accepted), then the tree's geometry literals are turned into CRS84, the only CRS the stores
// know, and checked again there. A projected BBOX becomes the polygon it covers (crs.ts).
import { boxRegion, toCrs84, type OfferedCrs, type XY } from '../crs.js';
import type { Expression, Geometry, Position, SpatialOperand } from './ast.js';
import { checkTree, DEFAULT_CQL2_LIMITS } from './bounds.js';
import { Cql2Error } from './errors.js';
import { bboxCorners, bboxProblem, numbers, positionProblem, type SpatialChecks } from './literals.js';

/** Finite, within the CRS's bounds, and a position of CRS84's ranges once transformed. */
export function spatialChecksIn(crs: OfferedCrs): SpatialChecks {
  const back = toCrs84(crs);
  const where = `within ${crs.uri}'s bounds [${crs.bounds.join(', ')}] (its axis order)`;
  return {
    position: (position) => {
      const [a = NaN, b = NaN, ...height] = position;
      const lonLat = back(a, b);
      if (lonLat === null) return `the position ${numbers(position)} is not ${where}`;
      return positionProblem([...lonLat, ...height]);
    },
    bbox: (values) => {
      if (values.length !== 4 && values.length !== 6) return `a BBOX has 4 or 6 numbers, not ${values.length}`;
      const [minA = NaN, minB = NaN, maxA = NaN, maxB = NaN] = bboxCorners(values);
      if (back(minA, minB) === null || back(maxA, maxB) === null || !(minA <= maxA && minB <= maxB)) {
        return `a BBOX is the lowest then the highest value of each axis, ${where}, not ${numbers(values)}`;
      }
      return undefined;
    },
  };
}

/** The region of a box of the CRS (4 or 6 numbers, its axis order) as a CRS84 spatial literal; null outside the CRS's bounds. */
export function boxInCrs84(crs: OfferedCrs, values: readonly number[]): SpatialOperand | null {
  const [minA = NaN, minB = NaN, maxA = NaN, maxB = NaN] = bboxCorners(values);
  const region = boxRegion(crs, [minA, minB, maxA, maxB]);
  if (region.box !== null) {
    const box = values.length === 4 ? [...region.box] : [region.box[0], region.box[1], values[2] ?? 0, region.box[2], region.box[3], values[5] ?? 0];
    return bboxProblem(box) === undefined ? { kind: 'bbox', value: box } : null;
  }
  return region.ring === null ? null : { kind: 'geometry', value: { type: 'Polygon', coordinates: [region.ring.map((p) => [...p])] } };
}

function position(back: (a: number, b: number) => XY | null, [a = NaN, b = NaN, ...height]: Position): Position {
  const lonLat = back(a, b);
  // The parse checked every position with spatialChecksIn: unreachable.
  if (lonLat === null) throw new Cql2Error(`the position [${a}, ${b}] is outside the filter's CRS`);
  return [...lonLat, ...height];
}

function geometryIn(crs: OfferedCrs, geometry: Geometry): Geometry {
  const back = toCrs84(crs);
  const at = (p: Position) => position(back, p);
  switch (geometry.type) {
    case 'Point': return { type: 'Point', coordinates: at(geometry.coordinates) };
    case 'Polygon': return { type: 'Polygon', coordinates: geometry.coordinates.map((ring) => ring.map(at)) };
    case 'MultiPolygon': return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(at))) };
  }
}

function operandIn(crs: OfferedCrs, operand: SpatialOperand): SpatialOperand {
  if (operand.kind === 'property') return operand;
  if (operand.kind === 'geometry') return { kind: 'geometry', value: geometryIn(crs, operand.value) };
  const region = boxInCrs84(crs, operand.value);
  if (region === null) throw new Cql2Error(`The BBOX ${numbers(operand.value)} is outside ${crs.uri}'s bounds.`);
  return region;
}

function expressionIn(crs: OfferedCrs, expression: Expression): Expression {
  switch (expression.kind) {
    case 'and': case 'or': return { kind: expression.kind, args: expression.args.map((arg) => expressionIn(crs, arg)) };
    case 'not': return { kind: 'not', arg: expressionIn(crs, expression.arg) };
    case 'intersects': return { kind: 'intersects', left: operandIn(crs, expression.left), right: operandIn(crs, expression.right) };
    default: return expression;
  }
}

/** The filter's geometry literals in CRS84, the tree's bounds checked again (a projected BBOX adds positions). */
export function filterInCrs84(crs: OfferedCrs, tree: Expression): Expression {
  if (crs.proj === null && crs.axis === 'east-north') return tree;
  const moved = expressionIn(crs, tree);
  checkTree(moved, DEFAULT_CQL2_LIMITS);
  return moved;
}
