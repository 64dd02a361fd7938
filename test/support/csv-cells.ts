// CSV as a spreadsheet would open it: an RFC 4180 reader, and a catalogue whose texts begin
// as formulas do (=, +, -, @, tab, carriage return) with the cells a download or an export
// must write for them (issue 33, defect 5): such text with a leading ' and quoted, as OWASP's
// CSV injection guidance says; numbers as they are, a negative one too.
import assert from 'node:assert/strict';
import type { Catalogue } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from './catalogue.js';

/** RFC 4180: fields separated by commas, quoted ones may hold commas, doubled quotes and line breaks; CRLF ends a record. */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      let j = i + 1;
      for (;;) {
        const k = text.indexOf('"', j);
        if (k === -1) throw new Error('unterminated quoted field');
        field += text.slice(j, k);
        if (text[k + 1] === '"') {
          field += '"';
          j = k + 2;
        } else {
          i = k + 1;
          break;
        }
      }
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      field += c;
    }
    i += 1;
  }
  if (field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

/** The test catalogue with formula-like texts in feature 1, its site and image 7. */
export function formulaCatalogue(): Catalogue {
  const catalogue = buildTestCatalogue();
  Object.assign(catalogue.features.find((f) => f.id === 1)!, {
    b_name: '=HYPERLINK("http://evil.example/","Click")',
    b_number: '-5',
    street: '+44 Street',
    postcode: '@SUM(1+1)',
    address: '\tTabbed Street',
    tags: ['-2+3', 'industry'],
    current: -1,
  });
  catalogue.sites.find((s) => s.id === 1)!.name = '\r=1+1';
  Object.assign(catalogue.images.find((i) => i.id === 7)!, { title: '=1+1', description: 'A = B, not a formula' });
  return catalogue;
}

/**
 * Each written cell as it must appear in the file, by collection, record id and property:
 * written out by hand (not by the encoder's rule). The last of each is a control: text with
 * = elsewhere than first, or a negative number, is written as it is.
 */
export const FORMULA_CELLS: Readonly<Record<'features' | 'images', Readonly<Record<number, Readonly<Record<string, string>>>>>> = {
  features: {
    1: {
      b_name: `"'=HYPERLINK(""http://evil.example/"",""Click"")"`,
      b_number: `"'-5"`,
      street: `"'+44 Street"`,
      postcode: `"'@SUM(1+1)"`,
      address: `"'\tTabbed Street"`,
      site_name: `"'\r=1+1"`,
      tags: `"'-2+3; industry"`,
      current: '-1',
    },
  },
  images: {
    7: {
      title: `"'=1+1"`,
      description: '"A = B, not a formula"',
    },
  },
};

/** A cell as written → as read (RFC 4180 unquoting). */
export const cellText = (written: string) => (written.startsWith('"') ? written.slice(1, -1).replaceAll('""', '"') : written);

/** The cells of FORMULA_CELLS in one collection's CSV: read, each is its text; written, the file holds it exactly, quotes and all. */
export function assertFormulaCells(csv: string, collection: keyof typeof FORMULA_CELLS): void {
  const [header, ...rows] = readCsv(csv);
  for (const [id, cells] of Object.entries(FORMULA_CELLS[collection])) {
    const row = rows.find((r) => r[header!.indexOf('id')] === id);
    assert.ok(row !== undefined, `${collection} ${id}: a row`);
    for (const [name, written] of Object.entries(cells)) {
      assert.equal(row[header!.indexOf(name)], cellText(written), `${collection} ${id}: ${name} as read`);
      assert.ok(csv.includes(`,${written},`), `${collection} ${id}: ${name} written as ${JSON.stringify(written)}`);
    }
    // Every footprint here lies west of Greenwich: a negative longitude, a number, written as it is.
    const lon = row[header!.indexOf('lon')]!;
    assert.match(lon, /^-0\.\d+$/, `${collection} ${id}: lon`);
    assert.ok(csv.includes(`,${lon},`), `${collection} ${id}: lon written as it is`);
  }
}
