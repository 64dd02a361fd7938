// `npm run bench -- --approve [--store …] [--scale 10]`: issue 37's "approved to visible
// everywhere in ≤ 1 s". Two `serve` processes with contributions on over one catalogue (as
// stateless servers behind a balancer); a contributor sends writing about a building through
// one, an editor approves it there, and from the approval's POST each server is asked, every
// 10 ms, until it shows the new record everywhere: /api/v1/documents/ (its count), the record
// in /api/v1/ and /ogc/, the building's count, and the building's page (each alone; a check is
// met when the answer that shows it has come). The other server learns
// of it by its version poll (VERSION_POLL_MS, 500 ms by default). Each place is asked once on each
// server before the approval, as on servers in service.
import { spawnSync } from 'node:child_process';

export interface ApprovalServer {
  origin: string;
}

export interface Settings {
  database: string;
  databaseSchema?: string;
}

/** A form's fields as sent: a ticked list (checkboxes) is one pair per value. */
export type FormFields = Record<string, string | readonly string[]>;

const PASSWORD = 'a patient bench of editors';
export const POLL_MS = 10;
const GIVE_UP_MS = 10_000;

/** An account of `role` made as an administrator makes it (`users add`, the password on standard input). */
export function addAccount(entry: string, settings: Settings, username: string, role: 'editor' | 'contributor'): void {
  const db = ['--db', settings.database, ...(settings.databaseSchema ? ['--schema', settings.databaseSchema] : [])];
  const made = spawnSync(process.execPath, [entry, 'users', 'add', username, '--role', role, ...db], { input: `${PASSWORD}\n`, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`users add failed: ${made.stderr}`);
}

/** A browser signed in at `origin` as `username` (made by addAccount). */
export async function signedIn(origin: string, username: string): Promise<Browser> {
  const browser = new Browser(origin);
  if ((await browser.submit('/account/signin', { username, password: PASSWORD })).status !== 303) throw new Error(`${username} could not sign in`);
  return browser;
}

const formBody = (fields: FormFields) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of typeof value === 'string' ? [value] : value) body.append(name, v);
  return body.toString();
};

/** One browser's cookies, and the forms it fills (fetch, redirects not followed). */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  async get(path: string): Promise<{ status: number; text: string; location: string | null }> {
    return this.keep(await fetch(`${this.origin}${path}`, { redirect: 'manual', headers: this.headers() }));
  }

  async post(path: string, fields: FormFields) {
    const headers = { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' };
    return this.keep(await fetch(`${this.origin}${path}`, { method: 'POST', redirect: 'manual', headers, body: formBody(fields) }));
  }

  /** The form page's csrf sent back with the fields. */
  async submit(path: string, fields: FormFields, to = path) {
    const form = await this.get(path);
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1];
    if (csrf === undefined) throw new Error(`no form at ${path} (${form.status})`);
    return this.post(to, { csrf, ...fields });
  }

  private headers(): Record<string, string> {
    return { accept: 'text/html', cookie: [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ') };
  }

  private async keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read as the API documents them
export const json = async (origin: string, path: string): Promise<{ status: number; body: any }> => {
  const response = await fetch(`${origin}${path}`, { headers: { accept: 'application/json' } });
  return { status: response.status, body: response.status === 200 ? await response.json() : null };
};

/** What must show document `id` (of `title`, about building `feature`), each asked alone: `before`, the counts before it. */
function checks(id: number, title: string, feature: number, before: { documents: number; count: number }): Check[] {
  return [
    ['the documents\' count', async (origin) => (await json(origin, '/api/v1/documents/')).body?.count === before.documents + 1],
    ['the record in /api/v1/', async (origin) => (await json(origin, `/api/v1/documents/${id}/`)).status === 200],
    ['the record in /ogc/', async (origin) => (await json(origin, `/ogc/collections/documents/items/${id}?f=json`)).status === 200],
    ['the building\'s count', async (origin) => (await json(origin, `/api/v1/features/${feature}/`)).body?.properties?.count === before.count + 1],
    ['the building\'s page', async (origin) => (await fetch(`${origin}/places/${feature}/`, { headers: { accept: 'text/html' } }).then((r) => r.text())).includes(title)],
  ];
}

/** When (ms after `started`) the answer came that first showed it, each check asked again every POLL_MS until then. */
export async function firstShown(check: (origin: string) => Promise<boolean>, origin: string, started: number): Promise<number> {
  for (;;) {
    const shown = await check(origin);
    const at = performance.now() - started;
    if (shown) return at;
    if (at > GIVE_UP_MS) return Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function timeApproval(entry: string, settings: Settings, servers: ApprovalServer[], feature: number, rounds: number, log: (line: string) => void): Promise<void> {
  addAccount(entry, settings, 'bench-editor', 'editor');
  const [first] = servers;
  const editor = await signedIn(first!.origin, 'bench-editor');
  const contributor = new Browser(first!.origin);
  if ((await contributor.submit('/account/signup', { username: 'bench-contributor', password: PASSWORD })).status !== 303) throw new Error('the contributor could not sign up');
  log(`approval to visible everywhere: ${servers.length} servers over one catalogue, writing sent and approved through the first; each server asked every ${POLL_MS} ms from the approval's POST (documents' count, the record in /api/v1/ and /ogc/, the building's count and page), ${rounds} rounds`);
  const worst: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const title = `A memory of the street, round ${round} (${Date.now()})`;
    const before = { documents: (await json(first!.origin, '/api/v1/documents/')).body.count as number, count: (await json(first!.origin, `/api/v1/features/${feature}/`)).body.properties.count as number };
    const sent = await contributor.submit(`/contribute/${feature}/document`, { title, body: 'We lived above the shop until 1962.' });
    if (sent.status !== 303) throw new Error(`the contribution was refused (${sent.status})`);
    const queue = await editor.get('/moderate/');
    const id = Number([...queue.text.matchAll(/\/moderate\/(\d+)"/g)].at(-1)?.[1]);
    const review = await editor.get(`/moderate/${id}`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(review.text)![1]!;
    // The version of the contribution the review showed: without it the approval is refused as made over a newer one.
    const seen = /name="seen" value="([^"]*)"/.exec(review.text)?.[1] ?? '';
    // As on a server in service: each place asked once before (the building's page then made and kept).
    for (const server of servers) for (const [, check] of checks(0, title, feature, before)) await check(server.origin);
    const started = performance.now();
    const approved = await editor.post(`/moderate/${id}/approve`, { csrf, seen, title, body: 'We lived above the shop until 1962.', action: 'approve' });
    const answeredMs = performance.now() - started;
    const recordId = Number(/\/documents\/(\d+)\/$/.exec(approved.location ?? '')?.[1]);
    if (approved.status !== 303 || !Number.isInteger(recordId)) throw new Error(`the approval failed (${approved.status})`);
    const visible = await visibleEverywhere(servers, checks(recordId, title, feature, before), started);
    worst.push(Math.max(...visible.map((v) => v.ms)));
    log(`  round ${round}: the approval answered in ${answeredMs.toFixed(0)} ms; visible everywhere on ${describeVisible(visible)}`);
  }
  log(`  slowest of each round: ${medianAndWorst(worst)}`);
}

/** A place that must show a change: its name, and whether a server's answer shows it. */
export type Check = [string, (origin: string) => Promise<boolean>];

/** Each server's time (ms after `started`) to show the change in every place, and the place that showed it last. */
export function visibleEverywhere(servers: readonly ApprovalServer[], each: readonly Check[], started: number): Promise<{ ms: number; last: string; times: number[] }[]> {
  return Promise.all(servers.map(async (server) => {
    const times = await Promise.all(each.map(([, check]) => firstShown(check, server.origin, started)));
    const last = times.indexOf(Math.max(...times));
    return { ms: times[last]!, last: each[last]![0], times };
  }));
}

export const describeVisible = (visible: readonly { ms: number; last: string }[]) => visible.map((v, i) => `server ${i + 1} after ${v.ms.toFixed(0)} ms (last ${v.last})`).join(', ');

export function medianAndWorst(times: readonly number[], target: string | null = '≤ 1000'): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, worst ${sorted.at(-1)!.toFixed(0)} ms${target === null ? '' : ` (target ${target})`}`;
}
