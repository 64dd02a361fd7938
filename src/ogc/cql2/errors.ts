// An invalid filter is a Cql2Error whose message is one sentence meant for the user:
// where it failed (line/column/offset in CQL2-Text, a JSON path in CQL2-JSON) and what was
// expected. No parser library's own message is ever passed on.

export interface TextPosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units like the offset. */
  readonly column: number;
  /** 0-based. */
  readonly offset: number;
}

export interface Cql2ErrorDetails {
  readonly position?: TextPosition;
  /** `$`, `$.args[0]`, … in CQL2-JSON. */
  readonly path?: string;
  /** What would have been accepted where it failed, condensed (text only). */
  readonly expected?: readonly string[];
}

export class Cql2Error extends Error {
  readonly position: TextPosition | undefined;
  readonly path: string | undefined;
  readonly expected: readonly string[];

  constructor(message: string, details: Cql2ErrorDetails = {}) {
    super(message);
    this.name = 'Cql2Error';
    this.position = details.position;
    this.path = details.path;
    this.expected = details.expected ?? [];
  }
}

/** "a", "a or b", "a, b or c". */
export function listInWords(items: readonly string[], conjunction = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1) ?? ''}`;
}

/** A user's text quoted in a message, cut so that a message stays short. */
export function quoteInput(text: string, max = 40): string {
  const cut = [...text];
  return JSON.stringify(cut.length > max ? `${cut.slice(0, max).join('')}…` : text);
}
