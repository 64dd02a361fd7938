// `npm run bench -- --edit [--store …] [--scale 10] [--rounds N]`: issue 47's "each save is one
// change, one new catalogue version, visible on every face within 1 s". Two `serve` processes
// with contributions on over one catalogue (as stateless servers behind a balancer); an editor
// corrects a building's address through the first server's form (/edit/features/{id}), a new
// address each round, and from the save's POST each server is asked, every 10 ms, each face
// alone, until it shows the new address: the record in /api/v1/ and /ogc/, the building's
// page, the site's search for a word only the new address has, and a CSV download of a box
// around the building. Then the same for a picture's credit (/edit/images/{id}: its record
// in /api/v1/ and /ogc/, its page and its building's page). Each face is asked once on each
// server before the save, as on servers in service. The version each save made is read from
// the form's answer (`?saved=N`): one save, one version, each the one after the last.
import { addAccount, json, medianAndWorst, POLL_MS, signedIn, visibleEverywhere, type ApprovalServer, type Browser, type Check, type FormFields, type Settings } from './approve.js';
import { formOf } from '../test/support/edit-form.js';

export interface EditTargets {
  /** The building whose address is corrected, and a box (minLon,minLat,maxLon,maxLat) around it for the download. */
  feature: { id: number; box: string };
  /** The picture whose credit is changed, and its building (whose page shows the credit); null: no picture round. */
  image: { id: number; feature: number } | null;
}

/** Lower-case letters only (no digits): one word to the search of both stores, found in no other record. */
function uniqueWord(round: number): string {
  const letters = (n: number) => n.toString(26).split('').map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('');
  return `mark${letters(Date.now())}${letters(round)}`;
}

const page = async (origin: string, path: string) => (await fetch(`${origin}${path}`, { headers: { accept: 'text/html' } })).text();
const download = async (origin: string, path: string) => (await fetch(`${origin}${path}`)).text();
/** How an answer of HTML writes the text (the record pages escape it). */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The faces that must show building `id`'s new `address`, each asked alone. */
function addressChecks(id: number, address: string, word: string, box: string): Check[] {
  return [
    ['/api/v1/', async (origin) => (await json(origin, `/api/v1/features/${id}/`)).body?.properties?.address === address],
    ['/ogc/ item', async (origin) => (await json(origin, `/ogc/collections/features/items/${id}?f=json`)).body?.properties?.address === address],
    ['the building\'s page', async (origin) => (await page(origin, `/places/${id}/`)).includes(escaped(address))],
    ['the search', async (origin) => (await page(origin, `/search/?q=${word}`)).includes(`/places/${id}/`)],
    ['the CSV download', async (origin) => (await download(origin, `/ogc/collections/features/items?f=csv&bbox=${box}`)).includes(address)],
  ];
}

/** The faces that must show picture `id`'s new `credit` (an author's name), each asked alone. */
function creditChecks(id: number, feature: number, credit: string): Check[] {
  return [
    ['/api/v1/', async (origin) => (await json(origin, `/api/v1/images/${id}/`)).body?.author?.username === credit],
    ['/ogc/ item', async (origin) => (await json(origin, `/ogc/collections/images/items/${id}?f=json`)).body?.properties?.author === credit],
    ['the picture\'s page', async (origin) => (await page(origin, `/pictures/${id}/`)).includes(escaped(credit))],
    ['the building\'s page', async (origin) => (await page(origin, `/places/${feature}/`)).includes(escaped(credit))],
  ];
}

interface Save {
  editor: Browser;
  servers: readonly ApprovalServer[];
  /** The record's form, e.g. /edit/features/12. */
  path: string;
  fields: FormFields;
  checks: readonly Check[];
}

/** One save through the form, timed from its POST to every face of every server; the version it made. */
async function timeSave({ editor, servers, path, fields, checks }: Save) {
  const form = formOf((await editor.get(path)).text);
  if (typeof form['csrf'] !== 'string' || typeof form['seen'] !== 'string') throw new Error(`no record form at ${path}`);
  // As on servers in service: each face asked once before (cached pages made and kept).
  for (const server of servers) {
    for (const [name, check] of checks) if (await check(server.origin)) throw new Error(`${name} shows the change before it is saved`);
  }
  const started = performance.now();
  const saved = await editor.post(path, { ...form, ...fields });
  const answeredMs = performance.now() - started;
  const version = Number(/\?saved=(\d+)$/.exec(saved.location ?? '')?.[1]);
  if (saved.status !== 303 || !Number.isInteger(version)) throw new Error(`the save was refused (${saved.status}): ${saved.text.slice(0, 500)}`);
  return { answeredMs, version, visible: await visibleEverywhere(servers, checks, started) };
}

interface Rounds {
  name: string;
  rounds: number;
  save: (round: number) => Omit<Save, 'editor' | 'servers'>;
}

/** `rounds` saves one after the other; each round's line, then the slowest server's median and worst. */
async function timeRounds(editor: Browser, servers: readonly ApprovalServer[], kind: Rounds, last: { version: number | null }, log: (line: string) => void) {
  log(`${kind.name}; each server's ms to each face in that order:`);
  const slowest: number[] = [];
  const answers: number[] = [];
  for (let round = 1; round <= kind.rounds; round++) {
    const { answeredMs, version, visible } = await timeSave({ editor, servers, ...kind.save(round) });
    const step = last.version === null ? '' : version === last.version + 1 ? ' (the last + 1)' : ` (NOT the last + 1: the last was ${last.version})`;
    last.version = version;
    slowest.push(Math.max(...visible.map((v) => v.ms)));
    answers.push(answeredMs);
    log(`  round ${round}: the save answered in ${answeredMs.toFixed(0)} ms, version ${version}${step}; visible everywhere on ${visible.map((v, i) => `server ${i + 1} after ${v.ms.toFixed(0)} ms (last ${v.last}; ${v.times.map((t) => t.toFixed(0)).join(' / ')})`).join(', ')}`);
  }
  log(`  the save's answer ${medianAndWorst(answers, null)}; slowest server of each round: ${medianAndWorst(slowest)}`);
}

export async function timeEdits(entry: string, settings: Settings, servers: readonly ApprovalServer[], targets: EditTargets, rounds: number, log: (line: string) => void): Promise<void> {
  addAccount(entry, settings, 'bench-editor', 'editor');
  const [first] = servers;
  if (first === undefined) throw new Error('no server');
  const editor = await signedIn(first.origin, 'bench-editor');
  const { feature, image } = targets;
  log(`editor's save to visible everywhere: ${servers.length} servers over one catalogue, each save through the first's form; each server asked every ${POLL_MS} ms from the save's POST, each face alone, ${rounds} rounds`);
  const last = { version: null as number | null };
  await timeRounds(editor, servers, {
    name: `building ${feature.id}'s address, a new one each round: /api/v1/, /ogc/ item, its page, the search for a word of it, a CSV download of bbox=${feature.box}`,
    rounds,
    save: (round) => {
      const word = uniqueWord(round);
      const address = `${round} Fournier Street (round ${round}, ${word})`;
      return { path: `/edit/features/${feature.id}`, fields: { address }, checks: addressChecks(feature.id, address, word, feature.box) };
    },
  }, last, log);
  if (image === null) return;
  await timeRounds(editor, servers, {
    name: `picture ${image.id}'s credit, a new name each round: /api/v1/, /ogc/ item, its page, building ${image.feature}'s page`,
    rounds,
    save: (round) => {
      const credit = `Bench Studio ${uniqueWord(round)}`;
      return { path: `/edit/images/${image.id}`, fields: { author: credit }, checks: creditChecks(image.id, image.feature, credit) };
    },
  }, last, log);
}
