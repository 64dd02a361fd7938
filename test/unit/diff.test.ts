// The diff logic (src/changes/diff.ts) on in-memory catalogues, through the same sinks and
// text writer the command streams files through. Expected change files are written out by
// hand from each edit; the round trip is checked by a small apply written here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Catalogue } from '../../src/catalogue/format.js';
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../../src/catalogue/lists.js';
import { validateCatalogue } from '../../src/catalogue/validate.js';
import { diffCatalogues } from '../../src/changes/diff.js';
import type { ChangeFile } from '../../src/changes/format.js';
import { buildTestCatalogue } from '../support/catalogue.js';

const EMPTY = '{"format":"heritage-changes/1"\n}\n';

type AnyRecord = CatalogueRecord & Record<string, unknown>;
const records = (c: Catalogue, list: ListName) => c[list] as AnyRecord[];
const diff = (old: Catalogue, next: Catalogue) => JSON.parse(diffCatalogues(old, next).text) as ChangeFile;

/** A string field of each list to edit. */
const EDITED: Record<ListName, string> = {
  authors: 'username', categories: 'name', sites: 'name', features: 'address', images: 'title', documents: 'body', media: 'url',
};

describe('diff: every kind of change in every list', () => {
  for (const list of CATALOGUE_LISTS) {
    test(`${list}: a record added goes to put`, () => {
      const next = buildTestCatalogue();
      const added = { ...records(next, list).at(-1)!, id: 10_000 };
      records(next, list).push(added);
      assert.deepEqual(diff(buildTestCatalogue(), next), { format: 'heritage-changes/1', [list]: { put: [added] } });
    });

    test(`${list}: a record changed goes to put, whole`, () => {
      const next = buildTestCatalogue();
      const changed = records(next, list)[0]!;
      changed[EDITED[list]] = `${String(changed[EDITED[list]])} (edited)`;
      assert.deepEqual(diff(buildTestCatalogue(), next), { format: 'heritage-changes/1', [list]: { put: [changed] } });
    });

    test(`${list}: a record removed goes to remove`, () => {
      const next = buildTestCatalogue();
      const [removed] = records(next, list).splice(0, 1);
      assert.deepEqual(diff(buildTestCatalogue(), next), { format: 'heritage-changes/1', [list]: { remove: [removed!.id] } });
    });
  }

  test('identical catalogues: the empty change file', () => {
    const { text, counts } = diffCatalogues(buildTestCatalogue(), buildTestCatalogue());
    assert.equal(text, EMPTY);
    assert.ok(CATALOGUE_LISTS.every((list) => counts[list].put === 0 && counts[list].remove === 0));
  });

  test('empty to empty, and empty to a catalogue: everything put', () => {
    const empty = (): Catalogue => ({ format: 'heritage-catalogue/1', authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] });
    assert.equal(diffCatalogues(empty(), empty()).text, EMPTY);
    const full = buildTestCatalogue();
    const changes = diff(empty(), full);
    for (const list of CATALOGUE_LISTS) assert.deepEqual(changes[list], { put: [...records(full, list)].sort((a, b) => a.id - b.id) });
    const back = diff(full, empty());
    for (const list of CATALOGUE_LISTS) assert.deepEqual(back[list], { remove: records(full, list).map((r) => r.id).sort((a, b) => a - b) });
  });

  test('a record moved within its list is no change; the order of records in the file does not count', () => {
    const next = buildTestCatalogue();
    next.features.reverse();
    next.images.reverse();
    assert.equal(diffCatalogues(buildTestCatalogue(), next).text, EMPTY);
  });
});

describe('diff: the text', () => {
  test('exact bytes: lists in catalogue order, put by id then remove ascending, only non-empty parts', () => {
    const old = buildTestCatalogue();
    const next = buildTestCatalogue();
    next.media = [next.media[1]!, { ...next.media[0]!, id: 3, title: 'Three' }, { ...next.media[0]!, id: 1, title: 'One' }];
    next.authors = [next.authors[0]!];
    next.sites.push({ id: 2, name: 'Two' });
    const media = (id: number, title: string) => JSON.stringify({ ...old.media[0]!, id, title });
    assert.equal(diffCatalogues(old, next).text, [
      '{"format":"heritage-changes/1",',
      '"authors":{"remove":[5]},',
      '"sites":{"put":[',
      '{"id":2,"name":"Two"}',
      ']},',
      '"media":{"put":[',
      `${media(1, 'One')},`,
      media(3, 'Three'),
      '],"remove":[4]}',
      '}',
      '',
    ].join('\n'));
  });

  test('the counts the command reports', () => {
    const next = buildTestCatalogue();
    next.features.splice(0, 3);
    next.features[0]!.address = 'Elsewhere';
    next.images.push({ ...next.images[0]!, id: 100 }, { ...next.images[0]!, id: 101 });
    const { counts } = diffCatalogues(buildTestCatalogue(), next);
    assert.deepEqual(counts.features, { put: 1, remove: 3 });
    assert.deepEqual(counts.images, { put: 2, remove: 0 });
    assert.deepEqual(counts.authors, { put: 0, remove: 0 });
  });
});

describe('diff: records are compared as normalised, not as written', () => {
  const asFile = () => JSON.parse(JSON.stringify(buildTestCatalogue())) as Record<string, AnyRecord[]>;
  const normalised = (file: unknown): Catalogue => {
    const result = validateCatalogue(file);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    return result.catalogue;
  };
  const cases: { why: string; edit: (file: Record<string, AnyRecord[]>) => void; changes: boolean }[] = [
    { why: 'a defaulted search_str left out (features[1] holds the default)', changes: false,
      edit: (f) => { delete f['features']![1]!['search_str']; } },
    { why: 'a search_str other than the default', changes: true, edit: (f) => { delete f['features']![0]!['search_str']; } },
    { why: 'published: true left out', changes: false, edit: (f) => { delete f['images']![0]!['published']; } },
    { why: 'published: false left out', changes: true, edit: (f) => { delete f['images']![1]!['published']; } },
    { why: 'a one-polygon MultiPolygon written as a Polygon', changes: false,
      edit: (f) => { const g = f['features']![5]!['geometry'] as { type: string; coordinates: unknown[] }; f['features']![5]!['geometry'] = { type: 'Polygon', coordinates: g.coordinates[0] }; } },
    { why: 'keys in another order', changes: false,
      edit: (f) => { f['media']![0] = Object.fromEntries(Object.entries(f['media']![0]!).reverse()) as AnyRecord; } },
    { why: 'a coordinate moved by the last bit', changes: true,
      edit: (f) => { const g = f['features']![5]!['geometry'] as { coordinates: number[][][][] }; g.coordinates[0]![0]![1]![0]! += 1e-16; } },
  ];
  for (const c of cases) {
    test(`${c.why}: ${c.changes ? 'a change' : 'no change'}`, () => {
      const file = asFile();
      c.edit(file);
      const { text } = diffCatalogues(normalised(asFile()), normalised(file));
      if (c.changes) assert.notEqual(text, EMPTY);
      else assert.equal(text, EMPTY);
    });
  }
});

/**
 * A TEST ORACLE, not the product's `apply`: the change file's meaning (changes/format.ts)
 * on an in-memory catalogue — per list, remove the named ids, then put each record in place
 * of the one with its id or as a new one. Lists compared by id, as a store holds them.
 */
function applyOracle(catalogue: Catalogue, changes: ChangeFile): Record<ListName, AnyRecord[]> {
  const result = {} as Record<ListName, AnyRecord[]>;
  for (const list of CATALOGUE_LISTS) {
    const byId = new Map(records(catalogue, list).map((r) => [r.id, r]));
    const change = changes[list] as { put?: AnyRecord[]; remove?: number[] } | undefined;
    for (const id of change?.remove ?? []) byId.delete(id);
    for (const record of change?.put ?? []) byId.set(record.id, record);
    result[list] = [...byId.values()].sort((a, b) => a.id - b.id);
  }
  return result;
}

const byId = (c: Catalogue) => Object.fromEntries(CATALOGUE_LISTS.map((list) => [list, [...records(c, list)].sort((a, b) => a.id - b.id)]));

describe('diff then apply (the oracle) gives the new catalogue', () => {
  /** An edit of one list: remove the record at an index, change one, or add one with a fresh id. */
  const edit = fc.record({
    list: fc.constantFrom(...CATALOGUE_LISTS),
    kind: fc.constantFrom('remove', 'change', 'add'),
    at: fc.nat(),
    text: fc.string(),
  });

  test('for any mix of edits', () => {
    fc.assert(fc.property(fc.array(edit, { maxLength: 30 }), fc.boolean(), (edits, shuffle) => {
      const old = buildTestCatalogue();
      const next = buildTestCatalogue();
      for (const e of edits) {
        const list = records(next, e.list);
        const i = list.length === 0 ? -1 : e.at % list.length;
        if (e.kind === 'remove' && i >= 0) list.splice(i, 1);
        if (e.kind === 'change' && i >= 0) list[i] = { ...list[i]!, [EDITED[e.list]]: e.text };
        if (e.kind === 'add') list.push({ ...records(old, e.list)[0]!, id: 50_000 + e.at, [EDITED[e.list]]: e.text });
      }
      // Ids must stay unique, as a valid file has them.
      for (const list of CATALOGUE_LISTS) (next[list] as AnyRecord[]) = [...new Map(records(next, list).map((r) => [r.id, r])).values()];
      if (shuffle) for (const list of CATALOGUE_LISTS) records(next, list).reverse();
      assert.deepEqual(applyOracle(old, diff(old, next)), byId(next));
    }), { numRuns: 200 });
  });
});
