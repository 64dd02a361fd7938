// A browser's part in the contributors' forms, for HTTP tests: a cookie jar (what Set-Cookie
// said, sent back as Cookie) and a form's hidden csrf read from its page. Written here, not
// taken from the code under test.
import type { Answer, HttpTarget } from './http.js';

export interface SetCookie {
  name: string;
  value: string;
  attributes: Map<string, string>;
}

/** Each Set-Cookie of an answer, with its attributes (names in lower case). */
export function setCookies(answer: Answer): SetCookie[] {
  const raw = answer.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return lines.map((line) => {
    const [pair, ...rest] = line.split(';').map((s) => s.trim());
    const at = pair!.indexOf('=');
    const attributes = new Map(rest.map((a) => {
      const eq = a.indexOf('=');
      return eq === -1 ? [a.toLowerCase(), ''] as [string, string] : [a.slice(0, eq).toLowerCase(), a.slice(eq + 1)] as [string, string];
    }));
    return { name: pair!.slice(0, at), value: decodeURIComponent(pair!.slice(at + 1)), attributes };
  });
}

/** The value of a page's hidden csrf field; throws when there is none. */
export function csrfOf(html: string): string {
  const m = /<input type="hidden" name="csrf" value="([^"]+)">/.exec(html);
  if (!m) throw new Error('no csrf field on the page');
  return m[1]!;
}

/** The value of a review page's hidden `seen` field (the digest of the fields it shows, sent back with a decision). */
export function seenOf(html: string): string {
  const m = /<input type="hidden" name="seen" value="([^"]+)">/.exec(html);
  if (!m) throw new Error('no seen field on the page');
  return m[1]!;
}

export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** One browser: its cookies, kept across requests. */
export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly target: HttpTarget, private readonly headers: Record<string, string> = {}) {}

  async get(path: string): Promise<Answer> {
    return this.keep(await this.target.request(path, { headers: this.sent() }));
  }

  /** POSTs the fields as a form (urlencoded; a list: the field repeated, as ticked boxes send it), with this browser's cookies. */
  async post(path: string, fields: Record<string, string | readonly string[]>): Promise<Answer> {
    const pairs: [string, string][] = Object.entries(fields).flatMap(([name, v]) => (typeof v === 'string' ? [[name, v]] : v.map((one): [string, string] => [name, one])));
    const body = new URLSearchParams(pairs).toString();
    return this.keep(await this.target.request(path, { method: 'POST', body, headers: { ...this.sent(), 'content-type': 'application/x-www-form-urlencoded' } }));
  }

  /** POSTs a multipart form, encoded by the platform's own FormData (undici), with this browser's cookies. */
  async postMultipart(path: string, form: FormData): Promise<Answer> {
    const encoded = new Request('http://encode.invalid/', { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    return this.keep(await this.target.request(path, { method: 'POST', body, headers: { ...this.sent(), 'content-type': encoded.headers.get('content-type')! } }));
  }

  /** GETs a form page and POSTs its csrf with the fields. */
  async submit(formPath: string, fields: Record<string, string | readonly string[]>, postPath = formPath): Promise<Answer> {
    const page = await this.get(formPath);
    return this.post(postPath, { csrf: csrfOf(page.text), ...fields });
  }

  private sent(): Record<string, string> {
    const cookie = [...this.cookies].map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('; ');
    return { accept: BROWSER_ACCEPT, ...this.headers, ...(cookie === '' ? {} : { cookie }) };
  }

  private keep(answer: Answer): Answer {
    for (const c of setCookies(answer)) {
      const expires = c.attributes.get('expires');
      if (c.value === '' || (expires !== undefined && Date.parse(expires) <= Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return answer;
  }
}
