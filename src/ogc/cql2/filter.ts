// The `filter` and `filter-lang` parameters of OGC API – Features Part 3 → one AST: what
// the items route calls. Create one reader per server: it holds the generated parser.
import type { Expression } from './ast.js';
import { DEFAULT_CQL2_LIMITS, type Cql2Limits } from './bounds.js';
import { Cql2Error } from './errors.js';
import type { SpatialChecks } from './literals.js';
import { parseCql2Json } from './json-reader.js';
import { createCql2TextParser } from './text-parser.js';

/**
 * `cql-text`: the draft name of CQL2 text, which GDAL's OAPIF driver (up to 3.6) looks for in
 * the API definition's `filter-lang` enum before it sends a `-where` to the server; read as a
 * dialect of CQL2 text (grammar.ts).
 */
export const FILTER_LANGUAGES = ['cql2-text', 'cql2-json', 'cql-text'] as const;
export type FilterLanguage = (typeof FILTER_LANGUAGES)[number];

export interface Cql2Reader {
  /**
   * `language` is the `filter-lang` value; cql2-text when the parameter is absent. `spatial`:
   * the checks of positions and BBOXes in the filter's CRS (CRS84's when absent).
   */
  read(filter: string, language?: string, spatial?: SpatialChecks): Expression;
}

export function createCql2Reader(limits: Cql2Limits = DEFAULT_CQL2_LIMITS): Cql2Reader {
  const text = createCql2TextParser(limits);
  return {
    read(filter, language = 'cql2-text', spatial = undefined) {
      if (language === 'cql2-text') return text.parse(filter, { spatial });
      if (language === 'cql-text') return text.parse(filter, { spatial, draft: true });
      if (language === 'cql2-json') return parseCql2Json(filter, limits, spatial);
      throw new Cql2Error(`The filter language ${JSON.stringify(language)} is not supported; use ${FILTER_LANGUAGES.map((l) => JSON.stringify(l)).join(', ')}.`);
    },
  };
}
