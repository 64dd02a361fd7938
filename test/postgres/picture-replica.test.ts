// Issue 45: contributed pictures through a streaming replica (test/support/replica.ts). A
// server reading the replica (contributions off there, as a read-only copy; its own working
// folder, no MEDIA_ROOT) serves a picture approved on the primary's server once the replica
// has replayed the approval: within 1 s of the approval's answer, the same bytes and
// validator, though it had answered 404 for it (cached) while it waited; undone on the
// primary, it is 404 on the replica's server within 1 s too. The times are printed. Both
// servers poll the catalogue version as by default (see test/http/picture-hosts.test.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request } from '../support/http.js';
import type { FormClient } from '../support/form-client.js';
import {
  Door, approvedThenUndone, deskDatabase, pictureUrls, sendPicture, signedIn, startServe, stopServe, type Serve,
} from '../support/picture-desk.js';
import { caughtUp, onReplica } from '../support/replica.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PICTURES = 3;
const WITHIN_MS = 1000;

await onReplica((replica) => {
  let database: TestDatabase;
  let primary: Serve;
  let reading: Serve;
  let contributor: FormClient;
  let editor: FormClient;
  const times: { approved: number[]; undone: number[] } = { approved: [], undone: [] };

  before(async () => {
    database = createTestDatabase('postgres');
    await deskDatabase(database);
    await caughtUp(replica);
    primary = await startServe(database.args);
    reading = await startServe(['--db', replica.url, '--schema', String(database.settings.databaseSchema)], { CONTRIBUTIONS: '0' });
    contributor = await signedIn(new Door(primary.origin), 'pat-photos');
    editor = await signedIn(new Door(primary.origin), 'ed-one');
  });
  after(async () => {
    process.stdout.write(`replica: approved on the primary, served by the replica's server after ${times.approved.map((ms) => ms.toFixed(0)).join(', ')} ms; undone, 404 after ${times.undone.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);
    for (const s of [primary, reading]) if (s) await stopServe(s);
    await database?.drop();
  });

  test(`${PICTURES} pictures approved on the primary are served from the replica within ${WITHIN_MS} ms; undone, 404 there within ${WITHIN_MS} ms`, async () => {
    assert.equal((await request(reading.origin, '/readyz')).json().database, 'replica', 'the second server reads the replica');
    for (let n = 0; n < PICTURES; n++) {
      const picture = await sendPicture(contributor, database, `Replayed ${n}`, n);
      const urls = pictureUrls(picture.upload);
      await caughtUp(replica);
      for (const url of urls) assert.equal((await request(reading.origin, url)).status, 404, 'pending: not public on the replica');
      const { approvedMs, undoneMs } = await approvedThenUndone(editor, picture, primary.origin, reading.origin);
      times.approved.push(approvedMs);
      times.undone.push(undoneMs);
    }
    assert.ok(Math.max(...times.approved) <= WITHIN_MS, `served from the replica within ${WITHIN_MS} ms: ${times.approved.map(Math.round).join(', ')}`);
    assert.ok(Math.max(...times.undone) <= WITHIN_MS, `404 on the replica within ${WITHIN_MS} ms: ${times.undone.map(Math.round).join(', ')}`);
  });
});
