// The PostgreSQL URL for messages and logs, without loading the driver (open.ts names the
// database before, or without, opening it).

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}
