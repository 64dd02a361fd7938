// A contributor's writing (Markdown's safe subset) as a document's HTML, a picture's words, a picture's type by
// its first bytes: the pure rules of issue 37's forms, against answers written out here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFields } from '../../src/contributions/kinds.js';
import { pictureTypeOf } from '../../src/contributions/pictures.js';
import { textToHtml } from '../../src/contributions/text.js';

test('writing: Markdown\'s safe subset, typed markup escaped, links safe and leaving the site without its referrer', () => {
  const away = 'rel="nofollow noopener noreferrer"';
  const cases: [string, string][] = [
    ['One line.', '<p>One line.</p>'],
    ['First\n\nSecond', '<p>First</p><p>Second</p>'],
    ['First\r\n \r\n\r\nSecond\nthird', '<p>First</p><p>Second<br>third</p>'],
    ['Built in **1726**, *rebuilt* in __1898__', '<p>Built in <strong>1726</strong>, <em>rebuilt</em> in <strong>1898</strong></p>'],
    ['<b>bold</b> <script>alert(1)</script> & "quotes"', '<p>&lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</p>'],
    ['See [the survey](https://example.org/s?a=1&b=2) or [its page](/places/3/).', `<p>See <a href="https://example.org/s?a=1&amp;b=2" ${away}>the survey</a> or <a href="/places/3/">its page</a>.</p>`],
    ['See https://example.org/a?b=1&c=2.', `<p>See <a href="https://example.org/a?b=1&amp;c=2" ${away}>https://example.org/a?b=1&amp;c=2</a>.</p>`],
    ['[click](javascript:alert(1)) and [data](data:text/html,x)', '<p>[click](javascript:alert(1)) and [data](data:text/html,x)</p>'],
    ['javascript:alert(1) is not a link', '<p>javascript:alert(1) is not a link</p>'],
    ['- a hall\n- a yard', '<ul><li>a hall</li><li>a yard</li></ul>'],
    ['1726. The chapel is built.\n2) Then the hall.', '<p>1726. The chapel is built.<br>2) Then the hall.</p>'],
    ['# Not a heading\n> nor a quote', '<p># Not a heading<br>&gt; nor a quote</p>'],
    ['A note.[^1]\n\n[^1]: Kept as typed, for the pages to link.', '<p>A note.[^1]</p><p>[^1]: Kept as typed, for the pages to link.</p>'],
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
