// An in-memory catalogue (already checked: tests, benchmarks) into a store through the same
// streamed load an import writes with, record by record in file order, in one transaction.
import type { Catalogue } from '../../catalogue/format.js';
import { feedCatalogue } from '../../catalogue/lists.js';
import type { CatalogueStore } from '../store.js';

/** Replaces the whole catalogue: readers see all old or all new. */
export async function replaceCatalogue(store: CatalogueStore, catalogue: Catalogue): Promise<void> {
  const load = await store.beginLoad();
  try {
    feedCatalogue(catalogue, load.sink);
    await load.commit();
  } catch (error) {
    await load.rollback();
    throw error;
  }
}
