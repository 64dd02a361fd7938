// The demo catalogue generator at scale 10 (demo.test.ts has the rest): some 40,000 features
// made and validated, seconds of work, so in npm run test:slow.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { generateDemoCatalogue } from '../src/demo/demo.js';
import { validateCatalogue } from '../src/catalogue/validate.js';

test('scale 10 gives ~40,000 features, a valid catalogue', () => {
  const c = generateDemoCatalogue({ scale: 10, seed: 3 });
  assert.ok(Math.abs(c.features.length - 40_000) <= 4000, `${c.features.length} features`);
  assert.ok(Math.abs(c.images.length - 30_000) <= 3000, `${c.images.length} images`);
  assert.equal(validateCatalogue(JSON.parse(JSON.stringify(c))).ok, true);
});
