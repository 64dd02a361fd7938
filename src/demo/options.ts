// What a demo catalogue is asked for, and the counts it is made to.
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';

export interface DemoOptions {
  /** 1 = the real catalogue's size (about 4,000 features); any positive number. */
  scale: number;
  /** Any finite number; the same scale and seed always give the same catalogue. */
  seed: number;
}

/** The demo `serve --init-demo` (what `npm start` runs) builds, and the examples of README and docs/ are tried on. */
export const INIT_DEMO: DemoOptions = { scale: 1, seed: 1 };

/** Record counts at scale 1. */
export const DEMO_SCALE_1 = { features: 4000, images: 3000, documents: 1060, media: 60, authors: 40, sites: 15 } as const;

export interface DemoRecord {
  list: ListName;
  record: CatalogueRecord;
}

/** A count at the demo's scale: `base` at scale 1, never under `min`. */
export type ScaledCount = (base: number, min: number) => number;
