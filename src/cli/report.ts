// What the commands tell the person running them: problems, summaries, and progress
// lines on a terminal only (pipes and logs get just the outcome).
import type { Catalogue, Problem } from '../catalogue/format.js';

export function printProblems(source: string, problems: Problem[]): void {
  const noun = problems.length === 1 ? 'problem' : 'problems';
  process.stderr.write(`${source} is not a valid catalogue (${problems.length} ${noun}):\n`);
  for (const p of problems) process.stderr.write(`  ${p.path}: ${p.message}\n`);
}

export function summarise(catalogue: Catalogue): string {
  const published = (list: { published: boolean }[]) => list.filter((r) => r.published).length;
  return [
    `${catalogue.features.length} features`,
    `${catalogue.images.length} images (${published(catalogue.images)} published)`,
    `${catalogue.documents.length} documents (${published(catalogue.documents)} published)`,
    `${catalogue.media.length} media (${published(catalogue.media)} published)`,
    `${catalogue.authors.length} authors`,
    `${catalogue.categories.length} categories`,
    `${catalogue.sites.length} sites`,
  ].join(', ');
}

/** A step of long work: announced on a terminal, timed, and returned. */
export async function step<T>(label: string, work: () => T | Promise<T>): Promise<T> {
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  if (tty) process.stderr.write(`${label}…`);
  const result = await work();
  if (tty) process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

export function seconds(startedAt: number): string {
  return `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
}
