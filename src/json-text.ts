// JSON text kept as it was stored and spliced into an answer as is. A footprint is stored as
// the exact JSON text of its geometry (ARCHITECTURE.md, Coordinates); parsing it for every
// answer only to write the same text again was most of the cost of a page of large
// footprints. JSON.stringify(JSON.parse(text)) === text for the text we store, so the bytes
// of every answer are the same either way.
import { randomUUID } from 'node:crypto';

/** Collects the texts met by the one stringifyAnswer running (it is synchronous). */
let collecting: string[] | null = null;

export class JsonText {
  constructor(readonly text: string) {}

  /** In stringifyAnswer: a marker replaced afterwards by the text; anywhere else: the value. */
  toJSON(): unknown {
    if (collecting === null) return JSON.parse(this.text);
    collecting.push(this.text);
    return `${MARKER}${collecting.length - 1}`;
  }
}

/**
 * The marker: U+0001 and a random UUID, drawn once per process. JSON.stringify writes that
 * character as an escape, so no string of the catalogue can be taken for a marker by chance.
 * One marker, and so one compiled pattern, for every answer: a pattern per call cost a
 * regular expression compiled per answer, and a download renders tens of thousands.
 */
const MARKER = `\u0001${randomUUID()}:`;
const MARKED = new RegExp(`${escapeRegExp(JSON.stringify(MARKER).slice(0, -1))}(\\d+)"`, 'g');

/** JSON.stringify, with each JsonText written as its stored text. */
export function stringifyAnswer(body: unknown): string {
  const texts: string[] = [];
  collecting = texts;
  let json: string;
  try {
    json = JSON.stringify(body);
  } finally {
    collecting = null;
  }
  if (texts.length === 0) return json;
  return json.replace(MARKED, (_, index: string) => texts[Number(index)]!);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
