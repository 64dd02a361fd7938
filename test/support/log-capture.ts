// The app's log lines kept in memory: a stream to hand to loggerOptions instead of standard
// output, and the JSON lines written to it so far.
import { Writable } from 'node:stream';

export function captureLogLines<T = Record<string, unknown>>(): { stream: Writable; lines: T[] } {
  const lines: T[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as T);
      callback();
    },
  });
  return { stream, lines };
}
