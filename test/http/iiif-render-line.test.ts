// The renders' line (issue 49): WORK_PICTURES at once, a short line behind them, and a place
// in it given up when its client goes. One render of a large picture is kept running while
// ten other renders wait; their clients close their connections; the line (as /metrics counts
// it) empties while the first render is still being made, and that one is still answered.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from '../support/http.js';
import { iiifCatalogue } from '../support/iiif-catalogue.js';
import { largePhotograph } from '../support/large-picture.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const PICTURE = { id: 2, file: 'uploads/features/1/large.jpg' };
const WAITING = 'heritage_gate_turns{gate="picture renders",state="waiting"}';
const RUNNING = 'heritage_gate_turns{gate="picture renders",state="running"}';

let t: TestServer;

async function gauge(series: string): Promise<number> {
  const line = (await request(t.origin, '/metrics')).text.split('\n').find((l) => l.startsWith(`${series} `));
  return Number(line?.slice(series.length + 1) ?? NaN);
}

/** Polls the gauge until `wanted` holds, at most `ms`: what it read last. */
async function until(series: string, wanted: (value: number) => boolean, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let value = await gauge(series);
  while (!wanted(value) && Date.now() < end) {
    await new Promise((resolve) => setImmediate(resolve));
    value = await gauge(series);
  }
  return value;
}

before(async () => {
  const media = temporaryDir();
  fs.mkdirSync(path.join(media, path.dirname(PICTURE.file)), { recursive: true });
  fs.writeFileSync(path.join(media, PICTURE.file), await largePhotograph(6000, 4000));
  const catalogue = iiifCatalogue();
  const images = [{ ...catalogue.images[0]!, id: PICTURE.id, file: PICTURE.file, published: true }];
  t = await startTestServer({ catalogue: { ...catalogue, images }, settings: { mediaRoot: media, workPictures: '1', iiifCacheMb: '0' } });
});
after(async () => t?.close());

describe('the renders\' line', () => {
  test('renders whose clients have gone leave the line; the one being made is still answered', async () => {
    // Gray PNG at its largest: the slowest render of the picture, about a second on an idle
    // machine, and many more at nice 19 beside npm test's other files.
    let firstDone = false;
    const first = request(t.origin, `/iiif/3/${PICTURE.id}/full/max/0/gray.png`, { timeoutMs: 120_000 }).then((answer) => {
      firstDone = true;
      return answer;
    });
    assert.equal(await until(RUNNING, (n) => n === 1, 60_000), 1, 'the first render holds the only turn');
    const agent = new http.Agent({ keepAlive: false });
    const leaving = [0, 90, 180, 270, '!0', '!90', '!180', '!270', 0, 90].map((rotation, i) => {
      const format = i < 8 ? 'png' : 'webp';
      return http.get(`${t.origin}/iiif/3/${PICTURE.id}/full/max/${rotation}/default.${format}`, { agent }).on('error', () => undefined);
    });
    assert.equal(await until(WAITING, (n) => n === 10, 30_000), 10, 'ten renders wait their turn');
    for (const client of leaving) client.destroy();
    const left = await until(WAITING, (n) => n === 0, 5_000);
    assert.equal(left, 0, 'their places given up');
    assert.equal(firstDone, false, 'before the first render is made: they did not wait for it');
    const answer = await first;
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'image/png');
  });
});
