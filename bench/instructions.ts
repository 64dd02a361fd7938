// npm run bench -- --instructions: the instructions a server executes per cached answer,
// counted by valgrind's callgrind. The count depends far less than CPU time on what else the
// machine is doing, so the cost of a feature (a few µs in 40) can be told from noise; a
// heavily loaded machine still disturbs single rounds (GC and the JIT's background threads
// run at other moments), which only ever adds: the least round is the figure. The server runs under valgrind with instrumentation off
// (start-up at near native speed), is warmed up (the JIT, the fast path's replays), then
// counted over an exact number of requests, several times; a count covers every thread of the
// process (valgrind runs them one at a time), so the log writes and GC are in it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ensureDebianPackage } from './apt.js';

export interface CountTarget {
  name: string;
  /** The command (without valgrind) and what it prints on standard error once it listens. */
  args: string[];
  env?: Record<string, string>;
  listening: RegExp;
}

export interface CountOptions {
  urls: string[];
  dir: string;
  rounds: number;
  /** Requests counted in each round. */
  requests: number;
  /** Requests sent before counting starts. */
  warmUp: number;
}

/** valgrind, installed with apt-get when it is not there yet. */
export function ensureValgrind(log: (line: string) => void): void {
  ensureDebianPackage('valgrind', () => spawnSync('callgrind_control', ['-h']).status === 0, log);
}

/** Instructions per request of each round, for one server. */
export async function countInstructions(target: CountTarget, options: CountOptions): Promise<number[]> {
  const out = path.join(options.dir, `callgrind-${target.name.replace(/\W+/g, '-')}`);
  const { pid, origin, stop } = await startUnderValgrind(target, `${out}.%p`);
  try {
    await send(origin, options.urls, options.warmUp);
    const perRequest: number[] = [];
    // Round 1 always counts far more (about twice the rest, in every server, the limit's
    // too): once instrumented, the process settles again. It is counted and thrown away.
    for (let round = 1; round <= options.rounds + 1; round++) {
      control(pid, '-z');
      control(pid, '-i', 'on');
      await send(origin, options.urls, options.requests);
      control(pid, '-i', 'off');
      control(pid, '-d');
      perRequest.push(totalOf(`${out}.${pid}.${round}`) / options.requests);
    }
    return perRequest.slice(1);
  } finally {
    await stop();
  }
}

function control(pid: number, ...args: string[]): void {
  const result = spawnSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`callgrind_control ${args.join(' ')} failed: ${result.stderr}`);
}

/** The `totals:` line callgrind writes at the end of a dump. */
function totalOf(file: string): number {
  const total = /^totals:\s+(\d+)/m.exec(fs.readFileSync(file, 'utf8'));
  if (total === null) throw new Error(`no totals in ${file}`);
  return Number(total[1]);
}

async function startUnderValgrind(target: CountTarget, outFile: string) {
  const args = ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`, ...target.args];
  const child = spawn('valgrind', args, { env: { ...process.env, ...target.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // The request log goes to a pipe read as fast as it comes, as under a process manager.
  child.stdout.resume();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const origin = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = target.listening.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${target.name} exited (${code}) under valgrind: ${text.slice(-2000)}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  return { pid: child.pid!, origin, stop };
}

/**
 * Exactly `count` requests over 4 keep-alive connections, cycling through the URLs; every
 * answer must be a 200. A connection reset is retried on a new connection (under valgrind a
 * server can be slow enough for a kept-alive connection to close as it is reused).
 */
async function send(origin: string, urls: string[], count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let next = 0;
  const worker = async () => {
    while (next < count) await withRetries(() => getOk(agent, origin + urls[next++ % urls.length]!));
  };
  try {
    await Promise.all([worker(), worker(), worker(), worker()]);
  } finally {
    agent.destroy();
  }
}

function getOk(agent: http.Agent, url: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.get(url, { agent }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
      response.once('error', reject).resume().once('end', resolve);
    }).once('error', reject);
  });
}

async function withRetries(request: () => Promise<void>, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt === attempts || (error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    }
  }
}
