// Tools the bench runs (wrk, valgrind) come from Debian's packages, installed when missing.
import { spawnSync } from 'node:child_process';

export function ensureDebianPackage(name: string, present: () => boolean, log: (line: string) => void): void {
  if (present()) return;
  log(`${name} is missing: installing it with \`apt-get install -y ${name}\` (Debian package)`);
  const prefix = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const aptGet = (...args: string[]) => {
    const command = [...prefix, 'apt-get', ...args];
    return spawnSync(command[0]!, command.slice(1), { stdio: 'inherit' });
  };
  aptGet('update');
  if (aptGet('install', '-y', name).status !== 0 || !present()) {
    throw new Error(`could not install ${name}: run \`apt-get install -y ${name}\` as root, then npm run bench again`);
  }
}
