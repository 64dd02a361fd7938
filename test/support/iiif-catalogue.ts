// Pictures for the IIIF tests, made in the test by sharp and unlike the demo's 1200 × 800
// ones: a large landscape JPEG, a tall PNG with transparency, a small WebP and a phone's JPEG
// stored on its side (EXIF orientation 6). Each is a pattern in which every crop, mirror and
// turn looks different (gradients across and down, blocks and waves), so that pixels rendered
// from the wrong place cannot pass for the right ones. And a catalogue whose image records
// point at them under a media root.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Catalogue, Image } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from './catalogue.js';

export interface TestPicture {
  /** The image record's id: the IIIF identifier. */
  id: number;
  /** Under the media root, as the record's `file` names it. */
  file: string;
  /** Its size as stored (before its orientation tag turns it). */
  stored: { width: number; height: number };
  make(): Promise<Buffer>;
}

type Pixel = (x: number, y: number) => number[];

function pixels(width: number, height: number, channels: 3 | 4, pixel: Pixel): Buffer {
  const data = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * channels);
  }
  return data;
}

const raw = (width: number, height: number, channels: 3 | 4, pixel: Pixel) => sharp(pixels(width, height, channels, pixel), { raw: { width, height, channels } });

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/** 3000 × 2000: red grows rightwards, green downwards with a 64 px chequer, blue in waves. */
const survey: TestPicture = {
  id: 21,
  file: 'uploads/features/1/Ordnance Survey sheet 1873.jpg',
  stored: { width: 3000, height: 2000 },
  make: () => raw(3000, 2000, 3, (x, y) => [
    clamp((x * 255) / 2999),
    clamp(30 + (150 * y) / 1999 + (((x >> 6) + (y >> 6)) % 2) * 60),
    clamp(128 + 100 * Math.sin(x / 41) * Math.cos(y / 29)),
  ]).jpeg({ quality: 92 }).toBuffer(),
};

/** 700 × 1900 with alpha: transparent along the top, then more opaque rightwards. */
const elevation: TestPicture = {
  id: 22,
  file: 'uploads/features/1/Elevation, 1898.png',
  stored: { width: 700, height: 1900 },
  make: () => raw(700, 1900, 4, (x, y) => [
    clamp((y * 255) / 1899),
    clamp(128 + 120 * Math.sin((x + y) / 23)),
    clamp((x * 255) / 699),
    y < 120 ? 0 : clamp(70 + (185 * x) / 699),
  ]).png().toBuffer(),
};

/** 300 × 200: rings about a point off the centre. */
const shopfront: TestPicture = {
  id: 23,
  file: 'uploads/features/5/shopfront.webp',
  stored: { width: 300, height: 200 },
  make: () => raw(300, 200, 3, (x, y) => [
    clamp(128 + 127 * Math.sin(Math.hypot(x - 90, y - 70) / 6)),
    clamp((y * 255) / 199),
    clamp((x * 255) / 299),
  ]).webp({ quality: 95 }).toBuffer(),
};

/** Stored 800 × 500 with orientation 6 (turn a quarter clockwise to see it): upright 500 × 800. A red block at the stored top left ends top right. */
const phonePhoto: TestPicture = {
  id: 24,
  file: 'uploads/features/5/IMG_2041.jpg',
  stored: { width: 800, height: 500 },
  make: () => raw(800, 500, 3, (x, y) => (x < 100 && y < 100 ? [255, 0, 0] : [20, clamp((x * 255) / 799), clamp((y * 255) / 499)]))
    .jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer(),
};

/** The pictures served: each has its file and a published record. */
export const SERVED_PICTURES = { survey, elevation, shopfront, phonePhoto } as const;

/** A published record whose file is not there, and an unpublished one whose file is. */
export const MISSING_FILE = { id: 26, file: 'uploads/features/5/lost.jpg' } as const;
export const UNPUBLISHED = { id: 25, file: 'uploads/features/1/draft.jpg' } as const;

/** Writes every picture under `root` (the unpublished record's file too): the bytes of each, by id. */
export async function writeTestPictures(root: string): Promise<Map<number, Buffer>> {
  const written = new Map<number, Buffer>();
  for (const picture of Object.values(SERVED_PICTURES)) {
    const bytes = await picture.make();
    fs.mkdirSync(path.dirname(path.join(root, picture.file)), { recursive: true });
    fs.writeFileSync(path.join(root, picture.file), bytes);
    written.set(picture.id, bytes);
  }
  fs.copyFileSync(path.join(root, survey.file), path.join(root, UNPUBLISHED.file));
  return written;
}

function record(id: number, file: string, feature: number, title: string, published: boolean): Image {
  return { id, feature, author: 2, title, file, description: '', copyright: false, created: '2024-05-01', published };
}

/** The tests' catalogue with these pictures as its only image records. */
export function iiifCatalogue(): Catalogue {
  return {
    ...buildTestCatalogue(),
    images: [
      record(survey.id, survey.file, 1, 'Ordnance Survey sheet, 1873', true),
      record(elevation.id, elevation.file, 1, 'Elevation to Osborn Street', true),
      record(shopfront.id, shopfront.file, 5, 'Shopfront', true),
      record(phonePhoto.id, phonePhoto.file, 5, 'The corner, from the pavement', true),
      record(UNPUBLISHED.id, UNPUBLISHED.file, 1, 'Draft', false),
      record(MISSING_FILE.id, MISSING_FILE.file, 5, 'Lost', true),
    ],
  };
}
