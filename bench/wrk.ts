// The load generator of npm run bench: wrk from Debian's packages (C, event loop, not the
// bottleneck the way a node load generator is at this server's rates), 1 thread, keep-alive
// connections, a Lua script cycling through the URL mix, pinned to its own core.
// Installed with apt-get when missing. Also: the server's CPU time per request, read from
// /proc/<pid>/stat around the run (what a noisy machine distorts least).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDebianPackage } from './apt.js';

export const WRK = '/usr/bin/wrk';

export interface Load {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  /** Server CPU (user + system) per request, µs; NaN when unknown. */
  cpuUs: number;
  /** The first answer that was not a 2xx (a script written with `firstError`). */
  firstError?: string;
}

/** wrk, installed with apt-get when it is not there yet. */
export function ensureWrk(log: (line: string) => void): void {
  ensureDebianPackage('wrk', () => fs.existsSync(WRK), log);
}

/**
 * A Lua script for wrk: each connection's next request is the next URL of the mix. With
 * `firstError`, the first answer that is not a 2xx is printed (its status and URL's body
 * start), at the cost of a Lua call per answer.
 */
export function writeMixScript(dir: string, urls: string[], { firstError = false } = {}): string {
  const file = path.join(dir, 'mix.lua');
  const list = urls.map((u) => `  ${JSON.stringify(u)},`).join('\n');
  const errorHook = firstError ? `local shown = false
response = function(status, headers, body)
  if status >= 300 and not shown then
    shown = true
    io.write(string.format("FIRST_ERROR %d %s\\n", status, string.sub(body, 1, 160)))
  end
end
` : '';
  fs.writeFileSync(file, `local paths = {\n${list}\n}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
${errorHook}done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout))
end
`);
  return file;
}

/** User + system CPU seconds of a process so far. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime) in clock ticks; index from field 3.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface WrkOptions {
  origin: string;
  script: string;
  seconds: number;
  connections: number;
  /** The core wrk runs on (taskset), or null. */
  core: number | null;
  /** The server's pid, for its CPU time; or its processes' (MapServer: lighttpd and its mapserv processes), summed. */
  serverPid: number | readonly number[];
}

const cpuOf = (pids: number | readonly number[]) => (typeof pids === 'number' ? [pids] : pids).reduce((sum, pid) => sum + cpuSeconds(pid), 0);

export async function runWrk(options: WrkOptions): Promise<Load> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '-s', options.script, options.origin];
  const command = options.core === null ? [WRK, ...args] : ['taskset', '-c', String(options.core), WRK, ...args];
  const cpuBefore = cpuOf(options.serverPid);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1));
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  const cpu = cpuOf(options.serverPid) - cpuBefore;
  const match = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(output);
  if (!match) throw new Error(`wrk said: ${output}`);
  const [requests, durationUs, p50, p99, errors] = match.slice(1).map(Number) as [number, number, number, number, number];
  const firstError = /FIRST_ERROR (.*)/.exec(output)?.[1];
  return {
    ...(firstError === undefined ? {} : { firstError }), rps: Math.round(requests / (durationUs / 1e6)), requests, p50: p50 / 1000, p99: p99 / 1000, errors, cpuUs: (cpu * 1e6) / requests };
}
