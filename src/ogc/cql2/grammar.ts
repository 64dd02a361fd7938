// The CQL2-Text grammar (peggy), written from the BNF of OGC 21-065 (CQL2 1.0.0,
// `cql2/standard/schema/cql2.bnf`) for the classes this server meets: basic-cql2,
// advanced-comparison-operators, case-insensitive-comparison, basic-spatial-functions
// (POINT and BBOX, plus POLYGON and MULTIPOLYGON from basic-spatial-functions-plus).
// Arithmetic, functions, ACCENTI, temporal and array predicates are left out, so they fail
// as syntax errors naming what was expected instead.
//
// Kept as a TypeScript string rather than a .peggy file so that the compiled server finds
// it without a copy step; `text-parser.ts` hands it to peggy.generate() once per parser.
// Keywords are case-insensitive (the standard's own examples write `and`, `date(`,
// `s_intersects`). One parser reads two dialects: with `options.draft` (filter-lang
// `cql-text`, the draft name GDAL up to 3.6 sends) it also takes the draft's `a ILIKE 'p'`,
// read as CASEI(a) LIKE CASEI('p'), and its dates in quotes (DraftInstant); CQL2 itself
// refuses ILIKE as a syntax error and reads those dates as strings. Actions call `options.check*`, the checks of `literals.ts`, so the
// text and JSON readers share one definition of a valid string, date, timestamp, position,
// ring and BBOX.
export const CQL2_TEXT_GRAMMAR = String.raw`
Filter = _ @OrExpression _

OrExpression
  = head:AndExpression tail:(_ OR _ @AndExpression)*
    { return tail.length === 0 ? head : { kind: "or", args: [head, ...tail] }; }

AndExpression
  = head:BooleanFactor tail:(_ AND _ @BooleanFactor)*
    { return tail.length === 0 ? head : { kind: "and", args: [head, ...tail] }; }

BooleanFactor
  = NOT _ arg:BooleanPrimary { return { kind: "not", arg }; }
  / BooleanPrimary

BooleanPrimary
  = "(" _ @OrExpression _ ")"
  / Predicate
  / BooleanLiteral

Predicate
  = SpatialPredicate
  / value:Scalar _ complete:PredicateTail { return complete(value); }

// The left operand is read once; each tail returns the predicate built around it.
PredicateTail
  = IS _ not:(NOT _)? NULL
    { return (value) => negateIf(not, { kind: "isNull", value }); }
  / not:(NOT _)? LIKE _ pattern:Pattern
    { return (value) => negateIf(not, { kind: "like", value, pattern }); }
  / &{ return options.draft === true; } not:(NOT _)? ILIKE _ pattern:StringLiteral
    { return (value) => negateIf(not, { kind: "like", value: { kind: "casei", arg: value }, pattern: { kind: "casei", arg: pattern } }); }
  / not:(NOT _)? BETWEEN _ low:Scalar _ AND _ high:Scalar
    { return (value) => negateIf(not, { kind: "between", value, low, high }); }
  / not:(NOT _)? IN _ "(" _ head:Scalar tail:(_ "," _ @Scalar)* _ ")"
    { return (value) => negateIf(not, { kind: "in", value, list: [head, ...tail] }); }
  / op:ComparisonOperator _ right:Scalar
    { return (left) => ({ kind: "compare", op, left, right }); }

ComparisonOperator "a comparison operator"
  = "<>" / "<=" / ">=" / "=" / "<" / ">"

Pattern
  = CASEI _ "(" _ arg:Pattern _ ")" { return { kind: "casei", arg }; }
  / StringLiteral

Scalar "a value"
  = CaseI
  / &{ return options.draft === true; } @DraftInstant
  / StringLiteral
  / NumberLiteral
  / DateLiteral
  / TimestampLiteral
  / BooleanLiteral
  / UnsupportedFunction
  / Property

// A name followed by a bracket that is none of the served functions: said plainly rather
// than as "expected an operator, found (".
UnsupportedFunction
  = !(Reserved / CASEI / DATE / TIMESTAMP / S_INTERSECTS / POINT / POLYGON / MULTIPOLYGON / BBOX) name:$Identifier _ "("
    { error(name + "(…) is not supported: the functions are CASEI, DATE, TIMESTAMP and S_INTERSECTS, and the geometries POINT, POLYGON, MULTIPOLYGON and BBOX"); }

CaseI
  = CASEI _ "(" _ arg:(CaseI / StringLiteral / Property / CaseIArgumentError) _ ")" { return { kind: "casei", arg }; }

// Inside the named rule Scalar failures are silent, so a wrong argument is said here.
CaseIArgumentError
  = "" { error("CASEI takes a string in single quotes, a property name or another CASEI"); }

Property "a property name"
  = '"' name:$Identifier '"' { return { kind: "property", name }; }
  / !Reserved name:$Identifier { return { kind: "property", name }; }

Identifier = IdentifierStart IdentifierPart*
IdentifierStart
  = [:_A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFE\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]
  / [\u{10000}-\u{EFFFF}]u
IdentifierPart = IdentifierStart / [.0-9\u0300-\u036F\u203F-\u2040]

Reserved = (AND / OR / NOT / LIKE / BETWEEN / IN / IS / NULL / TRUE / FALSE)

StringLiteral "a string in single quotes"
  = "'" chars:StringCharacter* "'" { const value = chars.join(""); return checked(options.checkString(value), { kind: "string", value }); }
StringCharacter
  = "''" { return "'"; }
  / "\\" char:[abtnvfr'\\] { return ESCAPES[char]; }
  / [^']

// The draft dialect's dates as GDAL 3.6 writes them: quoted, '2015-01-01T' for a date,
// '2015-01-01T10Z', '…T10:30Z' or '…T10:30:00Z' for an instant. Only GDAL writes these
// shapes, so a text property is not expected to be compared with one.
DraftInstant
  = "'" date:$([0-9][0-9][0-9][0-9] "-" [0-9][0-9] "-" [0-9][0-9]) "T" time:DraftTime? "'" !"'"
    {
      if (time === null) return checked(options.checkDate(date), { kind: "date", value: date });
      const value = date + "T" + time + "Z";
      return checked(options.checkTimestamp(value), { kind: "timestamp", value });
    }
DraftTime = h:$([0-9][0-9]) m:(":" @$([0-9][0-9]))? s:(":" @$([0-9][0-9]))? "Z" { return h + ":" + (m ?? "00") + ":" + (s ?? "00"); }

NumberLiteral "a number"
  = Number { return { kind: "number", value: Number(text()) }; }
Number = [+-]? (Digits ("." Digits?)? / "." Digits) ([eE] [+-]? Digits)?
Digits = [0-9]+

DateLiteral
  = DATE _ "(" _ "'" value:$[^']* "'" _ ")" { return checked(options.checkDate(value), { kind: "date", value }); }
TimestampLiteral
  = TIMESTAMP _ "(" _ "'" value:$[^']* "'" _ ")" { return checked(options.checkTimestamp(value), { kind: "timestamp", value }); }

BooleanLiteral "TRUE or FALSE"
  = TRUE { return { kind: "boolean", value: true }; }
  / FALSE { return { kind: "boolean", value: false }; }

SpatialPredicate
  = S_INTERSECTS _ "(" _ left:SpatialOperand _ "," _ right:SpatialOperand _ ")"
    { return { kind: "intersects", left, right }; }

SpatialOperand = SpatialLiteral / UnsupportedFunction / Property

SpatialLiteral "a POINT, POLYGON, MULTIPOLYGON or BBOX"
  = POINT (_ Z)? _ "(" _ coordinates:Coordinates _ ")"
    { return { kind: "geometry", value: { type: "Point", coordinates } }; }
  / POLYGON (_ Z)? _ coordinates:PolygonText
    { return { kind: "geometry", value: { type: "Polygon", coordinates } }; }
  / MULTIPOLYGON (_ Z)? _ "(" _ head:PolygonText tail:(_ "," _ @PolygonText)* _ ")"
    { return { kind: "geometry", value: { type: "MultiPolygon", coordinates: [head, ...tail] } }; }
  / BBOX _ "(" _ head:SignedNumber tail:(_ "," _ @SignedNumber)* _ ")"
    { const value = [head, ...tail]; return checked(options.checkBBox(value), { kind: "bbox", value }); }

PolygonText = "(" _ head:Ring tail:(_ "," _ @Ring)* _ ")" { return [head, ...tail]; }
Ring
  = "(" _ head:Coordinates tail:(_ "," _ @Coordinates)* _ ")"
    { const ring = [head, ...tail]; return checked(options.checkRing(ring), ring); }
Coordinates "coordinates"
  = x:SignedNumber __ y:SignedNumber z:(__ @SignedNumber)?
    { const position = z === null ? [x, y] : [x, y, z]; return checked(options.checkPosition(position), position); }
SignedNumber = Number { return Number(text()); }

AND = "AND"i !IdentifierPart
OR = "OR"i !IdentifierPart
NOT = "NOT"i !IdentifierPart
LIKE = "LIKE"i !IdentifierPart
ILIKE = "ILIKE"i !IdentifierPart
BETWEEN = "BETWEEN"i !IdentifierPart
IN = "IN"i !IdentifierPart
IS = "IS"i !IdentifierPart
NULL = "NULL"i !IdentifierPart
TRUE = "TRUE"i !IdentifierPart
FALSE = "FALSE"i !IdentifierPart
CASEI = "CASEI"i !IdentifierPart
DATE = "DATE"i !IdentifierPart
TIMESTAMP = "TIMESTAMP"i !IdentifierPart
S_INTERSECTS = "S_INTERSECTS"i !IdentifierPart
POINT = "POINT"i !IdentifierPart
POLYGON = "POLYGON"i !IdentifierPart
MULTIPOLYGON = "MULTIPOLYGON"i !IdentifierPart
BBOX = "BBOX"i !IdentifierPart
Z = "Z"i !IdentifierPart

_ "white space" = Space*
__ "white space" = Space+
Space = [\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]
`;

/** Code the generated parser runs before parsing: helpers of the actions above. */
export const CQL2_TEXT_GRAMMAR_INITIALISER = String.raw`{{
const ESCAPES = { a: "\x07", b: "\b", t: "\t", n: "\n", v: "\v", f: "\f", r: "\r", "'": "'", "\\": "\\" };
function negateIf(not, predicate) { return not === null ? predicate : { kind: "not", arg: predicate }; }
}}
{
function checked(problem, value) { if (problem !== undefined) error(problem); return value; }
}
`;
