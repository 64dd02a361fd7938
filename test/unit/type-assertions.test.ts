// Types checked, not asserted (issue 46): src/ holds at most this many `as` assertions (but
// `as const`) and non-null assertions, counted by TypeScript's own parse. A new one past
// the bound is a typed row or a narrowing instead.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { countAssertions } from '../support/assertion-count.js';
import { ROOT } from '../support/root.js';

const MOST_AS = 150;
const MOST_NON_NULL = 100;

test(`src/ has at most ${MOST_AS} as-assertions and ${MOST_NON_NULL} non-null assertions`, () => {
  const count = countAssertions(path.join(ROOT, 'src'));
  const worst = count.byFile.slice(0, 5).map((f) => `${f.file} ${f.as}/${f.nonNull}`).join(', ');
  assert.ok(count.as <= MOST_AS, `${count.as} as-assertions (most: ${worst})`);
  assert.ok(count.nonNull <= MOST_NON_NULL, `${count.nonNull} non-null assertions (most: ${worst})`);
});
