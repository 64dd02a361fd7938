// The app's log lines kept in memory: a stream to hand to loggerOptions instead of standard
// output, the JSON lines written to it so far, and a wait for lines that is woken by each
// write (no polling).
import { Writable } from 'node:stream';

export interface CapturedLog<T> {
  stream: Writable;
  lines: T[];
  /** Resolves with the lines once `enough(lines)` holds; rejects after `timeoutMs`. */
  waitFor(enough: (lines: T[]) => boolean, timeoutMs?: number): Promise<T[]>;
}

export function captureLogLines<T = Record<string, unknown>>(): CapturedLog<T> {
  const lines: T[] = [];
  const waiting = new Set<() => void>();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as T);
      for (const wake of waiting) wake();
      callback();
    },
  });
  const waitFor = (enough: (lines: T[]) => boolean, timeoutMs = 3000) =>
    new Promise<T[]>((resolve, reject) => {
      const check = () => {
        if (!enough(lines)) return;
        finish();
        resolve(lines);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the log lines awaited were not written within ${timeoutMs} ms: ${JSON.stringify(lines).slice(-500)}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiting.delete(check);
      };
      waiting.add(check);
      check();
    });
  return { stream, lines, waitFor };
}
