// Issue 45: two decisions on one contributed picture at the same moment, sent to two `serve`
// processes sharing one database (SQLite: one file; PostgreSQL: one schema; the twin in
// test/postgres/), by two editors, 20 rounds of each pairing: approve + approve, approve +
// reject, approve + save (a correction), and an undo of the approval racing a second undo
// and a late second approval. Each round: exactly one outcome takes effect (read in the
// store), the loser gets the review (or history) page with 409 and its sentence, never a 500;
// a published picture is served (200) by both processes, an unpublished one (rejected,
// undone, corrected and so not published) is 404 on both, a rejected one's sizes are gone
// from the store, and a correction is either the one pending or its sender was told.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Answer } from '../support/http.js';
import { databaseRows } from '../support/database-rows.js';
import type { FormClient } from '../support/form-client.js';
import {
  ALL_SIZES, Door, approvedRecord, decide, deskDatabase, eventually, imageContributions, keptSizes, pictureUrls, reviewOf, sendPicture, signedIn, startServe, stopServe, undoForm,
  type Sent, type Serve,
} from '../support/picture-desk.js';
import { createTestDatabase, testStoreKind, type TestDatabase } from '../support/stores.js';

const ROUNDS = 20;
/** A process notices another's commit within this (the version poll); kept short so rounds are quick. */
const VERSION_POLL_MS = 250;

const PUBLISHED_ALREADY = 'This was published already';
const REJECTED_ALREADY = 'This was rejected already';
const CORRECTED_SINCE = 'Someone saved a correction while this page was open';
const CANNOT_UNDO = 'This change cannot be undone';

/** Both started in the same tick, the first one alternating with the round, so that either may win. */
function atOnce<A, B>(round: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (round % 2 === 0) {
    const pa = a();
    return Promise.all([pa, b()]);
  }
  const pb = b();
  return Promise.all([a(), pb]);
}

const outcome = (answer: Answer) => `${answer.status}`;

describe(`${testStoreKind()}: two decisions at once on one picture, over two processes`, () => {
  let database: TestDatabase;
  const servers: Serve[] = [];
  let contributor: FormClient;
  /** ed-one through the first process, ed-two through the second. */
  let editors: [FormClient, FormClient];
  let origins: string[];
  let sent = 0;

  before(async () => {
    database = createTestDatabase();
    await deskDatabase(database);
    for (let i = 0; i < 2; i++) servers.push(await startServe(database.args, { VERSION_POLL_MS: String(VERSION_POLL_MS) }));
    origins = servers.map((s) => s.origin);
    contributor = await signedIn(new Door(origins[0]!), 'pat-photos');
    editors = [await signedIn(new Door(origins[0]!), 'ed-one'), await signedIn(new Door(origins[1]!), 'ed-two')];
  });
  after(async () => {
    for (const s of servers) await stopServe(s);
    await database?.drop();
  });

  const send = (what: string) => sendPicture(contributor, database, `${what} ${++sent}`, sent);

  /** The loser's page: 409, the sentence, the review (or history) as it is now. */
  const refusedWith = (answer: Answer, sentence: string, who: string) => {
    assert.equal(answer.status, 409, `${who}: ${answer.status} ${answer.text.slice(0, 200)}`);
    assert.ok(answer.text.includes(sentence), `${who}'s page says "${sentence}"`);
  };

  /** Published as `recordId` once, with `title`; its sizes attached; served, the same bytes, by both processes. */
  const published = async (picture: Sent, recordId: number, title: string) => {
    const [state] = (await imageContributions(database)).filter((c) => c.id === picture.id);
    assert.deepEqual(state, { id: picture.id, state: 'published', upload: picture.upload, title, recordId });
    const records = await databaseRows(database, 'SELECT id, title, published FROM images WHERE file = $1', [`contributions/${picture.upload}.jpg`]);
    assert.deepEqual(records.map((r) => [Number(r.id), String(r.title), Boolean(r.published)]), [[recordId, title, true]], 'one record');
    const history = await databaseRows(database, "SELECT count(*) AS n FROM record_changes WHERE list = 'images' AND what = $1", [`approved contribution ${picture.id}`]);
    assert.equal(Number(history[0]!.n), 1, 'one approval in the history');
    assert.deepEqual(await keptSizes(database, picture.upload), { sizes: ALL_SIZES, recordIds: [recordId] });
    for (const url of pictureUrls(picture.upload)) {
      const answers = await Promise.all(origins.map((origin) => eventually(origin, url, 200)));
      assert.ok(answers[0]!.answer.bytes.equals(answers[1]!.answer.bytes), 'the same bytes from both');
      assert.equal(answers[0]!.answer.headers.etag, answers[1]!.answer.headers.etag);
    }
  };

  /** 404 on both processes; `never200` when it must never have been public. */
  const unpublished = async (picture: Sent, never200: boolean) => {
    for (const url of pictureUrls(picture.upload)) {
      await Promise.all(origins.map((origin) => eventually(origin, url, 404, never200 ? { never: 200 } : {})));
    }
    const records = await databaseRows(database, 'SELECT id FROM images WHERE file = $1', [`contributions/${picture.upload}.jpg`]);
    assert.deepEqual(records, [], 'no record shows it');
  };

  const tally = new Map<string, number>();
  const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
  after(() => {
    for (const [key, n] of tally) process.stdout.write(`${testStoreKind()} ${key}: ${n} of ${ROUNDS}\n`);
  });

  test(`approve + approve, ${ROUNDS} rounds: one publishes, the other is told; served by both`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const picture = await send('Twice');
      const [a, b] = await Promise.all(editors.map((e) => reviewOf(e, picture.id)));
      const answers = await atOnce(round, () => decide.approve(editors[0], picture.id, a!, picture.title), () => decide.approve(editors[1], picture.id, b!, picture.title));
      const winner = answers.findIndex((x) => x.status === 303);
      assert.deepEqual(answers.map(outcome).sort(), ['303', '409'], `round ${round}`);
      refusedWith(answers[1 - winner]!, PUBLISHED_ALREADY, 'the second approval');
      count(`approve+approve: process ${winner + 1} won`);
      await published(picture, approvedRecord(answers[winner]!), picture.title);
    }
  });

  test(`approve + reject, ${ROUNDS} rounds: one of them, the other told; published served, rejected gone`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const picture = await send('Either');
      const [a, b] = await Promise.all(editors.map((e) => reviewOf(e, picture.id)));
      const [approval, rejection] = await atOnce(round, () => decide.approve(editors[0], picture.id, a!, picture.title), () => decide.reject(editors[1], picture.id, b!));
      if (approval.status === 303) {
        refusedWith(rejection, PUBLISHED_ALREADY, 'the rejection');
        count('approve+reject: approved');
        await published(picture, approvedRecord(approval), picture.title);
      } else {
        assert.equal(rejection.status, 303, `round ${round}: one of them is taken (${approval.status}, ${rejection.status})`);
        refusedWith(approval, REJECTED_ALREADY, 'the approval');
        count('approve+reject: rejected');
        const [state] = (await imageContributions(database)).filter((c) => c.id === picture.id);
        assert.equal(state?.state, 'rejected');
        assert.deepEqual(await keptSizes(database, picture.upload), { sizes: [], recordIds: [] }, 'nothing of it kept');
        await unpublished(picture, true);
      }
    }
  });

  test(`approve + save a correction, ${ROUNDS} rounds: either published as it was and the corrector told, or the correction kept and the approver told`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const picture = await send('Corrected');
      const corrected = `${picture.title} (corrected)`;
      const [a, b] = await Promise.all(editors.map((e) => reviewOf(e, picture.id)));
      const [approval, save] = await atOnce(round, () => decide.approve(editors[0], picture.id, a!, picture.title), () => decide.save(editors[1], picture.id, b!, corrected));
      if (approval.status === 303) {
        refusedWith(save, PUBLISHED_ALREADY, 'the correction');
        count('approve+save: approved, the corrector told');
        await published(picture, approvedRecord(approval), picture.title);
      } else {
        assert.equal(save.status, 303, `round ${round}: one of them is taken (${approval.status}, ${save.status})`);
        refusedWith(approval, CORRECTED_SINCE, 'the approval');
        count('approve+save: corrected, the approver told');
        const [state] = (await imageContributions(database)).filter((c) => c.id === picture.id);
        assert.deepEqual(state, { id: picture.id, state: 'pending', upload: picture.upload, title: corrected, recordId: null }, 'the correction kept, still pending');
        assert.deepEqual(await keptSizes(database, picture.upload), { sizes: ALL_SIZES, recordIds: [null] });
        await unpublished(picture, true);
      }
    }
  });

  test(`undo of an approval + a second undo + a late second approval, ${ROUNDS} rounds: undone once, the others told; 404 on both`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const picture = await send('Undone');
      const [a, late] = await Promise.all(editors.map((e) => reviewOf(e, picture.id)));
      const approval = await decide.approve(editors[0], picture.id, a!, picture.title);
      const recordId = approvedRecord(approval);
      await published(picture, recordId, picture.title);
      const forms = await Promise.all(editors.map((e) => undoForm(e, recordId)));
      const undo = (k: 0 | 1) => () => editors[k].post(forms[k]!.action, { csrf: forms[k]!.csrf });
      const lateApproval = decide.approve(editors[1], picture.id, late!, picture.title);
      const undos = await atOnce(round, undo(0), undo(1));
      const winner = undos.findIndex((x) => x.status === 303);
      assert.deepEqual(undos.map(outcome).sort(), ['303', '409'], `round ${round}: one undo taken`);
      refusedWith(undos[1 - winner]!, CANNOT_UNDO, 'the second undo');
      refusedWith(await lateApproval, PUBLISHED_ALREADY, 'the late approval');
      count(`undo+undo: process ${winner + 1} undid`);
      const undone = await databaseRows(database, "SELECT count(*) AS n FROM record_changes WHERE list = 'images' AND record_id = $1 AND what LIKE 'undid change %'", [recordId]);
      assert.equal(Number(undone[0]!.n), 1, 'one undo in the history');
      await unpublished(picture, false);
    }
  });
});
