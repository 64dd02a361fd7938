// The JSON Schemas in docs/ are the ones the validators compile (written again with
// UPDATE_SCHEMAS=1), valid JSON Schema 2020-12 for a strict validator, and they take and
// refuse what the command's checks take and refuse as to shape.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { formatCatalogue } from '../../src/catalogue/dump.js';
import { PUBLISHED_SCHEMAS, compiledChangeSchemaText, publishedSchemaText } from '../../src/changes/json-schema.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { ROOT } from '../support/root.js';

const names = Object.keys(PUBLISHED_SCHEMAS) as (keyof typeof PUBLISHED_SCHEMAS)[];

for (const name of names) {
  test(`docs/${name} is the schema the checks compile`, () => {
    const file = path.join(ROOT, 'docs', name);
    if (process.env.UPDATE_SCHEMAS === '1') fs.writeFileSync(file, publishedSchemaText(name));
    assert.equal(fs.readFileSync(file, 'utf8'), publishedSchemaText(name), `out of date: UPDATE_SCHEMAS=1 node --import tsx --test ${path.relative(ROOT, import.meta.filename)}`);
  });
}

test('src/changes/compiled-schema.ts is the change file\'s TypeBox schema, which ChangeValidator compiles', () => {
  const file = path.join(ROOT, 'src/changes/compiled-schema.ts');
  if (process.env.UPDATE_SCHEMAS === '1') fs.writeFileSync(file, compiledChangeSchemaText());
  assert.equal(fs.readFileSync(file, 'utf8'), compiledChangeSchemaText(), `out of date: UPDATE_SCHEMAS=1 node --import tsx --test ${path.relative(ROOT, import.meta.filename)}`);
});

function compile(name: keyof typeof PUBLISHED_SCHEMAS) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats.default(ajv);
  // media-path and http-url are the format's own: a validator that does not know a format lets it pass.
  ajv.addFormat('media-path', true).addFormat('http-url', true);
  return ajv.compile(PUBLISHED_SCHEMAS[name]());
}

test('the catalogue schema takes the test catalogue and refuses an unknown key', () => {
  const validate = compile('heritage-catalogue-1.schema.json');
  const catalogue = JSON.parse(formatCatalogue(buildTestCatalogue())) as Record<string, unknown>;
  assert.ok(validate(catalogue), JSON.stringify(validate.errors));
  assert.equal(validate({ ...catalogue, colour: 'red' }), false);
});

test('the change file schema takes a change and refuses what is not one', () => {
  const validate = compile('heritage-changes-1.schema.json');
  const catalogue = buildTestCatalogue();
  const good: Record<string, unknown> = { format: 'heritage-changes/1', features: { put: [catalogue.features[0]] }, images: { remove: [7] }, sites: {} };
  assert.ok(validate(good), JSON.stringify(validate.errors));
  for (const bad of [
    { ...good, format: 'heritage-catalogue/1' },
    { ...good, images: { remove: [0] } },
    { ...good, images: { drop: [7] } },
    { ...good, features: { put: [{ ...catalogue.features[0], colour: 'red' }] } },
    { ...good, media: { put: [{ id: 1 }] } },
  ]) assert.equal(validate(bad), false, JSON.stringify(bad).slice(0, 120));
});
