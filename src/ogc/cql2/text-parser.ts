// CQL2-Text → AST. The parser is generated from the grammar on the first filter a
// Cql2TextParser reads (peggy.generate, about 0.1 s of CPU, measured by the unit test's
// diagnostic, and peggy's loading as much again), never at import nor at a server's start,
// and no generated code is committed: create one per server and keep it.
import { createRequire } from 'node:module';
import type peggy from 'peggy';
import type { Expression } from './ast.js';
import { checkBracketNesting, checkLength, checkTree, DEFAULT_CQL2_LIMITS, type Cql2Limits } from './bounds.js';
import { Cql2Error, listInWords, quoteInput } from './errors.js';
import { CQL2_TEXT_GRAMMAR, CQL2_TEXT_GRAMMAR_INITIALISER } from './grammar.js';
import { CRS84_CHECKS, dateProblem, ringProblem, stringProblem, timestampProblem, type SpatialChecks } from './literals.js';

export interface Cql2TextParser {
  /**
   * The filter's tree, or a thrown Cql2Error whose message is for the user. `draft`: read
   * the draft dialect `cql-text` too (grammar.ts says what it adds); positions checked by
   * `spatial` (CRS84's when absent).
   */
  parse(text: string, options?: { draft?: boolean; spatial?: SpatialChecks | undefined }): Expression;
}

const MAX_EXPECTED_SHOWN = 8;

/** The checks the grammar's actions call through `options`. */
const LITERAL_CHECKS = {
  checkString: stringProblem,
  checkDate: dateProblem,
  checkTimestamp: timestampProblem,
  checkRing: ringProblem,
};

export function createCql2TextParser(limits: Cql2Limits = DEFAULT_CQL2_LIMITS): Cql2TextParser {
  let parser: peggy.Parser | undefined;
  return {
    parse(text, { draft = false, spatial = CRS84_CHECKS } = {}) {
      checkLength(text, limits);
      checkBracketNesting(text, limits);
      parser ??= generateParser();
      const tree = parseOrExplain(parser, text, draft, spatial);
      checkTree(tree, limits);
      return tree;
    },
  };
}

/** Synchronous, as parse() is: peggy is CommonJS, so require loads it at the first call. */
function generateParser(): peggy.Parser {
  const { generate } = createRequire(import.meta.url)('peggy') as typeof peggy;
  return generate(CQL2_TEXT_GRAMMAR_INITIALISER + CQL2_TEXT_GRAMMAR);
}

function parseOrExplain(parser: peggy.Parser, text: string, draft: boolean, spatial: SpatialChecks): Expression {
  try {
    // The grammar's actions build exactly the shapes of ast.ts.
    return parser.parse(text, { ...LITERAL_CHECKS, draft, checkPosition: spatial.position, checkBBox: spatial.bbox }) as Expression;
  } catch (error) {
    if (error instanceof parser.SyntaxError) throw explain(error, text);
    throw error;
  }
}

function explain(error: peggy.parser.SyntaxError, text: string): Cql2Error {
  const { line, column, offset } = error.location.start;
  const where = `The filter is invalid at line ${line}, column ${column}`;
  if (error.expected === null) {
    // A check of literals.ts failed inside a rule: its sentence is ours.
    return new Cql2Error(`${where}: ${error.message}.`, { position: { line, column, offset } });
  }
  const expected = condense(error.expected);
  return new Cql2Error(`${where}: expected ${listInWords(shown(expected))}, but found ${found(text, offset)}.`, {
    position: { line, column, offset },
    expected,
  });
}

function condense(expectations: readonly peggy.parser.Expectation[]): string[] {
  const words = expectations.map(describe).filter((word): word is string => word !== undefined);
  return [...new Set(words)];
}

function describe(expectation: peggy.parser.Expectation): string | undefined {
  switch (expectation.type) {
    case 'literal': return JSON.stringify(expectation.ignoreCase ? expectation.text.toUpperCase() : expectation.text);
    case 'other': return expectation.description === 'white space' ? undefined : expectation.description;
    case 'end': return 'the end of the filter';
    case 'class': return expectation.parts.length === 1 && expectation.parts[0]?.toString() === '0,9' ? 'a digit' : 'another character';
    case 'any': return 'a character';
  }
}

function shown(expected: readonly string[]): string[] {
  if (expected.length <= MAX_EXPECTED_SHOWN) return [...expected];
  return [...expected.slice(0, MAX_EXPECTED_SHOWN - 1), 'more'];
}

/** The word at the failure, not just its first character. */
function found(text: string, offset: number): string {
  const word = /^(?:[^\s(),'"]+|.)/su.exec(text.slice(offset))?.[0];
  return word === undefined ? 'the end of the filter' : quoteInput(word);
}
