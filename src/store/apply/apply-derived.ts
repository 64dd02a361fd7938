// The writing half of an apply: the changed records' rows replaced, then only what they
// change derived again: positions from the lowest changed id on, the search text of the
// records whose text draws on them, item counts (and what OGC pages show from other rows,
// catalogue-finish.ts) of the features they hang on, the stored GeoJSON text of every feature
// showing any of it (item-texts.ts), the counts in
// meta, the labels of the streets a changed building is part of or near, and the stored
// tiles that draw a changed feature otherwise (what tiles carry of each, read before and
// after the rows change).
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import { footprintChanged, type TileChange } from '../../tiles/edit.js';
import type { TileFeature } from '../../tiles/encode.js';
import type { ApplyDriver } from './apply-changes.js';
import { readRecords } from './apply-changes.js';
import { REDO_STAGING_TABLE_NAMES, featureShownSql, publishedCount, redoSearchStatements, redoStagingStatements, textTablesOf } from './catalogue-finish.js';
import { ATTACHED_LISTS, CatalogueRowBuilder, type AttachedList } from './catalogue-rows.js';
import { EXTENT_META_KEY, extentPlan, handOver, runAsync, type Plan } from '../read-plans.js';
import { tileFeaturesPlan } from '../tiles/tile-plans.js';
import { keepStreetLabelsPlan } from './street-label-upkeep.js';
import { boundingBox } from '../../search/box.js';
import { foldText } from '../../search/text.js';
import { SET_META } from '../sql.js';
import { writeItemTextsPlan } from './item-texts.js';

/** Per list: the records put that differ from the stored ones, and the stored records they replace or the file removes. */
export type Changed = { [L in ListName]: { put: CatalogueRecord<L>[]; old: CatalogueRecord<L>[] } };

type Positioned = 'features' | AttachedList;
const POSITIONED: readonly Positioned[] = ['features', ...ATTACHED_LISTS];
const ids = (records: readonly { id: number }[]) => records.map((r) => r.id);
/** One value per positioned list, made in this order (features first). */
const perPositioned = <V>(make: (list: Positioned) => V): Record<Positioned, V> => ({
  features: make('features'), images: make('images'), documents: make('documents'), media: make('media'),
});
const union = (...lists: readonly (readonly number[])[]) => [...new Set(lists.flat())].sort((a, b) => a - b);

export async function rederive(driver: ApplyDriver, changed: Changed): Promise<void> {
  const tilesBefore = await drawnBefore(driver, changed);
  const { moved, published } = await replaceRows(driver, changed);
  for (const list of POSITIONED) await renumber(driver, list, moved[list]);
  const affected = await affectedRecords(driver, changed);
  await redoSearch(driver, affected);
  await countItems(driver, affected.counted);
  await run(driver, writeItemTextsPlan(driver.dialect, affected.shown));
  await countRecords(driver, published);
  const tiles = await drawnAfter(driver, changed, tilesBefore);
  if (tiles.some(footprintChanged)) await keepExtent(driver);
  await run(driver, keepStreetLabelsPlan(driver.dialect, ...streetsReached(changed)));
  await driver.refreshTiles(tiles);
}

/**
 * The streets whose labels a change reaches: of every feature added, removed, given another
 * street or moved, its street before and after (by key) and its centre before and after
 * (any street whose labels look that far). Other changes (a document, a name) reach none.
 */
function streetsReached({ features }: Changed): [keys: string[], points: [number, number][]] {
  const old = new Map(features.old.map((f) => [f.id, f]));
  const put = new Map(features.put.map((f) => [f.id, f]));
  const keys = new Set<string>();
  const points: [number, number][] = [];
  for (const f of [...features.old, ...features.put]) {
    const [before, after] = [old.get(f.id), put.get(f.id)];
    const moved = before?.street !== after?.street || JSON.stringify(before?.geometry) !== JSON.stringify(after?.geometry);
    if (!moved) continue;
    if (f.street !== null) keys.add(foldText(f.street));
    const [minX, minY, maxX, maxY] = boundingBox(f.geometry);
    points.push([(minX + maxX) / 2, (minY + maxY) / 2]);
  }
  return [[...keys], points];
}

const run = <R>(driver: ApplyDriver, plan: Plan<R>) => runAsync(plan, async (q) => handOver(q, await driver.query(q.sql, q.params)));

/** What tiles carry of the features put or removed, and of those whose first category is renamed (its name is drawn), before the rows change. */
function drawnBefore(driver: ApplyDriver, changed: Changed): Promise<TileFeature[]> {
  const categories = union(ids(changed.categories.put), ids(changed.categories.old));
  return run(driver, tileFeaturesPlan(driver.dialect, union(ids(changed.features.put), ids(changed.features.old)), categories));
}

/** Each of those features before and after the change, as tiles see it. */
async function drawnAfter(driver: ApplyDriver, changed: Changed, before: readonly TileFeature[]): Promise<TileChange[]> {
  const after = await run(driver, tileFeaturesPlan(driver.dialect, union(ids(before), ids(changed.features.put))));
  const changes = new Map<number, TileChange>(before.map((feature) => [feature.id, { before: feature }]));
  for (const feature of after) changes.set(feature.id, { ...changes.get(feature.id), after: feature });
  return [...changes.values()];
}

/**
 * The old rows out, the new ones in. A record replaced and published before and after keeps
 * its position; any other published one gets -id for now (unique, and out of the way).
 * Returns, per list, the ids whose place among the published changes (renumber from there),
 * and how many more records are published than before (fewer when negative).
 */
async function replaceRows(driver: ApplyDriver, changed: Changed): Promise<{ moved: Record<Positioned, number[]>; published: Record<Positioned, number> }> {
  const d = driver.dialect;
  const kept = new Map<string, number>();
  const moved = new Map<Positioned, number[]>();
  const gained = new Map<Positioned, number>();
  for (const list of POSITIONED) {
    const old = ids(changed[list].old);
    const rows = old.length === 0 ? [] : await driver.query(`SELECT id, position FROM ${list} WHERE ${d.idIn('id', '$1')} AND position IS NOT NULL`, [d.idsParam(old)]);
    for (const row of rows) kept.set(`${list}/${row['id']}`, Number(row['position']));
    const published = (r: CatalogueRecord) => !('published' in r) || r.published;
    const before = new Set(rows.map((r) => Number(r['id'])));
    const after = new Set(changed[list].put.filter(published).map((r) => r.id));
    moved.set(list, union([...before].filter((id) => !after.has(id)), [...after].filter((id) => !before.has(id))));
    gained.set(list, after.size - before.size);
  }
  for (const list of CATALOGUE_LISTS) {
    const old = ids(changed[list].old);
    if (old.length === 0) continue;
    const tables: [string, string][] = list === 'features' ? [['feature_categories', 'feature_id'], ['feature_tags', 'feature_id'], ['features', 'id']] : [[list, 'id']];
    for (const [table, column] of tables) await driver.query(`DELETE FROM ${table} WHERE ${d.idIn(column, '$1')}`, [d.idsParam(old)]);
    if (list === 'features') await driver.deleteBoxes(old);
  }
  const rows = new CatalogueRowBuilder((table, row) => {
    if (table.startsWith('stage_')) return;
    const positioned = POSITIONED.some((list) => list === table) && row['position'] !== null;
    driver.write(table, positioned ? { ...row, position: kept.get(`${table}/${row['id']}`) ?? -Number(row['id']) } : row);
  });
  for (const list of CATALOGUE_LISTS) for (const record of changed[list].put) rows.add(list, record);
  await driver.flush();
  return { moved: perPositioned((list) => moved.get(list) ?? []), published: perPositioned((list) => gained.get(list) ?? 0) };
}

/**
 * Positions from the lowest changed id on: rows below it keep theirs (0 … n-1, unchanged);
 * the rest are numbered on from n in id order, in one pass where uniqueness is checked when
 * the statement ends, else after moving to -id (unique) first.
 */
async function renumber(driver: ApplyDriver, list: Positioned, changedIds: readonly number[]): Promise<void> {
  const from = changedIds[0];
  if (from === undefined) return;
  const perStatement = driver.dialect.positionsCheckedPerStatement;
  // SQLite: rows moved out of the way never collide, so a collision is a defect; OR FAIL stops
  // there (the apply then rolls back whole) and spares SQLite the statement journal, a copy of
  // each page the UPDATE changes in a temporary file (7,300 page writes for one document
  // removed of 10,600 at scale 10, beside the 1,800 pages the change itself writes).
  const update = perStatement ? 'UPDATE' : 'UPDATE OR FAIL';
  if (!perStatement) await driver.query(`${update} ${list} SET position = -id WHERE id >= $1 AND position >= 0`, [from]);
  await driver.query(`${update} ${list} SET position = r.p FROM (
      SELECT id, (SELECT count(*) FROM ${list} WHERE id < $1 AND position IS NOT NULL) + row_number() OVER (ORDER BY id) - 1 AS p
      FROM ${list} WHERE id >= $2 AND position IS NOT NULL) r
    WHERE ${list}.id = r.id AND ${list}.position <> r.p`, [from, from]);
}

interface Affected {
  /** Records whose search text is written again (their list's ids), and those removed (search rows dropped only). */
  search: Record<Positioned, number[]>;
  gone: Record<Positioned, number[]>;
  /** Features whose item_count is counted again. */
  counted: number[];
  /** Features whose stored text is written again (item-texts.ts): what it shows changed. */
  shown: number[];
}

/** What draws on the changed records: a feature's text on its categories' names and its published attachments; an attachment's on its feature's names. */
async function affectedRecords(driver: ApplyDriver, changed: Changed): Promise<Affected> {
  const d = driver.dialect;
  const put = (list: ListName) => ids(changed[list].put);
  const gone = perPositioned((list) => {
    const kept = new Set(put(list));
    return ids(changed[list].old).filter((id) => !kept.has(id));
  });
  const renamed = union(put('categories'), ids(changed.categories.old));
  const inCategories = renamed.length === 0 ? [] : (await driver.query(`SELECT DISTINCT feature_id FROM feature_categories WHERE ${d.idIn('category_id', '$1')}`, [d.idsParam(renamed)])).map((r) => Number(r['feature_id']));
  const attachedTo = ATTACHED_LISTS.flatMap((list) => [...changed[list].put, ...changed[list].old].map((r) => r.feature));
  const removedFeatures = new Set(gone.features);
  const features = union(put('features'), inCategories, attachedTo).filter((id) => !removedFeatures.has(id));
  const attached = new Map<AttachedList, number[]>();
  for (const list of ATTACHED_LISTS) {
    const ofPut = await publishedOf(driver, list, put('features'));
    const removed = new Set(gone[list]);
    attached.set(list, union(put(list), ofPut).filter((id) => !removed.has(id)));
  }
  const search = perPositioned((list) => (list === 'features' ? features : attached.get(list) ?? []));
  const counted = union(put('features'), attachedTo).filter((id) => !removedFeatures.has(id));
  const resited = union(put('sites'), ids(changed.sites.old));
  const onSites = resited.length === 0 ? [] : (await driver.query(`SELECT id FROM features WHERE ${d.idIn('site_id', '$1')}`, [d.idsParam(resited)])).map((r) => Number(r['id']));
  const shown = union(features, onSites).filter((id) => !removedFeatures.has(id));
  return { search, gone, counted, shown };
}

/** Published records of a list attached to these features. */
async function publishedOf(driver: ApplyDriver, list: AttachedList, featureIds: readonly number[]): Promise<number[]> {
  if (featureIds.length === 0) return [];
  const d = driver.dialect;
  const rows = await driver.query(`SELECT id FROM ${list} WHERE ${d.idIn('feature_id', '$1')} AND position IS NOT NULL`, [d.idsParam(featureIds)]);
  return rows.map((r) => Number(r['id']));
}

/**
 * Search rows (and features' joined category names) of the affected records dropped and
 * written again, from their text staged as import stages it (catalogue-rows.ts): the
 * features', with their categories and every published attachment; the attachments', with
 * their features' names.
 */
async function redoSearch(driver: ApplyDriver, affected: Affected): Promise<void> {
  const d = driver.dialect;
  for (const list of POSITIONED) {
    const dropped = union(affected.search[list], affected.gone[list]);
    if (dropped.length === 0) continue;
    for (const table of textTablesOf(list)) await driver.query(`DELETE FROM ${table} WHERE ${d.idIn(d.searchId, '$1')}`, [d.idsParam(dropped)]);
  }
  for (const table of REDO_STAGING_TABLE_NAMES) await driver.query(`DROP TABLE IF EXISTS ${table}`);
  for (const sql of redoStagingStatements(d)) await driver.query(sql);
  await stageText(driver, affected.search);
  for (const list of POSITIONED) for (const id of affected.search[list]) driver.write('stage_redo', { list, id });
  await driver.flush();
  for (const sql of redoSearchStatements(d)) await driver.query(sql);
  for (const table of REDO_STAGING_TABLE_NAMES) await driver.query(`DROP TABLE IF EXISTS ${table}`);
}

/** The staged text those search rows are made of, records fed in id order per list as an exported file would be. */
async function stageText(driver: ApplyDriver, search: Record<Positioned, number[]>): Promise<void> {
  const staging = new CatalogueRowBuilder((table, row) => {
    if (table.startsWith('stage_')) driver.write(table, row);
  });
  const attachments = new Map<AttachedList, CatalogueRecord<AttachedList>[]>();
  for (const list of ATTACHED_LISTS) {
    const wanted = union(search[list], await publishedOf(driver, list, search.features));
    attachments.set(list, await readRecords(driver, list, wanted));
  }
  const attachedTo = [...attachments.values()].flat().map((r) => r.feature);
  const features = await readRecords(driver, 'features', union(search.features, attachedTo));
  const categories = await readRecords(driver, 'categories', union(...features.map((f) => f.categories)));
  for (const record of categories) staging.add('categories', record);
  for (const record of features) staging.add('features', record);
  for (const list of ATTACHED_LISTS) for (const record of attachments.get(list) ?? []) staging.add(list, record);
}

async function countItems(driver: ApplyDriver, featureIds: readonly number[]): Promise<void> {
  if (featureIds.length === 0) return;
  const d = driver.dialect;
  await driver.query(`UPDATE features SET item_count = ${ATTACHED_LISTS.map(publishedCount).join(' + ')} WHERE ${d.idIn('id', '$1')}`, [d.idsParam(featureIds)]);
  await driver.query(featureShownSql(d, d.idIn('id', '$1')), [d.idsParam(featureIds)]);
}

/** Every footprint's extent, kept where the import keeps it (read-plans.ts), once footprints changed. */
async function keepExtent(driver: ApplyDriver): Promise<void> {
  const extent = await runAsync(extentPlan(driver.dialect), ({ sql, params }) => driver.query(sql, params));
  await driver.query(SET_META, [EXTENT_META_KEY, JSON.stringify(extent)]);
}

/**
 * `count.*` in meta as an import writes them (catalogue-finish.ts metaCounts: every feature,
 * published records only), moved by what the change published and withdrew rather than
 * counted again: counting every row of each list was whole-catalogue work in each apply.
 */
async function countRecords(driver: ApplyDriver, published: Record<Positioned, number>): Promise<void> {
  const changed = POSITIONED.filter((list) => published[list] !== 0);
  if (changed.length === 0) return;
  const keys = changed.map((list) => `count.${list}`);
  const rows = await driver.query(`SELECT key, value FROM meta WHERE key IN (${keys.map((_, i) => `$${i + 1}`).join(', ')})`, keys);
  const stored = new Map(rows.map((row) => [String(row['key']), Number(row['value'])]));
  for (const list of changed) {
    const before = stored.get(`count.${list}`);
    const count = before === undefined ? await countRows(driver, list) : before + published[list];
    await driver.query(SET_META, [`count.${list}`, String(count)]);
  }
}

/** A list's count from its rows (after the change): for a file whose meta lacks it. */
async function countRows(driver: ApplyDriver, list: Positioned): Promise<number> {
  const [row] = await driver.query(`SELECT count(*) AS n FROM ${list}${list === 'features' ? '' : ' WHERE position IS NOT NULL'}`);
  return Number(row?.['n'] ?? 0);
}
