// A replica's lag from successive probes (store/postgres/replication.ts ReplicaLag): each
// case is a sequence of probes at given times, with the lag each must report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReplicaLag, type ReplicaSample } from '../../src/store/postgres/replication.js';

interface Probe {
  at: number;
  received: number | null;
  replayed: number | null;
  commitAge: number | null;
  streaming?: boolean;
  lag: number | null;
}

const CASES: { name: string; probes: Probe[] }[] = [
  { name: 'everything received is replayed: level, whatever the last commit\'s age', probes: [
    { at: 0, received: 100, replayed: 100, commitAge: 600, lag: 0 },
  ] },
  { name: 'a first probe behind: the last replayed commit\'s age', probes: [
    { at: 0, received: 200, replayed: 100, commitAge: 7.5, lag: 7.5 },
  ] },
  { name: 'a long transaction streaming: replay passes what had arrived at the previous probe, so at most that long ago', probes: [
    { at: 0, received: 100, replayed: 90, commitAge: 5, lag: 5 },
    { at: 1000, received: 300, replayed: 150, commitAge: 6, lag: 1 },
    { at: 1500, received: 500, replayed: 320, commitAge: 6.5, lag: 0.5 },
  ] },
  { name: 'replay stuck (paused): the lag grows from the last probe it had caught up with', probes: [
    { at: 0, received: 100, replayed: 100, commitAge: 0.2, lag: 0 },
    { at: 1000, received: 150, replayed: 100, commitAge: 1.2, lag: 1 },
    { at: 4000, received: 150, replayed: 100, commitAge: 4.2, lag: 4 },
  ] },
  { name: 'the commit\'s age is the smaller bound', probes: [
    { at: 0, received: 100, replayed: 100, commitAge: 0, lag: 0 },
    { at: 10_000, received: 150, replayed: 120, commitAge: 2, lag: 2 },
  ] },
  { name: 'no WAL receiver (primary unreachable): only the commit\'s age, even when level', probes: [
    { at: 0, received: 100, replayed: 100, commitAge: 30, streaming: false, lag: 30 },
    { at: 1000, received: null, replayed: 100, commitAge: null, streaming: false, lag: null },
  ] },
  { name: 'behind, nothing replayed since start and no earlier probe: unknown', probes: [
    { at: 0, received: 200, replayed: 100, commitAge: null, lag: null },
  ] },
];

for (const { name, probes } of CASES) {
  test(`replica lag: ${name}`, () => {
    const lag = new ReplicaLag();
    for (const p of probes) {
      const sample: ReplicaSample = { replica: true, streaming: p.streaming ?? true, received: p.received, replayed: p.replayed, commit_age: p.commitAge };
      assert.equal(lag.lagOf(sample, p.at), p.lag, `at ${p.at} ms`);
    }
  });
}
