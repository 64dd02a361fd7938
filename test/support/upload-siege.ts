// Issue 45's uploads under attack, for either store: the real `serve` with contributions on and
// its default settings (METRICS on, loopback exempt), attacked over raw sockets whose timing
// the test controls. Fifty connections open a picture's multipart POST and drop it mid-body
// (without cookies or csrf, with a csrf but no cookies, with a session but a wrong csrf, with
// a session and its csrf), and twenty valid bodies trickle (half slower than the 10 s idle
// bound, half just fast enough), while contributors send small pictures: every contributor's
// upload is taken (303) or refused (503), a refusal none later than 5 s after the attack ends,
// each then taken; nothing answers another 5xx or hangs; and the upload slots
// (`heritage_gate_turns{gate="picture uploads"}` on /metrics) are idle again afterwards.
// Beside it, one test per rule of picture-form.ts and picture-upload.ts, each failing without it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { buildTestCatalogue } from './catalogue.js';
import { FormClient, csrfOf } from './form-client.js';
import { request, socketTarget } from './http.js';
import { spawnServer, stopServer, type Server } from './isolation.js';
import { importInto } from './server.js';
import { createTestDatabase, type StoreKind, type TestDatabase } from './stores.js';
import { temporaryDir } from './temporary.js';

const FEATURE = 1;
const UPLOAD_PATH = `/contribute/${FEATURE}/image`;
const PASSWORD = 'a siege of patient senders';
const BOUNDARY = '----siege-boundary-7Yx';
/** The server's idle bound on a picture's bytes (picture-form.ts UPLOAD_IDLE_MS), written here again. */
const IDLE_MS = 10_000;
/** How long the attack lasts: past the idle bound, so that stalled bodies are cut within it. */
const WINDOW_MS = 14_000;
/** A refusal must have cleared this long after the attack ends. */
const CLEARS_MS = 5000;
/** Any answer later than this is a hang (the gate's 30 s wait and 10 s of draining fit within it). */
const HANG_MS = 45_000;
const DROPPERS = 50;
const TRICKLERS = 20;
const CONTRIBUTORS = 4;
/** Slower than the idle bound, and just fast enough. */
const TOO_SLOW_MS = 12_000;
const JUST_FAST_MS = 7000;

/** One browser signed in: its Cookie header and a csrf of its picture form. */
interface Sender {
  cookie: string | null;
  csrf: string | null;
}

/** A multipart picture form written out by hand, so that a test chooses where it stops: its fields and the file part's header, the file, the end. */
function pictureForm(csrf: string | null, file: Buffer): { head: Buffer; file: Buffer; tail: Buffer; length: number } {
  const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from([
    ...(csrf === null ? [] : [field('csrf', csrf)]),
    field('title', 'Seen from the corner'),
    field('licence', 'open'),
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="front.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  ].join(''));
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return { head, file, tail, length: head.length + file.length + tail.length };
}

/** A POST of the picture form on a raw socket: its request head written at once, the body as the caller writes it; `answer` is the status, or how it ended without one. */
class RawUpload {
  readonly socket: net.Socket;
  readonly answer: Promise<string>;

  constructor(origin: string, sender: Sender, contentLength: number) {
    const { hostname, port } = new URL(origin);
    this.socket = net.connect(Number(port), hostname);
    this.socket.setNoDelay(true);
    const cookie = sender.cookie === null ? '' : `Cookie: ${sender.cookie}\r\n`;
    this.socket.write(`POST ${UPLOAD_PATH} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/html\r\n${cookie}`
      + `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${contentLength}\r\nConnection: close\r\n\r\n`);
    this.answer = new Promise((resolve) => {
      let text = '';
      const hang = setTimeout(() => end('hang'), HANG_MS);
      const end = (outcome: string) => {
        clearTimeout(hang);
        this.socket.destroy();
        resolve(outcome);
      };
      this.socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (status) end(status[1]!);
      });
      this.socket.on('error', (error: NodeJS.ErrnoException) => end(`error ${error.code ?? error.message}`));
      this.socket.on('close', () => end('closed'));
    });
  }

  write(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  drop(): void {
    this.socket.destroy();
  }
}

/** The upload slots' gauges on /metrics: turns running and waiting. */
async function slots(origin: string): Promise<{ running: number; waiting: number }> {
  const answer = await request(origin, '/metrics');
  assert.equal(answer.status, 200, '/metrics answers loopback');
  const read = (state: string) => {
    const m = new RegExp(`^heritage_gate_turns\\{gate="picture uploads",state="${state}"\\} (\\d+)$`, 'm').exec(answer.text);
    assert.ok(m, `no ${state} gauge of the picture uploads on /metrics`);
    return Number(m[1]);
  };
  return { running: read('running'), waiting: read('waiting') };
}

/** Reads the gauges until `wanted` holds, or fails at `withinMs` saying what they were. */
async function slotsBecome(origin: string, wanted: (s: { running: number; waiting: number }) => boolean, withinMs: number, what: string): Promise<number> {
  const started = performance.now();
  let last = await slots(origin);
  while (!wanted(last)) {
    if (performance.now() - started > withinMs) assert.fail(`${what}: still ${JSON.stringify(last)} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await slots(origin);
  }
  return performance.now() - started;
}

const idle = (s: { running: number; waiting: number }) => s.running === 0 && s.waiting === 0;

async function signedUp(origin: string, username: string): Promise<Sender> {
  const browser = new FormClient(socketTarget(origin));
  assert.equal((await browser.submit('/account/signup', { username, password: PASSWORD })).status, 303, `${username} signed up`);
  const form = await browser.get(UPLOAD_PATH);
  assert.equal(form.status, 200);
  return { cookie: [...browser.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; '), csrf: csrfOf(form.text) };
}

/** Opens an upload and writes its fields and the first half of its file: a slot is taken then, if ever. */
function startedUpload(origin: string, sender: Sender, picture: Buffer): { upload: RawUpload; rest: Buffer } {
  const form = pictureForm(sender.csrf, picture);
  const upload = new RawUpload(origin, sender, form.length);
  const half = Math.floor(picture.length / 2);
  upload.write(Buffer.concat([form.head, picture.subarray(0, half)]));
  return { upload, rest: Buffer.concat([picture.subarray(half), form.tail]) };
}

type Tally = Record<string, Record<string, number>>;
const count = (tally: Tally, who: string, outcome: string) => {
  const byOutcome = (tally[who] ??= {});
  byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function uploadSiegeSuite(kind: StoreKind): void {
  let database: TestDatabase | undefined;
  let downloads: string | undefined;
  let server: Server | undefined;
  let origin = '';
  let picture = Buffer.alloc(0);
  let contributors: Sender[] = [];
  let attacker: Sender = { cookie: null, csrf: null };

  before(async () => {
    database = createTestDatabase(kind);
    downloads = temporaryDir();
    await importInto(database.settings, buildTestCatalogue());
    server = await spawnServer(database.args, downloads, { CONTRIBUTIONS: 'on', METRICS: 'on' });
    origin = server.origin;
    // A small picture with detail enough to be some kilobytes: its halves are sent apart.
    const noise = Buffer.alloc(160 * 120 * 3);
    for (let i = 0, seed = 3; i < noise.length; i++) noise[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    picture = await sharp(noise, { raw: { width: 160, height: 120, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
    attacker = await signedUp(origin, 'siege-attacker');
    contributors = await Promise.all(Array.from({ length: CONTRIBUTORS }, (_, n) => signedUp(origin, `siege-contributor-${n}`)));
    assert.deepEqual(await slots(origin), { running: 0, waiting: 0 }, 'idle at first');
  });
  after(async () => {
    if (server) await stopServer(server);
    await database?.drop();
    if (downloads) fs.rmSync(downloads, { recursive: true, force: true });
  });

  /**
   * `opened` is left open (its fields and half its file sent) while a valid upload, opened
   * after it, takes its slot: once the gauge shows that one, the earlier one's bytes have been
   * read, and the gauge says whether it took a slot too.
   */
  const holdsNoSlot = async (opened: { upload: RawUpload; rest: Buffer }) => {
    const probe = startedUpload(origin, contributors[0]!, picture);
    await slotsBecome(origin, (s) => s.running >= 1, 5000, 'the valid upload takes its slot');
    assert.deepEqual(await slots(origin), { running: 1, waiting: 0 }, 'the open upload holds no slot, only the valid one does');
    probe.upload.drop();
    await slotsBecome(origin, idle, 3000, 'the dropped valid upload gives its slot back');
    opened.upload.write(opened.rest);
    return opened.upload.answer;
  };

  test(`${kind}: a body without a session holds no upload slot while it is open, and is sent to sign in`, async () => {
    const opened = startedUpload(origin, { cookie: null, csrf: attacker.csrf }, picture);
    assert.equal(await holdsNoSlot(opened), '303');
    assert.deepEqual(await slots(origin), { running: 0, waiting: 0 });
  });

  test(`${kind}: a session with a wrong csrf holds no upload slot, and is refused (403)`, async () => {
    const opened = startedUpload(origin, { cookie: attacker.cookie, csrf: 'not-the-form-token' }, picture);
    assert.equal(await holdsNoSlot(opened), '403');
    assert.deepEqual(await slots(origin), { running: 0, waiting: 0 });
  });

  test(`${kind}: a valid upload dropped mid-file gives its slot back at once (well before the idle bound)`, async () => {
    const { upload } = startedUpload(origin, attacker, picture);
    await slotsBecome(origin, (s) => s.running === 1, 5000, 'the upload takes its slot');
    upload.drop();
    const ms = await slotsBecome(origin, idle, IDLE_MS / 2, 'the dropped upload gives its slot back');
    assert.ok(ms < IDLE_MS / 2);
  });

  test(`${kind}: a valid upload that stalls past the idle bound gets its slot back, and its client a 408`, async () => {
    const { upload } = startedUpload(origin, attacker, picture);
    await slotsBecome(origin, (s) => s.running === 1, 5000, 'the upload takes its slot');
    const stalled = performance.now();
    // Without the idle bound only REQUEST_TIMEOUT_MS (30 s) would end it.
    await slotsBecome(origin, idle, IDLE_MS + 5000, 'the stalled upload gives its slot back');
    assert.ok(performance.now() - stalled >= IDLE_MS - 2000, 'not before the idle bound');
    assert.equal(await upload.answer, '408');
  });

  test(`${kind}: while fifty uploads are dropped mid-body and twenty trickle, contributors' pictures are taken or refused, refusals clear within 5 s of the end, and the slots return to idle`, async (t) => {
    const tally: Tally = {};
    const open = new Set<RawUpload>();
    let over = false;
    const attack = (upload: RawUpload) => {
      open.add(upload);
      void upload.answer.then(() => open.delete(upload));
      return upload;
    };
    // Four kinds of sender: no cookie nor csrf, a csrf without its cookies, a session with a wrong csrf, a session and its csrf.
    const dropperKinds: [string, Sender][] = [
      ['no session, no csrf', { cookie: null, csrf: null }],
      ['a csrf, no session', { cookie: null, csrf: attacker.csrf }],
      ['session, wrong csrf', { cookie: attacker.cookie, csrf: 'not-the-form-token' }],
      ['session and csrf', attacker],
    ];
    const dropper = async (n: number) => {
      const [name, sender] = dropperKinds[n % dropperKinds.length]!;
      for (let round = 0; !over; round++) {
        const form = pictureForm(sender.csrf, picture);
        const upload = attack(new RawUpload(origin, sender, form.length));
        // Cut in the fields, at the file part's start, or inside the file; held open a moment, then dropped.
        const cut = [form.head.length - 40, form.head.length, form.head.length + Math.floor(picture.length / 3)][(n + round) % 3]!;
        upload.write(Buffer.concat([form.head, form.file]).subarray(0, cut));
        await Promise.race([upload.answer, pause(100 + ((n * 37 + round * 53) % 400))]);
        upload.drop();
        count(tally, `dropped: ${name}`, await upload.answer);
      }
    };
    const trickler = async (n: number) => {
      const every = n % 2 === 0 ? TOO_SLOW_MS : JUST_FAST_MS;
      const name = every === TOO_SLOW_MS ? `trickling a byte every ${TOO_SLOW_MS / 1000} s` : `trickling a byte every ${JUST_FAST_MS / 1000} s`;
      while (!over) {
        const form = pictureForm(attacker.csrf, picture);
        const upload = attack(new RawUpload(origin, attacker, form.length));
        upload.write(form.head);
        let answered = false;
        void upload.answer.then(() => (answered = true));
        for (let at = 0; !answered && !over && at < form.file.length; at++) {
          upload.write(form.file.subarray(at, at + 1));
          await Promise.race([upload.answer, pause(every)]);
        }
        upload.drop();
        count(tally, name, over && !answered ? 'dropped at the end' : await upload.answer);
      }
    };
    const sent: { contributor: number; outcome: string; at: number }[] = [];
    let attackEnded = Infinity;
    const contributor = async (n: number) => {
      const form = pictureForm(contributors[n]!.csrf, picture);
      const whole = Buffer.concat([form.head, form.file, form.tail]);
      for (;;) {
        const upload = new RawUpload(origin, contributors[n]!, whole.length);
        upload.write(whole);
        const outcome = await upload.answer;
        const at = performance.now();
        sent.push({ contributor: n, outcome, at });
        // Done once an upload sent after the attack ended is answered; a failure ends it too (reported below).
        if (at > attackEnded && (outcome === '303' || at > attackEnded + CLEARS_MS)) return;
        if (outcome !== '303' && outcome !== '503') return;
        if (outcome === '503') await pause(200);
      }
    };

    // The tricklers first, in turn, so that they hold the slots and the line (one of each speed
    // running), then the droppers; the contributors come once the attack is under way.
    const tricklers: Promise<void>[] = [];
    for (let n = 0; n < TRICKLERS; n++) {
      tricklers.push(trickler(n));
      if (n < 6) await slotsBecome(origin, (s) => s.running + s.waiting === n + 1, 5000, `trickler ${n} takes a slot or a place in line`);
    }
    const attackers = [...tricklers, ...Array.from({ length: DROPPERS }, (_, n) => dropper(n))];
    const senders = Array.from({ length: CONTRIBUTORS }, (_, n) => contributor(n));
    await pause(WINDOW_MS);
    over = true;
    for (const upload of open) upload.drop();
    attackEnded = performance.now();
    await Promise.all(attackers);
    await Promise.all(senders);
    const settled = await slotsBecome(origin, idle, CLEARS_MS, 'the upload slots after the attack');

    for (const [who, outcomes] of Object.entries(tally)) t.diagnostic(`${who}: ${Object.entries(outcomes).map(([o, k]) => `${o} ×${k}`).join(', ')}`);
    const during = sent.filter((s) => s.at <= attackEnded);
    const afterwards = sent.filter((s) => s.at > attackEnded);
    const outcomes = (list: typeof sent) => list.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.outcome]: (acc[s.outcome] ?? 0) + 1 }), {});
    t.diagnostic(`contributors during the attack: ${JSON.stringify(outcomes(during))}; after it: ${JSON.stringify(outcomes(afterwards))}`);
    const lastRefusal = Math.max(-Infinity, ...sent.filter((s) => s.outcome === '503').map((s) => s.at - attackEnded));
    t.diagnostic(`last refusal ${Number.isFinite(lastRefusal) ? `${lastRefusal.toFixed(0)} ms after the attack ended` : 'none'}; slots idle ${settled.toFixed(0)} ms after the contributors were done`);

    const found: string[] = [];
    if (server!.child.exitCode !== null || server!.child.signalCode !== null) found.push(`the server ended: ${server!.stderr()}`);
    const other = sent.filter((s) => s.outcome !== '303' && s.outcome !== '503');
    if (other.length > 0) found.push(`contributors' uploads answered otherwise than 303 or 503: ${other.map((s) => s.outcome).join(', ')}`);
    if (lastRefusal > CLEARS_MS) found.push(`a contributor was refused ${lastRefusal.toFixed(0)} ms after the attack ended (at most ${CLEARS_MS})`);
    for (let n = 0; n < CONTRIBUTORS; n++) {
      if (!afterwards.some((s) => s.contributor === n && s.outcome === '303')) found.push(`contributor ${n} had no upload taken after the attack`);
    }
    for (const [who, byOutcome] of Object.entries(tally)) {
      const bad = Object.keys(byOutcome).filter((o) => o === 'hang' || (/^5\d\d$/.test(o) && o !== '503'));
      if (bad.length > 0) found.push(`${who}: ${bad.map((o) => `${o} ×${byOutcome[o]}`).join(', ')}`);
    }
    assert.deepEqual(found, []);
    assert.equal(Object.keys(tally).length, 6, 'every kind of attacker sent');
  });
}
