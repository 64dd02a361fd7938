// The diff's compact tables: the spool of records to put (read back per list in id order,
// from a temporary file in runs of neighbours) and the old records' digests.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { DigestTable, digestOf } from '../../src/changes/digests.js';
import { FileLog, MemoryLog, PutSpool, type ByteLog } from '../../src/changes/spool.js';

/** A record's text of about `size` bytes, with non-ASCII characters so bytes ≠ characters. */
const textOf = (id: number, size: number) => JSON.stringify({ id, note: `ł${'x'.repeat(size)}` });

describe('PutSpool', () => {
  const logs: [string, () => ByteLog][] = [['file', () => new FileLog()], ['memory', () => new MemoryLog()]];
  for (const [name, makeLog] of logs) {
    test(`${name}: each list read back in id order, across runs longer than a read and lists interleaved`, () => {
      const spool = new PutSpool(makeLog());
      // 3,000 records of ~1 KB, ids shuffled by a fixed permutation, two lists interleaved.
      const ids = Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 3000) + 1);
      for (const id of ids) spool.add(id % 2 === 0 ? 'features' : 'images', id, textOf(id, 1000 + (id % 50)));
      // And a run in id order, which is read in ranges of neighbours.
      for (let id = 1; id <= 2000; id++) spool.add('documents', id, textOf(id, 900));
      const expected = (parity: number) => ids.filter((id) => id % 2 === parity).sort((a, b) => a - b).map((id) => textOf(id, 1000 + (id % 50)));
      assert.deepEqual([...spool.texts('features')], expected(0));
      assert.deepEqual([...spool.texts('images')], expected(1));
      assert.deepEqual([...spool.texts('documents')], Array.from({ length: 2000 }, (_, i) => textOf(i + 1, 900)));
      assert.deepEqual([...spool.texts('media')], []);
      assert.equal(spool.count('features'), 1500);
      assert.equal(spool.count('media'), 0);
      spool.close();
    });
  }

  test('the temporary file is removed on close', () => {
    const log = new FileLog();
    log.append(Buffer.from('abc'));
    assert.equal(log.read(1, 2).toString(), 'bc');
    const dir = (log as unknown as { dir: string }).dir;
    assert.ok(fs.existsSync(dir));
    log.close();
    assert.ok(!fs.existsSync(dir));
  });
});

describe('DigestTable', () => {
  test('added, same, changed; unseen ids in id order, whatever the order they came in', () => {
    const table = new DigestTable();
    for (const id of [9, 2, 30, 4, 1]) table.add(id, digestOf(`record ${id}`));
    table.seal();
    assert.equal(table.match(4, digestOf('record 4')), 'same');
    assert.equal(table.match(30, digestOf('record 30, edited')), 'changed');
    assert.equal(table.match(5, digestOf('record 5')), 'added');
    assert.equal(table.match(1, digestOf('record 1')), 'same');
    assert.deepEqual([...table.unseen()], [2, 9]);
  });

  test('an empty table: everything added, nothing unseen', () => {
    const table = new DigestTable();
    table.seal();
    assert.equal(table.match(1, digestOf('x')), 'added');
    assert.deepEqual([...table.unseen()], []);
  });

  test('ids beyond 32 bits are kept exactly', () => {
    const table = new DigestTable();
    const big = Number.MAX_SAFE_INTEGER;
    table.add(big, digestOf('a'));
    table.add(2 ** 32 + 1, digestOf('b'));
    table.seal();
    assert.equal(table.match(2 ** 32 + 1, digestOf('b')), 'same');
    assert.deepEqual([...table.unseen()], [big]);
  });
});
