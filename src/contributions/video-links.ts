// A video link (issue 45): parsed as a browser parses it (the WHATWG URL parser) and kept in
// ONE form per service, written here from the video's id, never as typed: no user-info (a
// `youtu.be\@evil.example` is a path on youtu.be to the parser, yet another host to some
// readers), no redirect endpoints (`/redirect`, `/attribution_link`), no tracking parameters.

export type VideoLink = { url: string } | { problem: string };

interface Service {
  name: string;
  id: RegExp;
  canonical(id: string): string;
  /** What an address looks like, for the refusal. */
  example: string;
}

const YOUTUBE: Service = {
  name: 'YouTube', id: /^[A-Za-z0-9_-]{11}$/, canonical: (id) => `https://www.youtube.com/watch?v=${id}`, example: 'https://www.youtube.com/watch?v=… or https://youtu.be/…',
};
const VIMEO: Service = { name: 'Vimeo', id: /^[0-9]{1,20}$/, canonical: (id) => `https://vimeo.com/${id}`, example: 'https://vimeo.com/123456789' };

/** Where a page's address holds its video's id: the path's segments (a trailing slash dropped) and the query. */
type IdOf = (segments: readonly string[], query: URLSearchParams) => string | undefined;

const only: IdOf = (segments) => (segments.length === 1 ? segments[0] : undefined);
/** The pages youtube.com shows one video on: watch?v=ID, embed/ID, shorts/ID, live/ID. */
const youtubePage: IdOf = (segments, query) => {
  const [first, id, ...rest] = segments;
  if (first === 'watch' && id === undefined) return query.getAll('v').length === 1 ? query.get('v') ?? undefined : undefined;
  return (first === 'embed' || first === 'shorts' || first === 'live') && rest.length === 0 ? id : undefined;
};
const vimeoPlayer: IdOf = ([first, id, ...rest]) => (first === 'video' && rest.length === 0 ? id : undefined);

/** The hosts whose pages the original site linked, and nothing else. */
const HOSTS = new Map<string, { service: Service; idOf: IdOf }>([
  ['www.youtube.com', { service: YOUTUBE, idOf: youtubePage }],
  ['youtube.com', { service: YOUTUBE, idOf: youtubePage }],
  ['m.youtube.com', { service: YOUTUBE, idOf: youtubePage }],
  ['youtu.be', { service: YOUTUBE, idOf: only }],
  ['vimeo.com', { service: VIMEO, idOf: only }],
  ['www.vimeo.com', { service: VIMEO, idOf: only }],
  ['player.vimeo.com', { service: VIMEO, idOf: vimeoPlayer }],
]);

function segmentsOf(pathname: string): string[] {
  const segments = pathname.split('/').slice(1);
  return segments.at(-1) === '' ? segments.slice(0, -1) : segments;
}

/** The video's address in its one stored form, or why it is refused (a sentence for the form). */
export function canonicalVideoLink(text: string): VideoLink {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'Give the address of the video\'s page, starting https://' };
  }
  if (url.protocol !== 'https:') return { problem: 'The address must start https://' };
  if (url.username !== '' || url.password !== '') return { problem: 'The address must not hold a name or password.' };
  const host = HOSTS.get(url.hostname);
  if (host === undefined) return { problem: 'Videos are linked from YouTube or Vimeo only.' };
  const id = url.port === '' ? host.idOf(segmentsOf(url.pathname), url.searchParams) : undefined;
  const { service } = host;
  if (id === undefined || !service.id.test(id)) return { problem: `That is not the address of a ${service.name} video: give one like ${service.example}` };
  return { url: service.canonical(id) };
}
