// MapLibre's error events in words for the reader: a tile request's failure says what the
// server answered, never the tile's URL (long, and of no use to anyone reading the page).

/** What MapLibre's AJAXError carries (its class is not exported as a type we can test for). */
interface RequestError {
  status?: unknown;
  message?: unknown;
}

export function tileProblem(error: unknown): string {
  const status = (error as RequestError | null)?.status;
  if (typeof status === 'number' && status > 0) {
    const why = status === 503 ? 'the database is unavailable for now' : `the server answered ${status}`;
    return `Part of the map could not be drawn: ${why}. Move or zoom the map to try again.`;
  }
  const message = String((error as RequestError | null)?.message ?? '');
  if (/fetch|network/i.test(message)) return 'Part of the map could not be drawn: the server could not be reached. Move or zoom the map to try again.';
  return 'Part of the map could not be drawn.';
}
