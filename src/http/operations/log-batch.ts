// The request log's destination: pino's asynchronous sonic-boom, fed whole batches of lines.
// sonic-boom measures (Buffer.byteLength) the line and the whole chunk it is gathering on
// every write, so a line written to it one at a time cost more than the rest of logging it.
// Here each line is only pushed to an array; every LOG_BATCH_CHARS (or LOG_FLUSH_MS, or at
// exit) the lines go to sonic-boom as one string, which it writes at once. 64 K characters,
// a pipe's capacity: against 8 K, it took cached answers from 46–48 to 40 µs of CPU each
// (npm run bench), the writes and the reader's wake-ups being per batch. Each batch is
// encoded once, here, and handed over as bytes: given a string, sonic-boom measures it
// (Buffer.byteLength), fs.write encodes it, and its release encodes it again to slice off
// what was written (issue 48: about 1,500 instructions a line).
import pino from 'pino';

/** About this many characters of lines per write (a batch is at least one line). */
const LOG_BATCH_CHARS = 65536;
/** A line waits at most this long before it is written. */
const LOG_FLUSH_MS = 100;

type SonicBoom = ReturnType<typeof pino.destination>;

export interface LineBatch {
  write(line: string): boolean;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
  /** Hands over what is left and lets go of the timer and the exit hooks (the server closed). */
  close(): void;
}

/** Standard output (file descriptor 1), batched, from now until close(): one per server. */
export function batchedStdout(): LineBatch {
  const sink: SonicBoom = pino.destination({ dest: 1, sync: false, minLength: 0, contentMode: 'buffer' });
  let lines: string[] = [];
  let chars = 0;
  const handOver = () => {
    if (lines.length === 0) return;
    const [only] = lines;
    const text = lines.length === 1 && only !== undefined ? only : lines.join('');
    lines = [];
    chars = 0;
    // In 'buffer' mode sonic-boom's write takes bytes; its types know only strings.
    Reflect.apply(sink.write, sink, [Buffer.from(text)]);
  };
  const timer = setInterval(handOver, LOG_FLUSH_MS).unref();
  // Before pino's own handlers, which flush and end sonic-boom at exit.
  process.prependListener('beforeExit', handOver);
  process.prependListener('exit', handOver);
  return {
    write(line) {
      lines.push(line);
      chars += line.length;
      if (chars >= LOG_BATCH_CHARS) handOver();
      return true;
    },
    flush(callback) {
      handOver();
      sink.flush(callback);
    },
    flushSync() {
      handOver();
      sink.flushSync();
    },
    close() {
      handOver();
      clearInterval(timer);
      process.removeListener('beforeExit', handOver);
      process.removeListener('exit', handOver);
    },
  };
}
