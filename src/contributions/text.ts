// A contributor's writing is Markdown's safe subset (issue 47); a catalogue document's body is
// HTML. markdown-it reads it with raw HTML off (anything typed in angle brackets stays text)
// and only these rules on: paragraphs (a single line break kept as <br>), *emphasis*,
// **strong**, [links](https://…), web addresses linked as typed, and bullet lists. A number
// at a line's start stays as typed ("1726. The chapel…" is not a list). The HTML is then
// rebuilt by the pages' own allow-list (pages/sanitise.ts: links http(s) or relative, another
// host's with rel="nofollow noopener noreferrer"), so the preview, the review and the
// published body are this one function's output, and the pages sanitise it again.
import MarkdownIt from 'markdown-it';
import { sanitiseHtml } from '../pages/sanitise.js';

const MARKDOWN = new MarkdownIt('zero', { html: false, linkify: true, breaks: true })
  .enable(['newline', 'escape', 'entity', 'emphasis', 'link', 'autolink', 'linkify', 'list']);

/** A line starting with a number and a dot or bracket: its mark escaped, so it is never an ordered list. */
const NUMBERED_LINE = /^([ \t]*\d{1,9})([.)])(?=[ \t]|$)/gm;

export function textToHtml(text: string): string {
  const source = text.replace(/\r\n?/g, '\n').replace(NUMBERED_LINE, '$1\\$2');
  return sanitiseHtml(MARKDOWN.render(source)).replace(/\n+/g, '');
}
