// What the grammar's shapes cannot say about a literal, shared by the text parser and the
// JSON reader: real calendar dates and times, closed rings, the two sizes of a BBOX.
// Each check answers with the sentence's end ("… is not a date") or undefined.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function dateProblem(text: string): string | undefined {
  const match = DATE.exec(text);
  if (match === null) return `${JSON.stringify(text)} is not a date written YYYY-MM-DD`;
  const [year, month, day] = match.slice(1).map(Number);
  if (year === undefined || month === undefined || day === undefined) return 'unreachable';
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return `${JSON.stringify(text)} is not a day of the calendar`;
  }
  return undefined;
}

export function timestampProblem(text: string): string | undefined {
  const match = TIMESTAMP.exec(text);
  if (match === null) return `${JSON.stringify(text)} is not a timestamp written YYYY-MM-DDThh:mm:ssZ`;
  const dateIssue = dateProblem(match[1] ?? '');
  if (dateIssue !== undefined) return dateIssue;
  const [hour, minute, second] = match.slice(2, 5).map(Number);
  // A leap second (60) is a valid RFC 3339 time.
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 60) {
    return `${JSON.stringify(text)} is not a time of the day`;
  }
  return undefined;
}

export function ringProblem(ring: readonly (readonly number[])[]): string | undefined {
  if (ring.length < 4) return "a polygon's ring needs at least 4 positions";
  const first = ring[0] ?? [];
  const last = ring.at(-1) ?? [];
  if (first.length !== last.length || first.some((value, i) => value !== last[i])) {
    return "a polygon's ring must end at its first position";
  }
  return undefined;
}

export function bboxProblem(values: readonly number[]): string | undefined {
  return values.length === 4 || values.length === 6
    ? undefined
    : `a BBOX has 4 or 6 numbers, not ${values.length}`;
}
