// What a caught value tells: its system error's code (ENOENT, ECONNRESET…), its message, its
// cause. `catch` gives unknown; these read it without asserting that it is an Error.
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

export function errorCode(error: unknown): string | undefined {
  return isObject(error) && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** An Error's message; anything else thrown, as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The message of a value that has one (an Error's `cause` may be anything). */
export function messageOf(value: unknown): string | undefined {
  return isObject(value) && 'message' in value && typeof value.message === 'string' ? value.message : undefined;
}

export function errorCause(error: unknown): unknown {
  return isObject(error) && 'cause' in error ? error.cause : undefined;
}
