// The prose of the demo catalogue: building names, upload file names, captions,
// document bodies (HTML with footnotes) and video titles.

import type { Rng } from './random.js';
import * as W from './words.js';

/** What the text generators know about the feature they write for. */
export interface Subject {
  street: string | null;
  number: string | null;
  name: string | null;
  kind: string;
  year: number | null;
}

const person = (rng: Rng) => `${rng.pick(W.FIRST_NAMES)} ${rng.pick(W.SURNAMES)}`;
const decade = (rng: Rng, lo: number, hi: number) => Math.floor(rng.int(lo, hi) / 10) * 10;
const shortStreet = (street: string) => street.replace(/ Street$/, ' St').replace(/ Road$/, ' Rd');

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const PRODUCTS = ['cigar', 'match', 'furniture', 'sugar', 'clothing', 'boot', 'cap', 'printing', 'umbrella', 'piano'];
const SAINTS = ['Mark', 'Jude', 'Paul', 'Peter', 'Thomas', 'Augustine', 'Anne', 'Matthias', 'Stephen'];
const PUB_WORDS = ['Arms', 'Tavern', 'Head', 'Hotel'];

/**
 * A plausible name for a building of `kind` on `street`. Proper names of institutions are
 * used once (`used` remembers them); after that the name falls back to a street-based one.
 */
export function buildingName(rng: Rng, kind: string, street: string, used: Set<string>): string {
  const once = (pool: readonly string[], fallback: () => string): string => {
    const name = rng.pick(pool);
    if (used.has(name)) return fallback();
    used.add(name);
    return name;
  };
  const former = rng.chance(0.15) ? 'Former ' : '';
  switch (kind) {
    case 'pub': {
      const name = rng.chance(0.7) ? rng.pick(W.PUB_NAMES) : `${rng.pick(W.SURNAMES)} ${rng.pick(PUB_WORDS)}`;
      return rng.chance(0.3) ? `Former ${name} public house` : `The ${name}`;
    }
    case 'synagogue': return once(W.SYNAGOGUES, () => `${street} Synagogue`);
    case 'chapel': return rng.chance(0.6) ? `${former}${street} ${rng.pick(W.CHAPELS)}` : former + rng.pick(W.CHAPELS);
    case 'church': return once(W.CHURCHES, () => `${former}St ${rng.pick(SAINTS)}'s Mission Church`);
    case 'mosque': return once(W.MOSQUES, () => `${street} Masjid`);
    case 'school': return `${former}${street} ${rng.pick(W.SCHOOL_TYPES)}`;
    case 'mission': return once(W.MISSIONS, () => `${street} Mission Hall`);
    case 'theatre': return former + once(W.THEATRES, () => `${street} ${rng.pick(['Electric Theatre', 'Picture House', 'Music Hall'])}`);
    case 'bank': return rng.pick(W.BANKS);
    case 'public': return former + rng.pick(W.PUBLIC);
    case 'club': return once(W.CLUBS, () => `${street} ${rng.pick(["Boys' Club", "Working Men's Club", 'Reading Room', 'Institute'])}`);
    case 'cafe': return rng.chance(0.3) ? once(W.CAFES, () => `${rng.pick(W.SURNAMES)}'s dining rooms`) : `${rng.pick(W.SURNAMES)}'s café`;
    case 'brewery': return `${rng.pick(W.SURNAMES)}'s ${rng.pick(['brewery', 'maltings', 'brewery stores'])}`;
    case 'hospital': return once(W.HOSPITALS, () => `${street} Dispensary`);
    case 'industry': return rng.chance(0.5) ? former + rng.pick(W.INDUSTRY) : `${rng.pick(W.SURNAMES)}'s ${rng.pick(PRODUCTS)} factory`;
    case 'warehouse':
      return rng.pick([`${rng.pick(W.SURNAMES)}'s warehouse`, 'Former tea warehouse', 'Bonded warehouse', 'Tobacco warehouse', 'Furniture warehouse']);
    case 'workshop': return `Former ${rng.pick(W.TRADES)}'s workshop`;
    case 'shop':
      return rng.pick([`${rng.pick(W.SURNAMES)}'s`, `${rng.pick(W.SURNAMES)} & Sons`, `Former ${rng.pick(W.TRADES)}'s shop`]);
    default: return `${rng.pick(W.SURNAMES)} ${rng.pick(W.HOUSING)}`;
  }
}

/** Names that every catalogue gets first: one of each awkward character in a media path. */
export const SHOWCASE_FILE_NAMES = [
  'Osborn St 1975 (GLC).jpg', "St Mary's #2.jpg", 'Cafè & shop.jpg', '100% pure.jpg', 'Łódź émigrés.png',
];

const SOURCES_SHORT = ['GLC', 'THLHLA', 'LMA', 'Historic England', 'SoL', 'Bishopsgate Inst', 'private collection'];
const VIEWS = ['front', 'rear', 'interior', 'shopfront', 'roof', 'yard', 'detail', 'doorway', 'cellar', 'staircase'];

/** The name an upload might have had, before it reached the server. */
export function imageFileName(rng: Rng, subject: Subject): string {
  const street = subject.street ?? 'Whitechapel Road';
  const n = rng.int(1, 9999);
  const pad = String(n).padStart(4, '0');
  switch (rng.int(0, 13)) {
    case 0: return `IMG_${pad}.JPG`;
    case 1: return `DSC0${pad}.jpg`;
    case 2: return `P10${pad}${rng.int(0, 9)}.JPG`;
    case 3: return `${shortStreet(street)} ${rng.int(1890, 2018)} (${rng.pick(SOURCES_SHORT)}).jpg`;
    case 4: return `${subject.number ?? ''} ${street} ${rng.pick(VIEWS)}.jpg`.trim();
    case 5: return `${rng.pick(W.SURNAMES)}'s shop.jpg`;
    case 6: return `${shortStreet(street)} #${rng.int(1, 12)}.jpg`;
    case 7: return `${street} shops & houses.jpg`;
    case 8: return rng.pick(['100% beef.jpg', '50% off sign.jpg', '100% cotton label.png']);
    case 9: return rng.pick(['Café Naz.jpg', 'Zoë’s photo.jpeg', `Brick Lane – Eid ${rng.int(2015, 2019)}.jpg`, 'Straße sign.jpg', 'বাংলা sign.jpg', 'Ünal façade.png']);
    case 10: return `Goad ${rng.pick([1890, 1899, 1921, 1953])} sheet ${rng.int(1, 40)}.png`;
    case 11: return `scan${rng.int(1, 300)}.jpg`;
    case 12: return `photo ${String(rng.int(1, 28)).padStart(2, '0')}-${String(rng.int(1, 12)).padStart(2, '0')}-${rng.int(2016, 2019)}.jpeg`;
    default: return `${shortStreet(street).toLowerCase().replace(/ /g, '_')}_${n}.jpg`;
  }
}

export function imageTitle(rng: Rng, subject: Subject): string {
  const y = rng.int(1880, 2018);
  return rng.pick([
    `Street front, ${y}`, 'Rear elevation', 'Interior, ground floor', 'Shopfront detail', `Goad insurance plan, ${rng.pick([1890, 1899, 1921])}`,
    `Ordnance Survey map, ${rng.pick([1873, 1894, 1914])}`, `View from ${subject.street ?? 'the street'}, c.${decade(rng, 1900, 1970)}`,
    `${subject.name ?? subject.street ?? 'Building'} in ${y}`, 'Ghost sign', 'Doorcase', 'Roofscape from the east', `Photographed in ${rng.int(2016, 2019)}`,
  ]);
}

export function imageDescription(rng: Rng, subject: Subject, username: string): string {
  const r = rng.next();
  if (r < 0.4) return '';
  if (r < 0.8) {
    return rng.pick([
      `Looking ${rng.pick(['north', 'south', 'east', 'west'])} along ${subject.street ?? 'the street'}.`,
      `Photograph by ${username}.`, 'Courtesy of Tower Hamlets Local History Library and Archives.',
      `The shop when it was run by the ${rng.pick(W.SURNAMES)} family.`, 'Reproduced by permission of Historic England.',
    ]);
  }
  return [
    `Photographed ${rng.pick(W.MONTHS)} ${rng.int(2016, 2019)}.`,
    `Source: ${rng.pick(['Tower Hamlets Local History Library and Archives', 'London Metropolitan Archives', 'private collection'])}`,
    `Ref. P${rng.int(1000, 99999)}`,
  ].slice(0, rng.int(2, 3)).join('\n');
}

/** A footnote source, preferring one that existed around `year`. */
function source(rng: Rng, year: number): string {
  let [template, lo, hi] = rng.pick(W.SOURCES);
  for (let tries = 0; tries < 4 && (hi < year - 30 || lo > year + 120); tries++) [template, lo, hi] = rng.pick(W.SOURCES);
  const y = rng.int(Math.max(lo, Math.min(hi, year - 30)), Math.min(hi, Math.max(lo, year + 120)));
  return template
    .replace('{n}', String(rng.int(10, 99999)))
    .replace('{y}', String(y))
    .replace('{d}', String(rng.int(1, 28)))
    .replace('{m}', rng.pick(W.MONTHS))
    .replace('{p}', String(rng.int(1, 900)));
}

const LINKS: readonly (readonly [string, string])[] = [
  ['https://www.ucl.ac.uk/bartlett/architecture/research/survey-london', 'Survey of London'],
  ['https://www.layersoflondon.org/', 'Layers of London'],
  ['https://www.british-history.ac.uk/survey-london/vol27', 'Survey of London, volume 27'],
  ['https://collections.londonmuseum.org.uk/', 'London Museum collections'],
  ['https://www.ideastore.co.uk/local-history', 'Tower Hamlets Local History Library'],
];

export function documentTitle(rng: Rng, subject: Subject, nth: number): string {
  const place = subject.name ?? [subject.number, subject.street].filter(Boolean).join(' ');
  if (nth === 0) return place;
  return rng.pick([`Memories of ${place}`, `${place}: a history`, `The ${rng.pick(W.TRADES)}'s shop at ${place}`, `Growing up on ${subject.street ?? place}`, `${place} in the ${decade(rng, 1900, 1990)}s`]);
}

/** An HTML article; history articles carry `[^n]` footnotes with `[^n]:` paragraphs at the end. */
export function documentBody(rng: Rng, subject: Subject, history: boolean): string {
  return history ? historyBody(rng, subject) : memoirBody(rng, subject);
}

/** A neighbour's memories of the place: no footnotes. */
function memoirBody(rng: Rng, subject: Subject): string {
  const e = escapeHtml;
  const street = e(subject.street ?? 'the street');
  return `<p>My ${rng.pick(['grandfather', 'grandmother', 'father', 'aunt', 'mother'])} had a ${rng.pick(W.TRADES)}'s shop here in the ${decade(rng, 1920, 1990)}s. ` +
    `We lived upstairs, ${rng.int(5, 11)} of us in three rooms.</p>` +
    `<p>I remember <em>${e(person(rng))}</em> who kept the ${rng.pick(W.TRADES)}'s next door, and the smell of the ` +
    `${rng.pick(['bakery', 'brewery', 'sugar refinery', 'market'])} on a Sunday morning. ${street} was ${rng.pick(['always busy', 'never quiet', 'our whole world'])}.</p>`;
}

/** The Survey's history of a building: who built it, who used it since, where to read more; at least one footnote. */
function historyBody(rng: Rng, subject: Subject): string {
  const e = escapeHtml;
  const street = e(subject.street ?? 'the street');
  const what = e(subject.name ?? [subject.number, subject.street].filter(Boolean).join(' '));
  const year = subject.year ?? rng.int(1700, 1900);
  const notes = new Footnotes(rng);
  const paragraphs = [foundingParagraph(rng, what, year, notes), ...laterParagraphs(rng, street, year, notes)];
  const [href, label] = rng.pick(LINKS);
  paragraphs.push(`<p>Further material is held by <a href="${href}">${e(label)}</a>.${notes.cite(2017)}</p>`);
  if (notes.count === 0) {
    notes.add(source(rng, year));
    paragraphs[0] = (paragraphs[0] ?? '').replace(/<\/p>$/, '[^1]</p>');
  }
  return paragraphs.join('') + notes.html();
}

/** A history's footnotes: a marker where a source is cited (not always), the sources at the end. */
class Footnotes {
  private readonly sources: string[] = [];

  constructor(private readonly rng: Rng) {}

  get count(): number {
    return this.sources.length;
  }

  /** `[^n]` after a statement about the year `when`, a little under half the time; otherwise nothing. */
  cite(when: number): string {
    if (!this.rng.chance(0.45)) return '';
    this.add(source(this.rng, when));
    return `[^${this.sources.length}]`;
  }

  add(text: string): void {
    this.sources.push(text);
  }

  html(): string {
    return this.sources.map((text, i) => `<p>[^${i + 1}]: ${text}.</p>`).join('');
  }
}

function foundingParagraph(rng: Rng, what: string, year: number, notes: Footnotes): string {
  const e = escapeHtml;
  const earlier = Math.max(1600, year - rng.int(20, 150));
  const client = year < 1900 ? rng.pick(W.CLIENTS.slice(0, 8)) : rng.pick(['the London County Council', 'Stepney Borough Council', 'Tower Hamlets Council', 'a private developer', 'the Four Per Cent Industrial Dwellings Company']);
  return `<p><strong>${what}</strong> was built in ${year} for ${e(client)}, to designs by ${e(rng.pick(W.ARCHITECTS))}.${notes.cite(year)} ` +
    `The site had been built up since at least the ${decade(rng, earlier, earlier)}s, when ${e(person(rng))}, a ${rng.pick(W.TRADES)}, held it on a building lease.${notes.cite(earlier)}</p>`;
}

/** Up to three later moments (none for a recent building), each with one change to the building. */
function laterParagraphs(rng: Rng, street: string, year: number, notes: Footnotes): string[] {
  const e = escapeHtml;
  const years = Array.from({ length: year < 1990 ? rng.int(1, 3) : 0 }, () => rng.int(year + 5, Math.max(year + 5, 1975))).sort((a, b) => a - b);
  const later = rng.shuffle([0, 1, 2, 3]);
  return years.map((y, i) => `<p>${rng.pick([
    `By ${y} the ground floor was a ${rng.pick(W.TRADES)}'s shop kept by ${e(person(rng))}, with lodgers in the upper storeys.`,
    `In ${y} the premises were taken by ${e(rng.pick(W.SURNAMES))} &amp; Sons, ${rng.pick(W.TRADES)}s, who stayed for more than ${rng.int(10, 60)} years.`,
    `The <em>Post Office Directory</em> for ${y} lists ${e(person(rng))}, ${rng.pick(W.TRADES)}, at this address.`,
    `Like much of ${street}, the building was divided into workshops for the tailoring trade in the ${decade(rng, y, y)}s.`,
  ])}${notes.cite(y)} ${[
    year < 1940 ? `It was damaged by bombing in ${rng.pick([1940, 1941, 1944])} and patched up after the war.` : `It was altered in ${rng.int(year + 1, 2015)}.`,
    `In the ${decade(rng, Math.max(year, 1960), 1995)}s it became a garment factory run by ${e(rng.pick(['Abdul', 'Mohammed', 'Rahima', 'Shirin']))} ${e(rng.pick(['Ali', 'Miah', 'Uddin', 'Rahman', 'Choudhury']))}.`,
    year < 1900 ? `It was listed Grade II in ${rng.int(1950, 2000)}.` : `It was refurbished in ${rng.int(Math.max(year + 1, 1980), 2016)}.`,
    `The front was refaced in ${rng.pick(['yellow stock brick', 'red brick and terracotta', 'glazed faïence', 'stucco'])} in ${rng.int(year + 10, Math.max(year + 10, 1935))}.`,
  ][later[i] ?? 0]}${notes.cite(y)}</p>`);
}

export function mediaTitle(rng: Rng, subject: Subject): string {
  const where = subject.name ?? subject.street ?? 'Whitechapel';
  return rng.pick([
    `Walking ${subject.street ?? 'Whitechapel'}`, `Oral history: ${person(rng)} remembers ${where}`,
    `${where} in the ${decade(rng, 1930, 1990)}s`, `Inside ${where}`, `${subject.street ?? 'Whitechapel'} market, ${rng.int(1950, 2018)}`,
  ]);
}

export function mediaUrl(rng: Rng): string {
  return rng.chance(0.75)
    ? `https://www.youtube.com/watch?v=${rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-', 11)}`
    : `https://vimeo.com/${rng.int(10_000_000, 399_999_999)}`;
}
