// Fresh request ids: random (version 4) UUIDs, as crypto.randomUUID makes them, but written
// 256 at a time into one buffer, each then read out as one flat string. randomUUID joins
// every id out of 21 pieces, which the header and the log line then copy again: about 2,000
// instructions and 20 small objects for each cached answer, more than the rest of its
// bookkeeping (issue 48). The bytes come from the same source (crypto.randomFillSync).
import { randomFillSync } from 'node:crypto';

const BATCH = 256;
const UUID_BYTES = 16;
const UUID_CHARS = 36;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

/** A source of UUIDs for one app: each call a new one. */
export function uuidSource(): () => string {
  const random = new Uint8Array(BATCH * UUID_BYTES);
  const text = Buffer.alloc(BATCH * UUID_CHARS);
  let next = BATCH;
  return () => {
    if (next === BATCH) {
      randomFillSync(random);
      for (let i = 0; i < BATCH; i++) writeUuid(random, i * UUID_BYTES, text, i * UUID_CHARS);
      next = 0;
    }
    const at = next++ * UUID_CHARS;
    return text.toString('latin1', at, at + UUID_CHARS);
  };
}

/** RFC 9562 §5.4: 122 random bits, the version (4) in byte 6, the variant (10) in byte 8; hex in 8-4-4-4-12. */
function writeUuid(random: Uint8Array, from: number, text: Buffer, to: number): void {
  let at = to;
  for (let b = 0; b < UUID_BYTES; b++) {
    if (b === 4 || b === 6 || b === 8 || b === 10) text[at++] = DASH;
    let byte = random[from + b] ?? 0;
    if (b === 6) byte = (byte & 0x0f) | 0x40;
    else if (b === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX[byte >> 4] ?? 0;
    text[at++] = HEX[byte & 0x0f] ?? 0;
  }
}
