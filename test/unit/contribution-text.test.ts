// A contributor's plain text as a document's HTML, a picture's words, a picture's type by
// its first bytes: the pure rules of issue 37's forms, against answers written out here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFields } from '../../src/contributions/kinds.js';
import { pictureTypeOf } from '../../src/contributions/pictures.js';
import { textToHtml } from '../../src/contributions/text.js';

test('plain text: escaped, paragraphs at blank lines, a single break kept, addresses linked without their closing punctuation', () => {
  const cases: [string, string][] = [
    ['One line.', '<p>One line.</p>'],
    ['First\n\nSecond', '<p>First</p><p>Second</p>'],
    ['First\r\n \r\n\r\nSecond\nthird', '<p>First</p><p>Second<br>third</p>'],
    ['<b>bold</b> & "quotes" \'too\'', '<p>&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot; &#39;too&#39;</p>'],
    ['&amp; stays as typed', '<p>&amp;amp; stays as typed</p>'],
    ['See https://example.org/a?b=1&c=2.', '<p>See <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">https://example.org/a?b=1&amp;c=2</a>.</p>'],
    ['(http://x.org/y)', '<p>(<a href="http://x.org/y" rel="nofollow noopener noreferrer">http://x.org/y</a>)</p>'],
    ['javascript:alert(1) is not a link', '<p>javascript:alert(1) is not a link</p>'],
    ['https://a.org/"onmouseover="x', '<p><a href="https://a.org/" rel="nofollow noopener noreferrer">https://a.org/</a>&quot;onmouseover=&quot;x</p>'],
    ['\n\n  \n', ''],
  ];
  for (const [text, html] of cases) assert.equal(textToHtml(text), html, JSON.stringify(text));
});

test('a picture\'s words: title required, a real past date or none, a licence chosen', () => {
  const ok = readFields('image', { title: ' The front ', description: '', created: '2016-02-29', licence: 'open', upload: 'u' });
  assert.deepEqual(ok, { fields: { title: 'The front', description: '', created: '2016-02-29', licence: 'open', upload: 'u' }, problems: {} });
  assert.deepEqual(Object.keys(readFields('image', { title: '', created: '2015-02-29', licence: 'mine' }).problems).sort(), ['created', 'licence', 'title']);
  assert.ok(readFields('image', { title: 'x', created: '2999-01-01', licence: 'open' }).problems.created);
});

test('a picture\'s type by its first bytes alone', () => {
  assert.equal(pictureTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])), 'jpeg');
  assert.equal(pictureTypeOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'png');
  assert.equal(pictureTypeOf(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')), 'webp');
  assert.equal(pictureTypeOf(Buffer.from('RIFF\x10\x00\x00\x00AVI LIST', 'latin1')), null);
  assert.equal(pictureTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
  assert.equal(pictureTypeOf(Buffer.from('GIF89a')), null);
  assert.equal(pictureTypeOf(new Uint8Array(0)), null);
});
