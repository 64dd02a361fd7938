// An editor's record form (src/render/edit/record-templates.ts) read back as a browser would
// send it unchanged, for HTTP tests and the bench: written here from the HTML, not taken from
// the code that makes it.

/** Text as Eta escapes it, unescaped. */
export const decodeHtml = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Every field of the record form: inputs, textareas, the chosen option and radio, the ticked boxes. */
export function formOf(html: string): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = {};
  const start = html.indexOf('<form class="edit"');
  const body = html.slice(start, html.indexOf('</form>', start));
  for (const m of body.matchAll(/<input (?:id="[^"]*" )?(?:type="hidden" )?name="([^"]+)"(?: type="(text|date|hidden)")? value="([^"]*)"/g)) form[m[1]!] = decodeHtml(m[3]!);
  // A newline right after <textarea> is the parser's, not the text's.
  for (const m of body.matchAll(/<textarea id="[^"]*" name="([^"]+)"[^>]*>\n?([^<]*)<\/textarea>/g)) form[m[1]!] = decodeHtml(m[2]!);
  for (const m of body.matchAll(/<select id="[^"]*" name="([^"]+)"[^>]*>([^]*?)<\/select>/g)) form[m[1]!] = /<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? '';
  for (const m of body.matchAll(/<input type="radio" name="([^"]+)" value="([^"]*)" checked>/g)) form[m[1]!] = m[2]!;
  for (const m of body.matchAll(/<input type="checkbox" name="([^"]+)" value="([^"]*)" checked>/g)) {
    const ticked = form[m[1]!];
    form[m[1]!] = [...(Array.isArray(ticked) ? ticked : []), m[2]!];
  }
  return form;
}

/** One field's value as the form shows it: an input's value, or a textarea's text. */
export function fieldValue(html: string, name: string): string | null {
  const input = new RegExp(`<input id="field-${name}" name="${name}" type="[a-z]+" value="([^"]*)"`).exec(html);
  const area = new RegExp(`<textarea id="(?:field-)?${name}" name="${name}"[^>]*>\\n?([^<]*)</textarea>`).exec(html);
  const raw = input?.[1] ?? area?.[1];
  return raw === undefined ? null : decodeHtml(raw);
}
