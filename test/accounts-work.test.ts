// User enumeration by timing (issue 37), told by the work done rather than by a clock: an
// unknown name, a wrong password, a disabled account and the right password each take exactly
// one password check through the hashing gate, and the check of an unknown name runs scrypt
// with the very parameters and lengths of a real account's hash. Over the real store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Accounts } from '../src/accounts/accounts.js';
import { DUMMY_HASH, hashPassword } from '../src/accounts/passwords.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import type { CatalogueStore } from '../src/store/store.js';
import { Gate } from '../src/work/gate.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { importInto } from './support/server.js';
import { createTestDatabase, type TestDatabase } from './support/stores.js';

const PASSWORD = 'a long walk down Brick Lane';

class CountingGate extends Gate {
  runs = 0;
  override async run<R>(work: () => Promise<R>): Promise<R> {
    this.runs += 1;
    return super.run(work);
  }
}

let database: TestDatabase;
let store: CatalogueStore;
before(async () => {
  database = createTestDatabase();
  await importInto(database.settings, buildTestCatalogue());
  store = await openStore(loadConfig(database.settings, {}));
});
after(async () => {
  await store?.close();
  await database?.drop();
});

test('every sign-in check does one password check, whether the name exists or not', async () => {
  const gate = new CountingGate('password checks', { running: 2, waiting: 16, waitMs: 10_000 });
  const accounts = new Accounts(store, gate);
  assert.ok('account' in (await accounts.create('una-known', PASSWORD)));
  assert.ok('account' in (await accounts.create('dee-disabled', PASSWORD)));
  assert.equal(await accounts.disable('dee-disabled'), true);
  for (const [name, password, signsIn] of [
    ['nobody-at-all', PASSWORD, false],
    ['una-known', 'not the password at all', false],
    ['dee-disabled', PASSWORD, false],
    ['una-known', PASSWORD, true],
  ] as const) {
    const before = gate.runs;
    assert.equal((await accounts.check(name, password)) !== null, signsIn, name);
    assert.equal(gate.runs - before, 1, `${name}: one check`);
  }
});

test('an unknown name is checked against a hash of the same parameters and lengths as a real one', async () => {
  const shape = (hash: string) => {
    const [scheme, n, r, p, salt, key] = hash.split('$');
    return { scheme, n, r, p, salt: Buffer.from(salt!, 'base64url').length, key: Buffer.from(key!, 'base64url').length };
  };
  const real = shape(await hashPassword(PASSWORD));
  assert.deepEqual(shape(DUMMY_HASH), real);
  assert.deepEqual([real.scheme, real.n, real.r, real.p], ['scrypt-nfc', String(2 ** 15), '8', '3']);
});
