// Each feature's GeoJSON text, as a JSON page writes it with every property and its footprint
// in CRS84 (render/ogc/items.ts storedItemText: the base URL left out), kept on its row
// (`features.item_text`): such a page then reads a few columns a row, not every property, and
// stringifies nothing (bench --peers, SQLite: the bbox page from 416 to 737 answers a second).
// Written for every feature at import and by migration 7, and at apply for the features whose
// records, attachments, categories or site changed (apply-derived.ts).
import { storedItemText } from '../../render/ogc/items.js';
import { binder, type Bind, type Dialect } from '../dialect.js';
import { itemRow } from '../ogc/ogc-plans.js';
import { ogcSql } from '../ogc/ogc-sql.js';
import type { Plan } from '../read-plans.js';

/** What a terminal shows while an import writes them. */
export const ITEM_TEXTS_STEP = 'GeoJSON text of features';

/** Features rendered per statement: a batch's rows and texts are a few MB at the record limits. */
const BATCH = 500;

/** Writes the stored text of the features `ids` names (every feature when null). */
export function* writeItemTextsPlan(dialect: Dialect, ids: readonly number[] | null): Plan<void> {
  if (ids !== null) {
    for (let start = 0; start < ids.length; start += BATCH) {
      const batch = ids.slice(start, start + BATCH);
      yield* writeBatch(dialect, (bind, id) => dialect.idIn(id, bind(dialect.idsParam(batch))));
    }
    return;
  }
  let last: number | null = null;
  for (;;) {
    const after: number | null = last;
    last = yield* writeBatch(dialect, (bind, id) => (after === null ? 'TRUE' : `${id} > ${bind(after)}`));
    if (last === null) return;
  }
}

/** The features `which` selects (at most BATCH, in id order), rendered and written; the last one's id, or null when there was none. */
function* writeBatch(dialect: Dialect, which: (bind: Bind, id: string) => string): Plan<number | null> {
  const sql = ogcSql('features', dialect);
  const id = sql.properties['id']!;
  const { bind, params } = binder();
  const flat = (yield { sql: `SELECT ${sql.select} ${sql.from} AND ${which(bind, id)} ORDER BY ${id} LIMIT ${BATCH}`, params, adHoc: true }) as Record<string, unknown>[];
  if (flat.length === 0) return null;
  const rows = flat.map((found) => itemRow('features', found));
  const update = binder();
  const texts = dialect.idTextRows(rows.map((row): [number, string] => [row.id, storedItemText(row)]), update.bind);
  yield { sql: `UPDATE features SET item_text = u.text FROM ${texts} u WHERE features.id = u.id`, params: update.params, adHoc: true };
  return rows[rows.length - 1]!.id;
}
