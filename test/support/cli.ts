// Runs the real command line (compiled, as users run it: cli-entry.ts) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';

import { CLI_ENTRY, ensureCliBuilt } from './cli-entry.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  ensureCliBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.end(options.input);
  });
}

/** Starts a command and hands back the child, for tests that stop it half-way. */
export function spawnCli(args: string[]): ChildProcess {
  ensureCliBuilt();
  return spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts `serve` and resolves once it says where it listens. SHUTDOWN_DELAY_MS is 0 unless
 * given, as in drain.ts's spawnServe: by default SIGTERM keeps serving for 5 s (/readyz 503)
 * before the listener closes, which each test stopping a server would wait out; the tests of
 * the delay (shutdown.test.ts) set it.
 */
export function startCliServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; origin: string; stderr: () => string }> {
  ensureCliBuilt();
  const child = spawn(process.execPath, [CLI_ENTRY, 'serve', '--port', '0', '--log-level', 'warn', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SHUTDOWN_DELAY_MS: '0', ...env },
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at (http:\/\/\S+?)\/api\/v1\//.exec(stderr);
      if (match) resolve({ child, origin: match[1]!, stderr: () => stderr });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

export function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
}
