// A contributor's writing is plain text; a catalogue document's body is HTML. The text is
// escaped whole, paragraphs are its blank-line-separated parts (a single line break kept as
// <br>), and http(s) addresses become links that leave the site without its referrer. No
// markup a contributor types survives as markup: the body is safe before any sanitiser runs
// (the pages sanitise every document body again: pages/sanitise.ts).
import { escapeAttribute as escapeHtml } from '../pages/sanitise.js';

/** An address as typed: scheme, then anything up to a space or an angle bracket; a closing mark of punctuation is not part of it. */
const ADDRESS = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'’]/g;

export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => `<p>${part.split('\n').map(lineToHtml).join('<br>')}</p>`)
    .join('');
}

function lineToHtml(line: string): string {
  let html = '';
  let from = 0;
  for (const match of line.matchAll(ADDRESS)) {
    html += escapeHtml(line.slice(from, match.index));
    const address = escapeHtml(match[0]);
    html += `<a href="${address}" rel="nofollow noopener noreferrer">${address}</a>`;
    from = (match.index ?? from) + match[0].length;
  }
  return html + escapeHtml(line.slice(from));
}
