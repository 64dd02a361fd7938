// The change file between two catalogues (format.ts), such that applying it to the old one
// gives the new one. Both arrive as validated, normalised records (a sink each, so files of
// any size stream through): the old one leaves an id and a digest per record (digests.ts);
// each new record is then added, the same, or changed, and every added or changed one is
// kept aside (spool.ts) to be written in id order. Old ids no new record had are removed.
// Records are compared in their normalised form, so a defaulted `search_str` or `published`
// written out, or a Polygon written as a MultiPolygon, is no change. The text is
// deterministic: lists in catalogue order, `put` by id as export writes records, `remove`
// ids ascending, only non-empty parts.
import { CATALOGUE_LISTS, feedCatalogue, perList, type CatalogueRecord, type CatalogueSink, type ListName } from '../catalogue/lists.js';
import type { Catalogue } from '../catalogue/format.js';
import { DigestTable, digestOf } from './digests.js';
import { CHANGES_FORMAT } from './format.js';
import { MemoryLog, PutSpool } from './spool.js';

/** The old catalogue's records as they pass: digests only. */
export class OldRecords implements CatalogueSink {
  private readonly tables = perList(() => new DigestTable());

  add<L extends ListName>(list: L, record: CatalogueRecord<L>): void {
    this.table(list).add(record.id, digestOf(JSON.stringify(record)));
  }

  /** Every record is in: ready for the new catalogue. */
  seal(): void {
    for (const list of CATALOGUE_LISTS) this.tables[list].seal();
  }

  table(list: ListName): DigestTable {
    return this.tables[list];
  }
}

/** The new catalogue's records as they pass: each added or changed one spooled. */
export class NewRecords implements CatalogueSink {
  constructor(private readonly old: OldRecords, private readonly spool: PutSpool) {}

  add<L extends ListName>(list: L, record: CatalogueRecord<L>): void {
    const text = JSON.stringify(record);
    if (this.old.table(list).match(record.id, digestOf(text)) !== 'same') this.spool.add(list, record.id, text);
  }
}

/** How many records each list puts and removes, filled in as the text is written. */
export type ChangeCounts = Record<ListName, { put: number; remove: number }>;

export function emptyChangeCounts(): ChangeCounts {
  return perList(() => ({ put: 0, remove: 0 }));
}

/** Text is handed on in pieces of about this many characters, not a write per record. */
const PIECE_CHARS = 1 << 16;

/** The change file's text, once both catalogues have passed; `counts` filled in on the way. */
export function* changeFileChunks(old: OldRecords, spool: PutSpool, counts: ChangeCounts = emptyChangeCounts()): Generator<string> {
  yield* inPieces((function* () {
    yield `{"format":${JSON.stringify(CHANGES_FORMAT)}`;
    for (const list of CATALOGUE_LISTS) yield* listText(list, old.table(list).unseen(), spool, counts[list]);
    yield '\n}\n';
  })());
}

/** One list's part of the text, bit by bit; nothing when the list has no change. */
function* listText(list: ListName, removed: Generator<number>, spool: PutSpool, count: ChangeCounts[ListName]): Generator<string> {
  const firstRemoved = removed.next();
  const puts = spool.count(list);
  if (puts === 0 && firstRemoved.done === true) return;
  yield `,\n${JSON.stringify(list)}:{`;
  if (puts > 0) {
    yield '"put":[';
    for (const record of spool.texts(list)) yield `${count.put++ === 0 ? '\n' : ',\n'}${record}`;
    yield '\n]';
  }
  if (firstRemoved.done !== true) {
    yield `${puts > 0 ? ',' : ''}"remove":[${firstRemoved.value}`;
    count.remove++;
    for (const id of removed) {
      yield `,${id}`;
      count.remove++;
    }
    yield ']';
  }
  yield '}';
}

/** Small bits joined into pieces of about PIECE_CHARS: a write per piece, not per record. */
function* inPieces(bits: Iterable<string>): Generator<string> {
  let piece = '';
  for (const bit of bits) {
    piece += bit;
    if (piece.length < PIECE_CHARS) continue;
    yield piece;
    piece = '';
  }
  if (piece !== '') yield piece;
}

/** The change file between two in-memory catalogues (tests, small files): the same path as the command's. */
export function diffCatalogues(old: Catalogue, next: Catalogue): { text: string; counts: ChangeCounts } {
  const oldRecords = new OldRecords();
  feedCatalogue(old, oldRecords);
  oldRecords.seal();
  const spool = new PutSpool(new MemoryLog());
  feedCatalogue(next, new NewRecords(oldRecords, spool));
  const counts = emptyChangeCounts();
  const text = [...changeFileChunks(oldRecords, spool, counts)].join('');
  spool.close();
  return { text, counts };
}

/** `features: 2 put, 1 removed; images: 1 put`, or null when nothing changes. */
export function describeChanges(counts: ChangeCounts): string | null {
  const parts = CATALOGUE_LISTS.flatMap((list) => {
    const { put, remove } = counts[list];
    const said = [put > 0 ? `${put} put` : '', remove > 0 ? `${remove} removed` : ''].filter(Boolean);
    return said.length === 0 ? [] : [`${list}: ${said.join(', ')}`];
  });
  return parts.length === 0 ? null : parts.join('; ');
}
