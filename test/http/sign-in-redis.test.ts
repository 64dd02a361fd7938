// Failed sign-ins shared in Redis (REDIS_URL, issue 37): two apps on one database stand for two
// processes behind a load balancer. Each alone would allow 10 failures of a name; with Redis
// the tenth failure on either locks the name on both. A Redis that is not there leaves each
// process its own count: sign-in still answers, and still locks. Sign-ups per address and
// device cookies' failures are shared the same way.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { FormClient } from '../support/form-client.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { closedPort, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix, withRedis } from '../support/redis.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';

const guess = (app: TestApp, name: string, i: number) => new FormClient(app).submit('/account/signin', { username: name, password: `wrong guess ${i}` });

await withRedis('sign-in counts in Redis', () => {
  describe('sign-in counts in Redis', () => {
    const prefix = uniqueRedisPrefix();
    let database: TestDatabase;
    let one: TestApp;
    let two: TestApp;
    before(async () => {
      database = createTestDatabase();
      const settings = { contributions: '1', redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix, trustProxy: '1', rateLimitExempt: '' };
      one = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings });
      two = await startTestApp({ catalogue: buildTestCatalogue(), database: { ...database, drop: async () => undefined }, settings });
      assert.equal((await new FormClient(one).submit('/account/signup', { username: 'vic-shared', password: PASSWORD })).status, 303);
    });
    after(async () => {
      await one?.close();
      await two?.close();
      await database?.drop();
      await takeRedisKeys(prefix);
    });

    test('ten failures spread over two processes lock the name on both', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await guess(i % 2 === 0 ? one : two, 'vic-shared', i)).status);
      assert.deepEqual(statuses, Array(10).fill(401), 'five on each: neither process alone reached ten');
      for (const app of [one, two]) {
        const locked = await new FormClient(app).submit('/account/signin', { username: 'vic-shared', password: PASSWORD });
        assert.equal(locked.status, 429, 'the right password too, on either');
        assert.ok(Number(locked.headers['retry-after']) > 800);
      }
      const keys = await takeRedisKeys(prefix);
      assert.ok(keys.some((k) => k === `${prefix}sign-in:name:vic-shared`), keys.join(', '));
    });

    test('sign-ups from one address, spread over two processes: five in all, then 429 on either', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const browser = new FormClient(i % 2 === 0 ? one : two, { 'x-forwarded-for': '203.0.113.60' });
        statuses.push((await browser.submit('/account/signup', { username: `spread-${i}`, password: PASSWORD })).status);
      }
      assert.deepEqual(statuses, [...Array(5).fill(303), 429, 429]);
      const keys = await takeRedisKeys(prefix);
      assert.ok(keys.includes(`${prefix}sign-up:client:203.0.113.60`) && keys.includes(`${prefix}sign-up:site:all`), keys.join(', '));
    });

    test('a device cookie given by one process is trusted by the other, and its failures are counted for both', async () => {
      const owner = new FormClient(one);
      assert.equal((await owner.submit('/account/signup', { username: 'wes-owner', password: PASSWORD })).status, 303);
      for (let i = 0; i < 10; i++) assert.equal((await guess(i % 2 === 0 ? one : two, 'wes-owner', i)).status, 401);
      assert.equal((await new FormClient(two).submit('/account/signin', { username: 'wes-owner', password: PASSWORD })).status, 429, 'locked for other browsers');
      const ownerOnTwo = new FormClient(two);
      for (const [name, value] of owner.cookies) ownerOnTwo.cookies.set(name, value);
      assert.equal((await ownerOnTwo.submit('/account/signin', { username: 'wes-owner', password: PASSWORD })).status, 303, 'the owner\'s browser, on the other process');
      const owners = [ownerOnTwo, new FormClient(one)];
      for (let i = 0; i < 10; i++) {
        for (const [name, value] of ownerOnTwo.cookies) owners[1]!.cookies.set(name, value);
        assert.equal((await owners[i % 2]!.submit('/account/signin', { username: 'wes-owner', password: `wrong ${i}` })).status, 401);
      }
      // Five failures on each: neither process alone has reached the cookie's ten.
      assert.equal((await owners[1]!.submit('/account/signin', { username: 'wes-owner', password: PASSWORD })).status, 429, 'the cookie is distrusted');
      const keys = await takeRedisKeys(prefix);
      assert.ok(keys.some((k) => k.startsWith(`${prefix}sign-in:device:`)), keys.join(', '));
    });
  });
});

describe('sign-in counts with a Redis that is not there', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ settings: { contributions: '1', redisUrl: `redis://127.0.0.1:${await closedPort()}` } });
  });
  after(async () => app?.close());

  test('sign-in still answers, counted per process: ten failures lock the name', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await guess(app, 'nobody-here', i)).status);
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
  });
});
