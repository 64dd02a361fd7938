// The problems of a file as they are found, kept in file order and bounded: a file with
// millions of problems keeps the first LIMIT (by place in the file) and counts the rest.
import type { Problem } from './format.js';
import { comparePositions, formatPath, type LocatedProblem } from './paths.js';

/** How many problems a refusal lists; the rest are only counted. */
export const PROBLEM_LIMIT = 1000;

interface Entry {
  /** Place in the file, one number per path segment (paths.ts filePosition). */
  position: number[];
  /** Breaks ties at one place: the order the checks were found in. */
  order: number;
  problem: LocatedProblem;
}

export class ProblemList {
  private entries: Entry[] = [];
  private found = 0;

  constructor(private readonly limit = PROBLEM_LIMIT) {}

  get total(): number {
    return this.found;
  }

  add(position: number[], problem: LocatedProblem, phase = 0): void {
    this.entries.push({ position, order: phase * 2 ** 40 + this.found++, problem });
    if (this.entries.length >= this.limit * 2) this.trim();
  }

  /** The first `limit` problems in file order, with their paths. */
  listed(): Problem[] {
    this.trim();
    return this.entries.map(({ problem }) => ({ path: formatPath(problem.segments), message: problem.message }));
  }

  private trim(): void {
    this.entries.sort((a, b) => comparePositions(a.position, b.position) || a.order - b.order);
    this.entries.length = Math.min(this.entries.length, this.limit);
  }
}
