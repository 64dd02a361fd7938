// The visitors' site's own reads, as the executor runs them (src/work/reads.ts).
import type { PageRequest } from '../../pagination.js';
import type { ReadDeclaration } from '../../work/reads.js';
import { listClass } from '../api/api-reads.js';
import type { Filters } from '../filters.js';
import { searchCardsPlan, yearCountsPlan, type SearchCards, type YearCounts } from './site-plans.js';

/** How many features are of each year (the home page): a grouped read of the year index. */
export const yearCountsRead: ReadDeclaration<[], YearCounts> = {
  name: 'yearCounts',
  plan: () => yearCountsPlan(),
  workClass: () => 'reads',
};

/** The search: /api/v1/features/'s matches and page, as cards; of the class a list of the same filters is (a page by position inline, any filter a costly read). */
export const searchCardsRead: ReadDeclaration<[page: PageRequest, filters: Filters], SearchCards> = {
  name: 'searchCards',
  plan: (dialect, page, filters) => searchCardsPlan(page, filters, dialect),
  workClass: (_page, filters) => listClass(filters),
};
