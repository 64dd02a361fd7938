// The IIIF face's one read of its own (the rest are the API's: a picture, a building and its
// pictures): the buildings with published pictures, a page of them in id order, for the
// catalogue's IIIF collection. `image_count` is each feature's published pictures, kept on
// its row by the import and every apply (store/apply/catalogue-finish.ts).
import { selectRows, versionPlan, type Plan } from '../read-plans.js';

export interface PicturedBuilding {
  id: number;
  name: string | null;
  address: string;
}

export interface PicturedBuildings {
  version: number;
  /** How many buildings have a published picture. */
  count: number;
  rows: PicturedBuilding[];
}

interface Row {
  id: number | string;
  b_name: string | null;
  address: string;
}

export function* picturedBuildingsPlan(offset: number, limit: number): Plan<PicturedBuildings> {
  const version = yield* versionPlan();
  const counted = yield* selectRows<{ n: number | string }>({ sql: 'SELECT count(*) AS n FROM features WHERE image_count > 0', params: [] });
  const rows = yield* selectRows<Row>({
    sql: 'SELECT id, b_name, address FROM features WHERE image_count > 0 ORDER BY id LIMIT $1 OFFSET $2',
    params: [limit, offset],
  });
  return { version, count: Number(counted[0]?.n ?? 0), rows: rows.map((r) => ({ id: Number(r.id), name: r.b_name, address: r.address })) };
}
