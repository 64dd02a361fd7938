// Pictures for a catalogue without real ones (the demo), drawn so that opening one is worth
// it: each image file is a 1200×800 drawing of a facade (storeys, bays, door and roof chosen
// from its title) under its title; each category thumbnail is 160×120 in the category's own
// map colour (palette.ts, by rank: the legend's swatch) with its initials. Paletted PNGs with
// "Up" filtering, a few milliseconds each. Files keep the catalogue's names (often .jpg):
// browsers decode images by their bytes.
import fs from 'node:fs';
import path from 'node:path';
import type { Catalogue } from '../catalogue/format.js';
import { categoryColour } from '../palette.js';
import { GLYPH_HEIGHT, GLYPH_WIDTH } from './glyphs.js';
import type { DemoRecord } from './options.js';
import { Picture } from './png.js';
import { at } from '../invariant.js';

export const PHOTO_SIZE = { width: 1200, height: 800 } as const;
export const THUMBNAIL_SIZE = { width: 160, height: 120 } as const;

/** What to draw at a media path: a category's thumbnail in its colour, or an image's facade. */
export type PictureNote = { file: string; title: string } & ({ kind: 'thumbnail'; colour: string } | { kind: 'photo' });

/** Every category thumbnail (categories ranked by id) and image file of the catalogue, drawn under root. */
export function writeCatalogueMedia(catalogue: Catalogue, root: string): void {
  const categories = [...catalogue.categories].sort((a, b) => a.id - b.id);
  writePictures([
    ...categories.map((c, rank): PictureNote => ({ kind: 'thumbnail', file: c.thumbnail, title: c.name, colour: categoryColour(rank) })),
    ...catalogue.images.map((i): PictureNote => ({ kind: 'photo', file: i.file, title: i.title })),
  ], root);
}

/** The records passed on as they come (categories in id order), the picture each names noted in `notes`. */
export function* notingPictures(records: Iterable<DemoRecord>, notes: PictureNote[]): Generator<DemoRecord> {
  let rank = 0;
  for (const item of records) {
    const { record } = item;
    if ('thumbnail' in record) notes.push({ kind: 'thumbnail', file: record.thumbnail, title: record.name, colour: categoryColour(rank++) });
    else if ('file' in record) notes.push({ kind: 'photo', file: record.file, title: record.title });
    yield item;
  }
}

export function writePictures(notes: readonly PictureNote[], root: string): void {
  const made = new Set<string>();
  for (const note of notes) {
    const target = path.join(root, note.file);
    const dir = path.dirname(target);
    if (!made.has(dir)) fs.mkdirSync(dir, { recursive: true });
    made.add(dir);
    fs.writeFileSync(target, (note.kind === 'thumbnail' ? thumbnail(note.title, note.colour) : facade(note.title)).png());
  }
}

const SMALL_WORDS = new Set(['and', 'of', 'the', 'for']);

function thumbnail(name: string, colour: string): Picture {
  const { width, height } = THUMBNAIL_SIZE;
  const picture = new Picture(width, height, colour);
  const initials = ascii(name).split(/\s+/).filter((w) => /^[A-Za-z0-9]/.test(w) && !SMALL_WORDS.has(w)).slice(0, 2).map((w) => w.charAt(0).toUpperCase()).join('');
  const scale = 3;
  const x = Math.round((width - initials.length * GLYPH_WIDTH * scale) / 2);
  picture.text(x, Math.round((height - GLYPH_HEIGHT * scale) / 2) + 6, initials, scale, light(colour) ? '#1F2328' : '#FFFFFF');
  return picture;
}

const BRICKS = ['#9C4A2F', '#B5651D', '#8B5A44', '#C9A66B', '#7A6A58', '#A0522D', '#B9B2A0'];

/** A facade in the manner of the catalogue's terraces, varied by the title, the title above it. */
function facade(title: string): Picture {
  const { width, height } = PHOTO_SIZE;
  const p = new Picture(width, height, '#DCE6EE');
  const h = hash(title);
  const storeys = 2 + (h % 4);
  const bays = 3 + ((h >>> 3) % 4);
  const brick = at(BRICKS, (h >>> 6) % BRICKS.length);
  const ground = 700;
  const bay = 120;
  const storey = Math.min(115, Math.floor(440 / storeys));
  const w = bays * bay + 60;
  const top = ground - storeys * storey - 30;
  const left = (width - w) / 2;
  p.rect(0, ground, width, height - ground, '#8F8A80');
  p.rect(0, ground, width, 8, '#6F6A62');
  if ((h >>> 9) % 2 === 0) p.gable(left - 10, left + w + 10, top, width / 2, top - 90, '#5B4636');
  else p.rect(left - 10, top - 36, w + 20, 36, brick);
  p.rect(left, top, w, ground - top, brick);
  p.rect(left - 14, top, w + 28, 14, '#E9E4D8');
  const door = Math.floor(bays / 2);
  for (let floor = 0; floor < storeys; floor++) {
    for (let b = 0; b < bays; b++) {
      const x = left + 30 + b * bay + 30;
      const y = ground - (floor + 1) * storey + 18;
      if (floor === 0 && b === door) {
        p.rect(x - 4, y - 6, 68, ground - y + 6, '#E9E4D8');
        p.rect(x + 4, y + 2, 52, ground - y - 2, '#3C2A1E');
      } else window(p, x, y, 60, storey - 40);
    }
  }
  titleBand(p, title);
  p.text(24, height - 56, 'Demo picture (heritage-api)', 2, '#F4F1EA');
  return p;
}

function window(p: Picture, x: number, y: number, w: number, h: number): void {
  p.rect(x - 5, y - 5, w + 10, h + 10, '#F2EFE6');
  p.rect(x, y, w, h, '#2F3B45');
  p.rect(x, y + h / 2 - 2, w, 4, '#F2EFE6');
  p.rect(x + w / 2 - 2, y, 4, h, '#F2EFE6');
  p.rect(x - 8, y + h + 5, w + 16, 6, '#E9E4D8');
}

/** The title in one or two lines at the top, as large as fits. */
function titleBand(p: Picture, title: string): void {
  const text = ascii(title);
  const scale = text.length * GLYPH_WIDTH * 3 <= p.width - 80 ? 3 : 2;
  const perLine = Math.floor((p.width - 80) / (GLYPH_WIDTH * scale));
  const lines = wrap(text, perLine).slice(0, 2);
  p.rect(0, 0, p.width, 40 + lines.length * GLYPH_HEIGHT * scale, '#1F2328');
  lines.forEach((line, i) => p.text(40, 20 + i * GLYPH_HEIGHT * scale, line, scale, '#FFFDF8'));
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word.slice(0, width));
  }
  return lines;
}

/** The bitmap font's letters: accents dropped, typographic quotes and dashes made plain. */
function ascii(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, '-');
}

function light(hex: string): boolean {
  const channel = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return 0.299 * channel(1) + 0.587 * channel(3) + 0.114 * channel(5) > 150;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
