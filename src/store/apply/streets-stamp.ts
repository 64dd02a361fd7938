// The streets stamp: what a load and an apply mark the streets' data with, and what the
// map's streets read (map/map-plans.ts) is told apart by.
import { randomUUID } from 'node:crypto';

/**
 * Meta's mark of the streets' data: made new by every import, and by every apply that adds,
 * removes, renames the street of or moves a feature (apply-derived.ts). Most applies (an
 * approved contribution, a document corrected) leave it, so the streets' labels (a read of
 * every feature, 200–400 ms at scale 10) are not made again for them. Random, so that a
 * database made again under a running server never repeats the one it kept.
 */
export const STREETS_STAMP_KEY = 'streets_stamp';

/** A new stamp, as meta's key and value. */
export function newStreetsStamp(): [string, string] {
  return [STREETS_STAMP_KEY, randomUUID()];
}
