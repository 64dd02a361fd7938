// The standard's own examples for the classes served: each text and its JSON give one tree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseCql2Json } from '../../src/ogc/cql2/json-reader.js';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toText } from '../../src/ogc/cql2/to-text.js';

interface Example { readonly name: string; readonly text: string; readonly json: unknown }
const { examples } = JSON.parse(
  readFileSync(new URL('../fixtures/cql2/standard-examples.json', import.meta.url), 'utf8'),
) as { examples: Example[] };

const parser = createCql2TextParser();

test('the standard examples: 58, text and JSON read into equal trees', () => {
  assert.equal(examples.length, 58);
  for (const example of examples) {
    const fromText = parser.parse(example.text);
    const fromJson = parseCql2Json(JSON.stringify(example.json));
    assert.deepEqual(fromText, fromJson, example.name);
    assert.deepEqual(parser.parse(toText(fromText)), fromText, `${example.name} printed: ${toText(fromText)}`);
  }
});
