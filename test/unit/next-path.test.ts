// Where a sign-in goes on to (http/contribute/next.ts): a path of this site, or nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameSitePath } from '../../src/http/contribute/next.js';

test('next=: same-site paths kept, every way to another host or scheme dropped', () => {
  const cases: [unknown, string | null][] = [
    ['/contribute/1/image', '/contribute/1/image'],
    ['/account/contributions/3?done=sent', '/account/contributions/3?done=sent'],
    ['/', '/'],
    ['//evil.example/', null],
    ['/\\evil.example/', null],
    ['/a\\b', null],
    ['\\\\evil.example', null],
    ['https://evil.example/', null],
    ['javascript:alert(1)', null],
    ['evil.example/x', null],
    [' /x', null],
    ['/x\r\nLocation: //evil.example', null],
    ['/\tx', null],
    ['/x\u0085', null],
    ['', null],
    [`/${'a'.repeat(2000)}`, null],
    [undefined, null],
    [['/a'], null],
  ];
  for (const [next, kept] of cases) assert.equal(sameSitePath(next), kept, JSON.stringify(next));
});
