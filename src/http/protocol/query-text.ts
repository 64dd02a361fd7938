// What a query parameter's value may hold, on every face alike. NUL is the one character no
// text the catalogue holds can contain (PostgreSQL cannot store it; the catalogue refuses it),
// so a value holding it is refused naming its parameter, as the original's forms refused it
// ("Null characters are not allowed."). Other control characters are text PostgreSQL holds,
// and a bad percent-encoding (a lone surrogate's bytes) is read as U+FFFD by URLSearchParams:
// both are found or not like any other text.
import { ERRORS } from '../../errors.js';
import { isStorableText } from '../../store/stored-values.js';

/** Throws the 400 naming `name` when its value holds a character no text can hold. */
export function checkParameterText(name: string, value: string): void {
  if (!isStorableText(value)) throw ERRORS.nullCharacter(name);
}
