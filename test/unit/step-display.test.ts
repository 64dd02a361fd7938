import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatStep, StepDisplay, type ProgressOutput } from '../../src/cli/report.js';

/** An output whose clock the test moves, recording what is written. */
function fakeOutput(tty: boolean): ProgressOutput & { written: string[]; clock: number } {
  const out = { tty, columns: 60, written: [] as string[], clock: 1000, write: (text: string) => out.written.push(text), now: () => out.clock };
  return out;
}

describe('formatStep', () => {
  const cases = [
    { done: 0, total: 9, step: 'positions', ms: 0, expected: 'Finishing: step 1 of 9, positions, 0.0 s' },
    { done: 3, total: 9, step: 'search text of features', ms: 12_345, expected: 'Finishing: step 4 of 9, search text of features, 12.3 s' },
    { done: 8, total: 9, step: 'commit', ms: 16_100, expected: 'Finishing: step 9 of 9, commit, 16.1 s' },
    { done: 9, total: 9, step: 'commit', ms: 16_100, expected: 'Finishing: step 9 of 9, commit, 16.1 s' },
  ];
  for (const c of cases) test(c.expected, () => assert.equal(formatStep('Finishing', c.done, c.total, c.step, c.ms), c.expected));
});

describe('StepDisplay', () => {
  test('on a terminal: one line redrawn as each step begins, then the total time, left in place', () => {
    const out = fakeOutput(true);
    const display = new StepDisplay('Finishing', out);
    display.update(0, 3, 'counts');
    out.clock += 2500;
    display.update(1, 3, 'search text of features and of everything else attached to them');
    out.clock += 500;
    display.update(2, 3, 'commit');
    display.finish();
    assert.deepEqual(out.written, [
      '\r\x1b[KFinishing: step 1 of 3, counts, 0.0 s',
      // Cut to the terminal's 60 columns, less one so the cursor stays on the line.
      '\r\x1b[KFinishing: step 2 of 3, search text of features and of ever',
      '\r\x1b[KFinishing: step 3 of 3, commit, 3.0 s',
      '\r\x1b[KFinishing: 3 steps, 3.0 s\n',
    ]);
  });

  test('anything but a terminal gets nothing: the outcome line follows', () => {
    const out = fakeOutput(false);
    const display = new StepDisplay('Finishing', out);
    display.update(0, 2, 'counts');
    display.update(1, 2, 'commit');
    display.finish();
    assert.deepEqual(out.written, []);
  });

  test('a load refused before finishing (no step began) leaves no line on a terminal', () => {
    const out = fakeOutput(true);
    new StepDisplay('Finishing', out).finish();
    assert.deepEqual(out.written, []);
  });
});
