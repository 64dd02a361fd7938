// Runs the real command line (from source, through tsx) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ENTRY = path.resolve(import.meta.dirname, '../../src/cli/bin.ts');
/** tsx by its own address, so that a command run in another folder (cwd) still finds it. */
const TSX = import.meta.resolve('tsx');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, ENTRY, ...args], {
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
  return spawn(process.execPath, ['--import', TSX, ENTRY, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts `serve` and resolves once it says where it listens. */
export function startCliServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; origin: string; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', TSX, ENTRY, 'serve', '--port', '0', '--log-level', 'warn', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
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
