// A document body from the catalogue, made safe and readable: DOMPurify removes scripts,
// event handlers and javascript: URLs (the page's Content-Security-Policy would refuse them
// too), then the `[^n]` markers become linked footnotes, built as DOM nodes, never as HTML.
import DOMPurify from 'dompurify';

const MARKER = /\[\^(\d{1,4})\]/g;
const DEFINITION = /^\s*\[\^(\d{1,4})\]:\s*/;

const purifier = DOMPurify(window);
/** Marks a picture from another server, its address taken away while still in DOMPurify's inert document. */
const OUTSIDE = 'data-outside-picture';
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLAnchorElement && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  // DOMPurify's document is inert; the fragment it returns belongs to the page, where a
  // picture from another server would be requested at once: its src goes here, before that,
  // and its text replaces it below.
  if (node instanceof HTMLImageElement && !sameOrigin(node.getAttribute('src') ?? '')) {
    node.removeAttribute('src');
    node.setAttribute(OUTSIDE, '');
  }
});

function sameOrigin(src: string): boolean {
  try {
    return new URL(src, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

export function sanitise(html: string): DocumentFragment {
  const body = purifier.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style', 'id', 'name', 'srcset'],
  });
  // Pictures from other servers: their text only.
  for (const img of Array.from(body.querySelectorAll<HTMLImageElement>(`img[${OUTSIDE}]`))) img.replaceWith(document.createTextNode(img.alt));
  return body;
}

/** The body as DOM: sanitised, with footnotes `prefix-fn-n` and their references `prefix-ref-n`. */
export function renderDocumentBody(html: string, prefix: string): DocumentFragment {
  const body = sanitise(html);
  const notes = takeDefinitions(body);
  linkMarkers(body, prefix, new Set(notes.keys()));
  if (notes.size > 0) body.append(footnoteList(notes, prefix));
  return body;
}

/** Removes the `[^n]: text` paragraphs, returning their contents by n. */
function takeDefinitions(body: DocumentFragment): Map<number, Node[]> {
  const notes = new Map<number, Node[]>();
  for (const p of Array.from(body.querySelectorAll('p'))) {
    const first = p.firstChild;
    const match = first?.nodeType === Node.TEXT_NODE ? DEFINITION.exec(first.textContent ?? '') : null;
    if (!match || !first) continue;
    first.textContent = (first.textContent ?? '').slice(match[0].length);
    notes.set(Number(match[1]), Array.from(p.childNodes));
    p.remove();
  }
  return notes;
}

function linkMarkers(body: DocumentFragment, prefix: string, defined: Set<number>): void {
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    const value = text.data;
    if (!MARKER.test(value)) continue;
    MARKER.lastIndex = 0;
    const parts: Node[] = [];
    let last = 0;
    for (const match of value.matchAll(MARKER)) {
      parts.push(document.createTextNode(value.slice(last, match.index)));
      parts.push(reference(Number(match[1]), prefix, defined));
      last = match.index + match[0].length;
    }
    parts.push(document.createTextNode(value.slice(last)));
    text.replaceWith(...parts);
  }
}

function reference(n: number, prefix: string, defined: Set<number>): Node {
  const sup = document.createElement('sup');
  if (!defined.has(n)) {
    sup.textContent = String(n);
    return sup;
  }
  const link = document.createElement('a');
  link.href = `#${prefix}-fn-${n}`;
  link.id = `${prefix}-ref-${n}`;
  link.className = 'footnote-ref';
  link.textContent = String(n);
  link.setAttribute('aria-label', `Note ${n}`);
  sup.append(link);
  return sup;
}

function footnoteList(notes: Map<number, Node[]>, prefix: string): HTMLElement {
  // Not a landmark: a panel shows several documents, and their notes would repeat one
  // landmark's name (titles too may repeat). A heading under the document's says what follows.
  const section = document.createElement('section');
  section.className = 'footnotes';
  const heading = document.createElement('h4');
  heading.textContent = 'Notes';
  const list = document.createElement('ol');
  for (const [n, content] of [...notes].sort(([a], [b]) => a - b)) {
    const item = document.createElement('li');
    item.id = `${prefix}-fn-${n}`;
    item.value = n;
    item.tabIndex = -1;
    item.append(...content, ' ');
    const back = document.createElement('a');
    back.href = `#${prefix}-ref-${n}`;
    back.className = 'footnote-back';
    back.textContent = '↩';
    back.setAttribute('aria-label', `Back to the text of note ${n}`);
    item.append(back);
    list.append(item);
  }
  section.append(heading, list);
  return section;
}
