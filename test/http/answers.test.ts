// Every face's answers to a fixed list of requests, byte for byte as recorded before issue
// 46's restructuring (test/fixtures/answers.json), on both stores: a change that claims to
// change no behaviour is held to it. RECORD_ANSWERS=1 records the list and digests again
// (only for a change meant to change answers, reviewed as such).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { onBothStores } from '../support/both-stores.js';
import { ANSWER_SETTINGS, answersCatalogue, digestOf, requestList, type AnswerDigest } from '../support/answer-record.js';
import type { TestApp } from '../support/in-process.js';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'answers.json');

interface Recorded {
  requests: string[];
  sqlite: Record<string, AnswerDigest>;
  postgres: Record<string, AnswerDigest>;
}

async function digests(app: TestApp, requests: string[]): Promise<Record<string, AnswerDigest>> {
  const out: Record<string, AnswerDigest> = {};
  for (const url of requests) out[url] = digestOf(await app.request(url));
  return out;
}

await onBothStores('every face answers as recorded', answersCatalogue, (apps) => {
  test('every face answers the fixed requests byte for byte as recorded, on SQLite and on PostgreSQL', async () => {
    if (process.env.RECORD_ANSWERS === '1') {
      const requests = await requestList(apps.sqlite);
      const recorded: Recorded = { requests, sqlite: await digests(apps.sqlite, requests), postgres: await digests(apps.postgres, requests) };
      fs.writeFileSync(FIXTURE, `${JSON.stringify(recorded, null, 1)}\n`);
    }
    const recorded: Recorded = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    assert.ok(recorded.requests.length >= 200, `${recorded.requests.length} requests recorded`);
    for (const store of ['sqlite', 'postgres'] as const) {
      const now = await digests(apps[store], recorded.requests);
      for (const url of recorded.requests) assert.deepEqual(now[url], recorded[store][url], `${store} ${url}`);
    }
  });
}, ANSWER_SETTINGS);
