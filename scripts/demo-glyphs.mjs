// Writes src/demo/glyphs.ts: printable ASCII as bitmaps, drawn once by Chromium from DejaVu
// Sans Mono Bold, so that the demo's pictures can carry their titles with no font library.
// Run by hand (node scripts/demo-glyphs.mjs) only to change the lettering.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

const WIDTH = 10;
const HEIGHT = 18;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
const page = await browser.newPage();
const rows = await page.evaluate(({ WIDTH, HEIGHT }) => {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const glyphs = [];
  for (let code = 32; code < 127; code++) {
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    ctx.font = 'bold 16px "DejaVu Sans Mono"';
    ctx.textBaseline = 'top';
    ctx.fillText(String.fromCharCode(code), 0, 1);
    const data = ctx.getImageData(0, 0, WIDTH, HEIGHT).data;
    const lines = [];
    for (let y = 0; y < HEIGHT; y++) {
      let bits = 0;
      for (let x = 0; x < WIDTH; x++) if (data[(y * WIDTH + x) * 4 + 3] > 110) bits |= 1 << (WIDTH - 1 - x);
      lines.push(bits.toString(16).padStart(3, '0'));
    }
    glyphs.push(lines.join(''));
  }
  return glyphs;
}, { WIDTH, HEIGHT });
await browser.close();
const body = rows.map((r) => `  '${r}',`).join('\n');
fs.writeFileSync(new URL('../src/demo/glyphs.ts', import.meta.url), `// Printable ASCII (32–126) as ${WIDTH}×${HEIGHT} bitmaps, three hex digits a row (the leftmost
// pixel the highest bit), made by scripts/demo-glyphs.mjs from DejaVu Sans Mono Bold.
export const GLYPH_WIDTH = ${WIDTH};
export const GLYPH_HEIGHT = ${HEIGHT};
export const GLYPHS: readonly string[] = [
${body}
];
`);
