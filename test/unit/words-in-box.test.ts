// Words and a box together: which index drives the query (the counts it is told, given by
// hand), and the check of one record's text that SQLite makes when the box drives, with
// the premise about FTS5 it rests on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { beginsWordsOf, foldText } from '../../src/search/text.js';
import { SEARCH_TOKENIZER } from '../../src/store/sqlite/schema.js';
import { POSTGRES_DIALECT, SQLITE_DIALECT, type Dialect } from '../../src/store/dialect.js';
import type { Filters } from '../../src/store/filters.js';
import { FEW_BOX_CANDIDATES, drivingIndex, type Query } from '../../src/store/read-plans.js';

describe('beginsWordsOf: told from the text where no tokeniser can differ, else null', () => {
  const cases: [string, string[], boolean | null, string][] = [
    ['brick lane street', ['street'], true, 'the last word'],
    ['brick lane street', ['bri'], true, 'the first word, as a prefix'],
    ['brick lane street', ['str', 'la'], true, 'every word begins one'],
    ['brick lane street', ['rick'], false, 'inside a word is not the start of one'],
    ['brick lane street', ['street', 'chapel'], false, 'one word missing'],
    ['', ['a'], false, 'no text'],
    ['bjørn street', ['street'], true, 'letters beyond ASCII elsewhere do not matter'],
    ['bjørn street', ['bjo'], false, 'ø is not o to FTS5 either'],
    ['łodz', ['lodz'], false, 'nor ł l'],
    ['crème brick', ['rick'], false, 'inside a word, after an ASCII letter'],
    ['q\u19b0street', ['street'], null, 'right after a letter beyond ASCII: FTS5 splits at U+19B0, a letter to JavaScript'],
    ['øbrick lane', ['brick', 'zzz'], false, 'one word met nowhere decides, whatever the other'],
    ['øbrick lane', ['brick', 'lane'], null, 'the other words met, one undecided'],
    ['οδος', ['οδοσ'], null, 'a word beyond ASCII: FTS5 folds ς to σ'],
    ['cafe', ['café'], null, 'a word beyond ASCII'],
  ];
  for (const [text, words, expected, why] of cases) {
    test(`${JSON.stringify(text)} ${JSON.stringify(words)}: ${String(expected)} (${why})`, () => {
      assert.equal(beginsWordsOf(text, words), expected);
    });
  }
});

// beginsWordsOf's premise about FTS5, for every letter and digit beyond ASCII that folded
// text can hold: FTS5 folds none of them into ASCII and drops none (where it splits at some
// is left to FTS5 itself). A SQLite that breaks it fails here.
test('FTS5 folds no letter beyond ASCII into ASCII, and drops none', () => {
  const db = new Database(':memory:');
  // Each letter alone (rowid: its code point), and between "st" and "reet".
  db.exec(`CREATE VIRTUAL TABLE alone USING fts5(text, ${SEARCH_TOKENIZER}); CREATE VIRTUAL TABLE inside USING fts5(text, ${SEARCH_TOKENIZER})`);
  const [alone, inside] = ['alone', 'inside'].map((t) => db.prepare(`INSERT INTO ${t} (rowid, text) VALUES (?, ?)`));
  let letters = 0;
  db.transaction(() => {
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCodePoint(code);
      if (!/^[\p{L}\p{N}]$/u.test(c) || foldText(c) !== c) continue;
      alone!.run(code, c);
      inside!.run(code, `st${c}reet`);
      letters++;
    }
  })();
  assert.ok(letters > 100_000, `${letters} letters and digits`);
  const matching = (table: string, query: string) =>
    (db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(query) as number[]).map((code) => `U+${code.toString(16)}`);
  for (const ascii of 'abcdefghijklmnopqrstuvwxyz0123456789') assert.deepEqual(matching('alone', `"${ascii}"*`), [], `folded into ${ascii}`);
  assert.deepEqual(matching('inside', '"street"*'), [], 'dropped between st and reet');
  db.close();
});

/** Runs the plan, answering each query's count from `counts` in turn; the result and the queries asked. */
function drive(filters: Filters, dialect: Dialect, counts: number[]): { driving: string; asked: Query[] } {
  const plan = drivingIndex(filters, dialect);
  const asked: Query[] = [];
  let step = plan.next();
  while (!step.done) {
    asked.push(step.value);
    const n = counts[asked.length - 1];
    assert.ok(n !== undefined, `an unexpected query: ${step.value.sql}`);
    step = plan.next([{ n }]);
  }
  assert.equal(asked.length, counts.length, 'every count given was asked for');
  return { driving: step.value, asked };
}

describe('drivingIndex: the box while it holds few footprints, else whichever finds fewer', () => {
  const bbox = [0, 51, 0.1, 51.1] as const;
  const both: Filters = { words: ['street'], bbox };
  for (const [name, dialect] of [['SQLite', SQLITE_DIALECT], ['PostgreSQL', POSTGRES_DIALECT]] as const) {
    test(`${name}: words or a box alone ask nothing`, () => {
      assert.equal(drive({ words: ['street'] }, dialect, []).driving, 'box');
      assert.equal(drive({ bbox }, dialect, []).driving, 'box');
      assert.equal(drive({ yearRange: { from: 1800, to: null } }, dialect, []).driving, 'box');
    });
    test(`${name}: few footprints in the box: the box, without counting the words`, () => {
      const { driving, asked } = drive(both, dialect, [FEW_BOX_CANDIDATES]);
      assert.equal(driving, 'box');
      // Counted one past the limit, so that "more" can be told from "exactly that many".
      assert.equal(asked[0]!.params.at(-1), FEW_BOX_CANDIDATES + 1);
    });
    test(`${name}: many footprints, fewer matches: the words`, () => {
      const { driving, asked } = drive(both, dialect, [FEW_BOX_CANDIDATES + 1, 6_000, 6_001]);
      assert.equal(driving, 'text');
      assert.match(asked[1]!.sql, /_search/);
      assert.equal(asked[2]!.params.at(-1), 6_001);
    });
    test(`${name}: many footprints, as many matches or more: the box`, () => {
      assert.equal(drive(both, dialect, [FEW_BOX_CANDIDATES + 1, 6_000, 6_000]).driving, 'box');
      assert.equal(drive(both, dialect, [FEW_BOX_CANDIDATES + 1, 200_000, 9_000]).driving, 'box');
    });
  }
});
