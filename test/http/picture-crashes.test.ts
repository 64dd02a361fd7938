// Issue 45: kill -9 of a `serve` process at random points of a picture's upload, approval,
// rejection and undo, 20 kills each, on either store (PostgreSQL: the twin in
// test/postgres/). Each request is sent, and the process killed a random delay later (0 to
// twice what that request takes here on a new process, measured first; seeded: the seed is printed, and
// PICTURE_CRASH_SEED=N replays it). After each kill another process on the same database
// (started while the killed one worked, so no restart is waited for) finds the store and what
// is served in agreement: the request took effect whole or not at all (and did if it was
// answered), every pending picture has its three sizes and is not public, a rejected one has
// none, a published one is served 200 while its record shows it and 404 once undone, no size
// is kept without its contribution, and no image record under contributions/ is published
// without its picture. At the end a new process checks every picture the same way.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseRows } from '../support/database-rows.js';
import type { FormClient } from '../support/form-client.js';
import { request, type Answer } from '../support/http.js';
import {
  ALL_SIZES, Door, approvedRecord, decide, deskDatabase, imageContributions, keptSizes, pictureForm, pictureUrls, reviewOf, seeded, sendPicture,
  signedIn, startServe, stopServe, killServe, tinyJpeg, undoForm, type Sent, type Serve,
} from '../support/picture-desk.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../support/stores.js';

const KILLS = 20;
const KINDS = ['upload', 'approve', 'reject', 'undo'] as const;
type Kind = (typeof KINDS)[number];

const SEED = Number(process.env.PICTURE_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe(`${testStoreKind()}: kill -9 during a picture's upload, approval, rejection, undo`, () => {
  let database: TestDatabase;
  let victim: Serve;
  let standby: Promise<Serve>;
  const door = new Door('http://127.0.0.1:1');
  let contributor: FormClient;
  let editor: FormClient;
  const random = seeded(SEED);
  let sent = 0;
  const started: Serve[] = [];

  const serve = () => {
    const starting = startServe(database.args);
    void starting.then((s) => started.push(s), () => undefined);
    return starting;
  };
  /** The standby takes over; the next one starts meanwhile. */
  const takeOver = async () => {
    victim = await standby;
    door.origin = victim.origin;
    standby = serve();
  };

  before(async () => {
    process.stdout.write(`${testStoreKind()}: PICTURE_CRASH_SEED=${SEED}\n`);
    database = createTestDatabase();
    await deskDatabase(database);
    standby = serve();
    await takeOver();
    contributor = await signedIn(door, 'pat-photos');
    editor = await signedIn(door, 'ed-one');
  });
  after(async () => {
    for (const s of started) await stopServe(s);
    await database?.drop();
  });

  const send = () => sendPicture(contributor, database, `Crash ${++sent}`, sent);
  const approve = async (picture: Sent) => approvedRecord(await decide.approve(editor, picture.id, await reviewOf(editor, picture.id), picture.title));

  /** What each kind does up to the request that is killed: that request, ready to send, and the picture it is about (an upload: its title). */
  const prepare: Record<Kind, () => Promise<{ fire: () => Promise<Answer>; title: string }>> = {
    upload: async () => {
      const title = `Crash ${++sent}`;
      const form = await pictureForm(contributor, title, await tinyJpeg(sent));
      return { title, fire: () => contributor.postMultipart('/contribute/1/image', form) };
    },
    approve: async () => {
      const picture = await send();
      const review = await reviewOf(editor, picture.id);
      return { title: picture.title, fire: () => decide.approve(editor, picture.id, review, picture.title) };
    },
    reject: async () => {
      const picture = await send();
      const review = await reviewOf(editor, picture.id);
      return { title: picture.title, fire: () => decide.reject(editor, picture.id, review) };
    },
    undo: async () => {
      const picture = await send();
      const form = await undoForm(editor, await approve(picture));
      return { title: picture.title, fire: () => editor.post(form.action, { csrf: form.csrf }) };
    },
  };

  /** What a request took effect as, read in the store: whole, or not at all. */
  const tookEffect = async (kind: Kind, title: string): Promise<boolean> => {
    const [found] = (await imageContributions(database)).filter((c) => c.title === title);
    if (kind === 'upload') return found !== undefined;
    assert.ok(found, `the contribution ${title}`);
    if (kind === 'approve') return found.state === 'published';
    if (kind === 'reject') return found.state === 'rejected';
    const records = await databaseRows(database, 'SELECT id FROM images WHERE id = $1', [found.recordId]);
    const undone = await databaseRows(database, "SELECT id FROM record_changes WHERE list = 'images' AND record_id = $1 AND what LIKE 'undid change %'", [found.recordId]);
    assert.equal(records.length + undone.length, 1, 'either the record or its undo');
    assert.equal(found.state, undone.length === 1 ? 'withdrawn' : 'published', 'the contribution follows its record, in the same transaction');
    return undone.length === 1;
  };

  /** Milliseconds each kind's request takes here, unkilled (the longest of three, which vary much): the delays span twice it. */
  const spans = new Map<Kind, number>();
  const tally = new Map<string, number>();
  after(() => {
    process.stdout.write(`${testStoreKind()}: kill delays up to ${[...spans].map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`).join(', ')}; PICTURE_CRASH_SEED=${SEED}\n`);
    for (const [key, n] of tally) process.stdout.write(`${testStoreKind()} ${key}: ${n}\n`);
  });

  test('each request timed unkilled, on a process as new as the killed ones, to spread the kills over it', async () => {
    for (const kind of KINDS) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { fire } = await prepare[kind]();
        const start = performance.now();
        const answer = await fire();
        times.push(performance.now() - start);
        assert.equal(answer.status, 303, `${kind}: ${answer.text.slice(0, 200)}`);
        // The next request goes to a new process, as after a kill (an upload's starts the picture process).
        const old = victim;
        await takeOver();
        await stopServe(old);
      }
      spans.set(kind, 2 * Math.max(...times));
    }
  });

  for (const kind of KINDS) {
    test(`${KILLS} kills during ${kind}s: each whole or not at all, the store and what is served agree`, async () => {
      for (let k = 0; k < KILLS; k++) {
        const { fire, title } = await prepare[kind]();
        const delay = random() * spans.get(kind)!;
        let answer: Answer | string = 'no answer';
        const request = fire().then((a) => (answer = a), (error: Error) => (answer = error.message));
        await new Promise((resolve) => setTimeout(resolve, delay));
        await killServe(victim);
        await request;
        await takeOver();
        const effect = await tookEffect(kind, title);
        const said = typeof answer === 'string' ? 'no answer' : String((answer as Answer).status);
        const why = `${kind} killed after ${delay.toFixed(1)} ms (PICTURE_CRASH_SEED=${SEED}, kill ${k}): answered ${said}, took effect: ${effect}`;
        // Answered, it was committed; not answered, either (a kill after the commit, before the answer).
        if (said !== 'no answer') assert.equal(said, '303', why);
        if (said === '303') assert.ok(effect, why);
        const key = `${kind}: ${effect ? 'took effect' : 'nothing'}, ${said === 'no answer' ? 'not answered' : 'answered'}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);
        await storeAgrees(database, why);
        const [picture] = (await imageContributions(database)).filter((c) => c.title === title);
        if (picture !== undefined) await servedAgrees(door.origin, database, picture, why);
      }
    });
  }

  test('a new process on the database serves every picture as the store says', async () => {
    const fresh = await startServe(database.args);
    started.push(fresh);
    const pictures = await imageContributions(database);
    assert.ok(pictures.length >= 3 * KILLS, 'the pictures sent');
    await storeAgrees(database, 'at the end');
    for (const picture of pictures) await servedAgrees(fresh.origin, database, picture, 'at the end');
  });
});

type Picture = Awaited<ReturnType<typeof imageContributions>>[number];

/** The store's own agreement: every contribution's sizes as its state says; no size without its contribution; no record under contributions/ without its picture. */
async function storeAgrees(database: TestDatabase, why: string): Promise<void> {
  const pictures = await imageContributions(database);
  for (const p of pictures) {
    const kept = await keptSizes(database, p.upload);
    if (p.state === 'pending') assert.deepEqual(kept, { sizes: ALL_SIZES, recordIds: [null] }, `pending ${p.id}: its three sizes (${why})`);
    else if (p.state === 'rejected') assert.deepEqual(kept, { sizes: [], recordIds: [] }, `rejected ${p.id}: nothing kept (${why})`);
    else assert.deepEqual(kept, { sizes: ALL_SIZES, recordIds: [p.recordId] }, `published ${p.id}: its sizes attached to its record (${why})`);
  }
  const orphans = await databaseRows(database, 'SELECT p.upload FROM contribution_pictures p LEFT JOIN contributions c ON c.id = p.contribution_id WHERE c.id IS NULL');
  assert.deepEqual(orphans, [], `no size without its contribution (${why})`);
  const uploads = new Set(pictures.map((p) => p.upload));
  const keptUploads = (await databaseRows(database, 'SELECT DISTINCT upload FROM contribution_pictures')).map((r) => String(r.upload));
  assert.deepEqual(keptUploads.filter((u) => !uploads.has(u)), [], `no size of an upload no contribution names (${why})`);
  const records = await databaseRows(database, "SELECT id, file, published FROM images WHERE file LIKE 'contributions/%'");
  for (const r of records) {
    const upload = /^contributions\/(.+)\.jpg$/.exec(String(r.file))?.[1] ?? '';
    const owner = pictures.find((p) => p.upload === upload);
    assert.ok(owner, `record ${String(r.id)}: a contribution's picture (${why})`);
    assert.deepEqual([owner.state, owner.recordId, Boolean(r.published)], ['published', Number(r.id), true], `record ${String(r.id)}: published from its contribution (${why})`);
    assert.deepEqual((await keptSizes(database, upload)).sizes, ALL_SIZES, `record ${String(r.id)}: its picture kept (${why})`);
  }
}

/** What a process serves of a picture: 200, the stored display size's bytes, while its record shows it; 404 otherwise. */
async function servedAgrees(origin: string, database: TestDatabase, picture: Picture, why: string): Promise<void> {
  const shown = picture.recordId === null ? [] : await databaseRows(database, 'SELECT id FROM images WHERE id = $1 AND published AND file = $2', [picture.recordId, `contributions/${picture.upload}.jpg`]);
  const expected = picture.state === 'published' && shown.length === 1 ? 200 : 404;
  for (const url of pictureUrls(picture.upload)) {
    const answer = await request(origin, url, { timeoutMs: 30_000 });
    assert.equal(answer.status, expected, `${url} of ${picture.state} ${picture.id} (${why})`);
  }
  if (expected === 200) {
    const [stored] = await databaseRows(database, "SELECT bytes FROM contribution_pictures WHERE upload = $1 AND size = 'display'", [picture.upload]);
    const served = await request(origin, pictureUrls(picture.upload)[0]!, { timeoutMs: 30_000 });
    assert.ok(Buffer.isBuffer(stored?.bytes) && served.bytes.equals(stored.bytes), `the stored bytes served (${why})`);
  }
}
