// The one AST of a CQL2 filter, whether it was written as CQL2-Text or CQL2-JSON.
// `x NOT LIKE p`, `x NOT IN (…)`, `x NOT BETWEEN …` and `x IS NOT NULL` are read as
// `not` around the positive predicate, as CQL2-JSON writes them, so both encodings of one
// filter give equal trees.

export interface PropertyRef { readonly kind: 'property'; readonly name: string }
export interface StringLiteral { readonly kind: 'string'; readonly value: string }
export interface NumberLiteral { readonly kind: 'number'; readonly value: number }
export interface BooleanLiteral { readonly kind: 'boolean'; readonly value: boolean }
/** `YYYY-MM-DD`, checked against the calendar. */
export interface DateLiteral { readonly kind: 'date'; readonly value: string }
/** `YYYY-MM-DDThh:mm:ss[.f]Z`, as written. */
export interface TimestampLiteral { readonly kind: 'timestamp'; readonly value: string }
/** CASEI(…) of a string literal, a property or another CASEI. */
export interface CaseInsensitive { readonly kind: 'casei'; readonly arg: Scalar }

export type Literal = StringLiteral | NumberLiteral | BooleanLiteral | DateLiteral | TimestampLiteral;
export type Scalar = PropertyRef | Literal | CaseInsensitive;

export type Position = readonly number[];
export interface PointGeometry { readonly type: 'Point'; readonly coordinates: Position }
export interface PolygonGeometry { readonly type: 'Polygon'; readonly coordinates: readonly (readonly Position[])[] }
export interface MultiPolygonGeometry {
  readonly type: 'MultiPolygon';
  readonly coordinates: readonly (readonly (readonly Position[])[])[];
}
/** A GeoJSON geometry of the kinds a filter may hold (basic spatial classes + polygons). */
export type Geometry = PointGeometry | PolygonGeometry | MultiPolygonGeometry;
export interface GeometryLiteral { readonly kind: 'geometry'; readonly value: Geometry }
/** 4 numbers (west, south, east, north) or 6 (with the lowest and highest elevation). */
export interface BBoxLiteral { readonly kind: 'bbox'; readonly value: readonly number[] }
export type SpatialLiteral = GeometryLiteral | BBoxLiteral;
export type SpatialOperand = PropertyRef | SpatialLiteral;

export type ComparisonOperator = '=' | '<>' | '<' | '>' | '<=' | '>=';
export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['=', '<>', '<', '>', '<=', '>='];

export interface And { readonly kind: 'and'; readonly args: readonly Expression[] }
export interface Or { readonly kind: 'or'; readonly args: readonly Expression[] }
export interface Not { readonly kind: 'not'; readonly arg: Expression }
export interface Comparison {
  readonly kind: 'compare';
  readonly op: ComparisonOperator;
  readonly left: Scalar;
  readonly right: Scalar;
}
/** `pattern` is a string literal or CASEI of one (the BNF's patternExpression). */
export interface Like { readonly kind: 'like'; readonly value: Scalar; readonly pattern: Scalar }
export interface Between { readonly kind: 'between'; readonly value: Scalar; readonly low: Scalar; readonly high: Scalar }
export interface In { readonly kind: 'in'; readonly value: Scalar; readonly list: readonly Scalar[] }
export interface IsNull { readonly kind: 'isNull'; readonly value: Scalar }
export interface Intersects { readonly kind: 'intersects'; readonly left: SpatialOperand; readonly right: SpatialOperand }

export type Expression = And | Or | Not | Comparison | Like | Between | In | IsNull | Intersects | BooleanLiteral;

/** Every node of the tree, for the bounds. */
export type Node = Expression | Scalar | SpatialLiteral;

export function childrenOf(node: Node): readonly Node[] {
  switch (node.kind) {
    case 'and': case 'or': return node.args;
    case 'not': return [node.arg];
    case 'compare': return [node.left, node.right];
    case 'like': return [node.value, node.pattern];
    case 'between': return [node.value, node.low, node.high];
    case 'in': return [node.value, ...node.list];
    case 'isNull': return [node.value];
    case 'intersects': return [node.left, node.right];
    case 'casei': return [node.arg];
    default: return [];
  }
}
