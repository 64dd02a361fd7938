// JSON text kept as it was stored and spliced into an answer as is. A footprint is stored as
// the exact JSON text of its geometry (ARCHITECTURE.md, Coordinates); parsing it for every
// answer only to write the same text again was most of the cost of a page of large
// footprints. JSON.stringify(JSON.parse(text)) === text for the text we store, so the bytes
// of every answer are the same either way.
import { randomUUID } from 'node:crypto';

/** Collects the texts met by the one stringifyAnswer running (it is synchronous). */
let collecting: { texts: string[]; marker: string } | null = null;

export class JsonText {
  constructor(readonly text: string) {}

  /** In stringifyAnswer: a marker replaced afterwards by the text; anywhere else: the value. */
  toJSON(): unknown {
    if (collecting === null) return JSON.parse(this.text);
    collecting.texts.push(this.text);
    return `${collecting.marker}${collecting.texts.length - 1}`;
  }
}

/**
 * JSON.stringify, with each JsonText written as its stored text. The marker starts with
 * U+0001 and a random UUID: JSON.stringify writes that character as an escape, so no string
 * of the catalogue can be taken for a marker by chance.
 */
export function stringifyAnswer(body: unknown): string {
  const marker = `\u0001${randomUUID()}:`;
  collecting = { texts: [], marker };
  let json: string;
  let texts: string[];
  try {
    json = JSON.stringify(body);
    texts = collecting.texts;
  } finally {
    collecting = null;
  }
  if (texts.length === 0) return json;
  const written = JSON.stringify(marker);
  const pattern = new RegExp(`${escapeRegExp(written.slice(0, -1))}(\\d+)"`, 'g');
  return json.replace(pattern, (_, index: string) => texts[Number(index)]!);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
