// The URLs `npm run bench -- --peers` asks of our server (bench/peer-urls.ts): within each
// class's `distinct` they are all different, so our answer cache answers none of them, and
// each is a 200 with something in it (a padded id is the same item), on npm start's demo.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue, INIT_DEMO } from '../../src/demo/demo.js';
import { PEER_CLASSES, peerIds } from '../../bench/peer-urls.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const CATALOGUE = generateDemoCatalogue(INIT_DEMO);
const IDS = peerIds(CATALOGUE);

describe('the peers bench\'s URLs', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue: CATALOGUE });
  });
  after(() => t?.close());

  for (const peerClass of PEER_CLASSES) {
    test(`${peerClass.name}: ${peerClass.oneUrl ? 'one URL' : 'distinct URLs'}, each answered with something`, async () => {
      const count = peerClass.oneUrl ? 1 : peerClass.distinct(IDS);
      const urls = Array.from({ length: count }, (_, n) => peerClass.ours(IDS, n));
      assert.equal(new Set(urls).size, count);
      const samples = [...new Set([0, 1, Math.floor(count / 2), count - 1].filter((n) => n < count))];
      for (const n of samples) {
        const answer = await t.request(urls[n]!);
        assert.equal(answer.status, 200, urls[n]);
        assert.ok(peerClass.answered(answer.json()), urls[n]);
        if (peerClass.name === 'single item') assert.equal(answer.json().id, IDS.ids[n % IDS.ids.length], urls[n]);
      }
    });
  }
});
