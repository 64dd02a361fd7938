// Video links (issue 45): every address a service gives one video becomes that service's one
// form, and anything else is refused with its reason; the forms written out here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFields } from '../../src/contributions/kinds.js';
import { canonicalVideoLink } from '../../src/contributions/video-links.js';

const ID = 'dQw4w9WgXcQ';
const WATCH = `https://www.youtube.com/watch?v=${ID}`;
const VIMEO = 'https://vimeo.com/76979871';

const NOT_YOUTUBE = 'That is not the address of a YouTube video: give one like https://www.youtube.com/watch?v=… or https://youtu.be/…';
const NOT_VIMEO = 'That is not the address of a Vimeo video: give one like https://vimeo.com/123456789';
const ELSEWHERE = 'Videos are linked from YouTube or Vimeo only.';
const NOT_HTTPS = 'The address must start https://';
const NOT_URL = 'Give the address of the video\'s page, starting https://';

test('every address of a YouTube video becomes https://www.youtube.com/watch?v=ID', () => {
  for (const url of [
    WATCH,
    `https://youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}`,
    `https://WWW.YouTube.COM/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}&t=42s&list=PL1234&feature=share`,
    `https://www.youtube.com/watch?feature=share&v=${ID}#t=3`,
    `https://www.youtube.com/watch/?v=${ID}`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?t=3`,
    `https://youtu.be/${ID}/`,
    `https://youtu.be/${ID}?si=tracking123`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/embed/${ID}?start=10&autoplay=1`,
    `https://youtube.com/shorts/${ID}`,
    `https://www.youtube.com/live/${ID}?feature=share`,
    `https://www.youtube.com:443/watch?v=${ID}`,
    '  https://youtu.be/a-b_C1234Z9  ',
  ]) {
    const id = url.includes('a-b_C1234Z9') ? 'a-b_C1234Z9' : ID;
    assert.deepEqual(canonicalVideoLink(url.trim()), { url: `https://www.youtube.com/watch?v=${id}` }, url);
  }
});

test('every address of a Vimeo video becomes https://vimeo.com/ID', () => {
  for (const url of [VIMEO, `${VIMEO}/`, 'https://www.vimeo.com/76979871', 'https://vimeo.com/76979871?share=copy#t=10s', 'https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871?h=8d1b2c&badge=0', 'https://VIMEO.com/76979871']) {
    assert.deepEqual(canonicalVideoLink(url), { url: VIMEO }, url);
  }
});

test('anything else is refused, with what to give instead', () => {
  const cases: [string, string][] = [
    ['', NOT_URL],
    ['not a url', NOT_URL],
    [`youtu.be/${ID}`, NOT_URL],
    ['javascript:alert(1)', NOT_HTTPS],
    [`http://www.youtube.com/watch?v=${ID}`, NOT_HTTPS],
    [`ftp://vimeo.com/76979871`, NOT_HTTPS],
    [`data:text/html,${WATCH}`, NOT_HTTPS],
    // User-info: to the parser a name and password before youtube.com, to a reader perhaps another host.
    [`https://user:pw@www.youtube.com/watch?v=${ID}`, 'The address must not hold a name or password.'],
    [`https://evil.example@youtu.be/${ID}`, 'The address must not hold a name or password.'],
    // A backslash is a slash to the WHATWG parser: a path on youtu.be, not a video.
    ['https://youtu.be\\@evil.example/', NOT_YOUTUBE],
    [`https://youtu.be\\@evil.example/${ID}`, NOT_YOUTUBE],
    // YouTube's redirect endpoints and other pages.
    ['https://www.youtube.com/redirect?q=https%3A%2F%2Fevil.example%2F', NOT_YOUTUBE],
    [`https://www.youtube.com/attribution_link?u=%2Fwatch%3Fv%3D${ID}`, NOT_YOUTUBE],
    ['https://www.youtube.com/', NOT_YOUTUBE],
    ['https://www.youtube.com/@somechannel', NOT_YOUTUBE],
    ['https://www.youtube.com/playlist?list=PL1234', NOT_YOUTUBE],
    [`https://www.youtube.com/v/${ID}`, NOT_YOUTUBE],
    [`https://www.youtube.com/embed/${ID}/more`, NOT_YOUTUBE],
    [`https://www.youtube.com/WATCH?v=${ID}`, NOT_YOUTUBE],
    ['https://youtu.be/', NOT_YOUTUBE],
    [`https://youtu.be/${ID}/extra`, NOT_YOUTUBE],
    // The id: exactly 11 of A–Z, a–z, 0–9, _ and -; given once.
    ['https://www.youtube.com/watch?v=abc', NOT_YOUTUBE],
    [`https://www.youtube.com/watch?v=${ID}x`, NOT_YOUTUBE],
    ['https://youtu.be/dQw4w9WgXc%21', NOT_YOUTUBE],
    ['https://youtu.be/%64Qw4w9WgXcQ', NOT_YOUTUBE],
    ['https://www.youtube.com/watch?v=', NOT_YOUTUBE],
    [`https://www.youtube.com/watch?v=${ID}&v=aaaaaaaaaaa`, NOT_YOUTUBE],
    [`https://www.youtube.com:8443/watch?v=${ID}`, NOT_YOUTUBE],
    // Vimeo: digits, on the page or the player.
    ['https://vimeo.com/', NOT_VIMEO],
    ['https://vimeo.com/channels/staffpicks/76979871', NOT_VIMEO],
    ['https://vimeo.com/76979871/abcdef1234', NOT_VIMEO],
    ['https://vimeo.com/abc', NOT_VIMEO],
    ['https://player.vimeo.com/76979871', NOT_VIMEO],
    ['https://player.vimeo.com/video/', NOT_VIMEO],
    // Other hosts, look-alikes among them.
    [`https://www.youtube.com.evil.example/watch?v=${ID}`, ELSEWHERE],
    [`https://evil.example/watch?v=${ID}`, ELSEWHERE],
    [`https://evil.example/?u=${WATCH}`, ELSEWHERE],
    [`https://www.youtube-nocookie.com/embed/${ID}`, ELSEWHERE],
    [`https://music.youtube.com/watch?v=${ID}`, ELSEWHERE],
    [`https://youtube.com./watch?v=${ID}`, ELSEWHERE],
    [`https://www.yоutube.com/watch?v=${ID}`, ELSEWHERE],
    ['https://vimeo.com.evil.example/76979871', ELSEWHERE],
    [`https://constructor/watch?v=${ID}`, ELSEWHERE],
  ];
  for (const [url, problem] of cases) assert.deepEqual(canonicalVideoLink(url), { problem }, url);
});

test('a video\'s fields as read (and so stored, corrected and published): the link in its one form', () => {
  assert.deepEqual(readFields('media', { title: ' A walk ', url: ` https://youtu.be/${ID}?t=3 ` }), { fields: { title: 'A walk', url: WATCH }, problems: {} });
  assert.deepEqual(readFields('media', { title: 'A walk', url: 'https://youtu.be\\@evil.example/' }).problems, { url: NOT_YOUTUBE });
});
