// Startup to first answer: the compiled `serve` spawned, then /api/v1/ asked for as soon as
// the server says where it listens, again until a 200 comes (a server that is listening but
// not ready answers 503). Measured from the spawn, in a fresh process each round.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';

const BIN = path.join(import.meta.dirname, '..', 'bin', 'heritage-api');

export interface StartupSample {
  ms: number;
  /** Until the line saying where it listens. */
  listeningMs: number;
  /** The server's CPU time (user + system) until then: what a loaded machine stretches the wall-clock figure from. */
  cpuMs: number;
  rssMb: number;
}

/** One cold start: spawn → first 200 on /api/v1/ (ms), and the server's RSS then. */
export async function timeStartup(dbArgs: string[]): Promise<StartupSample> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', ...dbArgs, '--port', '0', '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SHUTDOWN_DELAY_MS: '0' },
  });
  try {
    const origin = await listeningOrigin(child.stderr!);
    const listening = performance.now() - started;
    while ((await status(`${origin}/api/v1/`)) !== 200);
    const ms = performance.now() - started;
    return { ms, listeningMs: listening, cpuMs: await cpuMs(child.pid!), rssMb: await rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** node:http, not fetch: undici's first use would add its own loading to the time measured. */
function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, (answer) => {
      answer.resume().on('end', () => resolve(answer.statusCode ?? 0));
    }).on('error', reject);
  });
}

async function listeningOrigin(stderr: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stderr) {
    text += String(chunk);
    const match = /at (http:\/\/\S+?)\/api\/v1\//.exec(text);
    if (match) return match[1]!;
  }
  throw new Error(`serve stopped before listening: ${text}`);
}

async function cpuMs(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Medians of `rounds` cold starts. */
export async function medianStartup(dbArgs: string[], rounds: number): Promise<StartupSample> {
  const samples: StartupSample[] = [];
  for (let i = 0; i < rounds; i++) samples.push(await timeStartup(dbArgs));
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ms: median(samples.map((s) => s.ms)), listeningMs: median(samples.map((s) => s.listeningMs)), cpuMs: median(samples.map((s) => s.cpuMs)), rssMb: median(samples.map((s) => s.rssMb)) };
}
