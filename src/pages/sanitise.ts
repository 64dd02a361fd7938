// A document body from the catalogue, made safe on the server for the record pages (the map
// page does the same in the browser with DOMPurify). An allow-list, rebuilt from scratch:
// only p, strong, em, a (href http(s) or relative; rel="nofollow noopener noreferrer" when
// a browser would take it to another host), sup, br, ul, ol, li come out, each written by
// this code with no other attribute; every other tag is dropped (its text kept, except
// inside script, style and the like, dropped whole); comments go; text is escaped.
// The `[^n]` markers become linked footnotes, and a `<p>[^n]: …</p>` becomes note n.

const ALLOWED = new Set(['p', 'strong', 'em', 'a', 'sup', 'br', 'ul', 'ol', 'li']);
const VOID = new Set(['br']);
/** Elements whose content is not text to show: dropped with everything inside. */
const DROP_WHOLE = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'svg', 'math', 'select', 'head']);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: & < > " ' escaped, but a well-formed character reference kept. */
export function escapeText(text: string): string {
  return text.replace(/&(?!(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});)|[<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Every & < > " ' escaped, character references too: text that holds no markup at all. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Character references a link could hide a scheme in, decoded before the scheme is judged. */
function decodeReferences(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Math.min(Number(dec), 0x10ffff)))
    .replace(/&colon;/gi, ':').replace(/&tab;/gi, '\t').replace(/&newline;/gi, '\n').replace(/&amp;/gi, '&');
}

/**
 * Stand-ins for the page a document is shown on, on either scheme: an href is judged by where
 * a browser would take it from there (the page's own host is not known here).
 */
const PAGE_BASES = ['http://page.invalid/ogc/collections/documents/items/1', 'https://page.invalid/ogc/collections/documents/items/1'].map((base) => new URL(base));

/**
 * Where a browser would take an href, by the WHATWG URL parser: 'here' (the page's own host),
 * 'elsewhere' (another host: absolute, or `//x`, `/\x`, `\\x`, which read as relative but
 * name a host), or null when it is no URL a browser could follow.
 */
function destination(href: string): 'here' | 'elsewhere' | null {
  let elsewhere = false;
  for (const base of PAGE_BASES) {
    if (!URL.canParse(href, base.href)) return null;
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.host !== base.host) elsewhere = true;
  }
  return elsewhere ? 'elsewhere' : 'here';
}

/** An href kept: http(s), or relative (no scheme before the first / ? #); null otherwise. */
export function safeHref(raw: string): string | null {
  // Browsers ignore tabs and newlines inside URLs and leading/trailing C0 controls and spaces.
  const value = decodeReferences(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (value === '') return null;
  if (/^https?:\/\//i.test(value)) return value;
  const scheme = /^[^/?#]*:/.exec(value);
  return scheme === null ? value : null;
}

/** A link as written: a safe href, and the external rel wherever it leads to another host. */
function linkTag(raw: string): string {
  const href = safeHref(raw);
  const leads = href === null ? null : destination(href);
  if (href === null || leads === null) return '<a>';
  return `<a href="${escapeAttribute(href)}"${leads === 'elsewhere' ? ' rel="nofollow noopener noreferrer"' : ''}>`;
}

interface Tag {
  readonly name: string;
  readonly closing: boolean;
  readonly attributes: ReadonlyMap<string, string>;
  /** Index just past the `>`. */
  readonly end: number;
}

/** The tag starting at `<` (at), or null when the `<` starts no tag (it is text then). */
function readTag(html: string, at: number): Tag | null {
  const match = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(at, at + 64));
  if (match === null) return null;
  const attributes = new Map<string, string>();
  let i = at + match[0].length;
  const attribute = /\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?|\s*\/|\s+/y;
  while (i < html.length && html[i] !== '>') {
    attribute.lastIndex = i;
    const found = attribute.exec(html);
    if (found === null || found[0].length === 0) {
      i++;
      continue;
    }
    if (found[1] !== undefined) {
      const name = found[1].toLowerCase();
      if (!attributes.has(name)) attributes.set(name, found[2] ?? found[3] ?? found[4] ?? '');
    }
    i = attribute.lastIndex;
  }
  return { name: (match[2] ?? '').toLowerCase(), closing: match[1] === '/', attributes, end: Math.min(i + 1, html.length) };
}

const MARKER = /\[\^(\d{1,4})\]/g;
const DEFINITION = /^\s*\[\^(\d{1,4})\]:\s*/;

/** The end tags of the elements still open (innermost last), innermost first. */
const closing = (open: string[]) => open.reverse().map((name) => `</${name}>`);

/** Text with `[^n]` markers as links to note n (ids `prefix-fn-n`, `prefix-ref-n`), escaped. */
function textWithMarkers(text: string, prefix: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    const n = Number(match[1]);
    out += escapeText(text.slice(last, match.index));
    out += `<sup><a href="#${prefix}-fn-${n}" id="${prefix}-ref-${n}" class="footnote-ref" aria-label="Note ${n}">${n}</a></sup>`;
    last = match.index + match[0].length;
  }
  return out + escapeText(text.slice(last));
}

/**
 * The body as safe HTML. `prefix` (letters, digits, -) names the footnote ids, unique per
 * document on a page.
 */
export function sanitiseDocument(html: string, prefix: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(prefix)) throw new Error(`bad footnote prefix ${prefix}`);
  return rebuilt(html, prefix);
}

/** The same allow-list with the `[^n]` markers left as text: a body to be kept, which its pages then sanitise with their footnotes. */
export function sanitiseHtml(html: string): string {
  return rebuilt(html, null);
}

function rebuilt(html: string, prefix: string | null): string {
  const out: string[] = [];
  const open: string[] = [];
  let i = 0;
  let text = '';
  const flushText = () => {
    if (text === '') return;
    if (prefix === null) {
      out.push(escapeText(text));
      text = '';
      return;
    }
    const lastOut = out[out.length - 1];
    const definition = DEFINITION.exec(text);
    if (definition !== null && lastOut === '<p>' && open[open.length - 1] === 'p') {
      const n = Number(definition[1]);
      out[out.length - 1] = `<p id="${prefix}-fn-${n}" class="footnote" tabindex="-1"><a href="#${prefix}-ref-${n}" class="footnote-back" aria-label="Back to the text of note ${n}">${n}.</a> `;
      text = text.slice(definition[0].length);
    }
    out.push(textWithMarkers(text, prefix));
    text = '';
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text += html.slice(i);
      break;
    }
    text += html.slice(i, lt);
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close === -1 ? html.length : close + 3;
      continue;
    }
    if (html.startsWith('<!', lt) || html.startsWith('<?', lt)) {
      const close = html.indexOf('>', lt);
      i = close === -1 ? html.length : close + 1;
      continue;
    }
    const tag = readTag(html, lt);
    if (tag === null) {
      text += '<';
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (!tag.closing && DROP_WHOLE.has(tag.name)) {
      const close = new RegExp(`</${tag.name}[\\s/>]`, 'ig');
      close.lastIndex = i;
      const found = close.exec(html);
      if (found === null) {
        i = html.length;
      } else {
        const end = html.indexOf('>', found.index);
        i = end === -1 ? html.length : end + 1;
      }
      continue;
    }
    if (!ALLOWED.has(tag.name)) continue;
    flushText();
    if (tag.closing) {
      const at = open.lastIndexOf(tag.name);
      if (at === -1) continue;
      out.push(...closing(open.splice(at)));
      continue;
    }
    if (tag.name === 'a') {
      out.push(linkTag(tag.attributes.get('href') ?? ''));
    } else {
      out.push(`<${tag.name}>`);
    }
    if (!VOID.has(tag.name)) open.push(tag.name);
  }
  flushText();
  out.push(...closing(open.splice(0)));
  return out.join('');
}
