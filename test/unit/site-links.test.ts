// Whether the pages lead to the contributors' forms (pages/site.ts siteOf): with contributions
// on, except from a read-only replica that has no primary to send them to (its forms answer
// 503); and the header's sign-in links follow the same flag (pages/shell.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { page } from '../../src/pages/shell.js';
import { siteOf } from '../../src/pages/site.js';

const TEXTS = { siteTitle: 'T', siteDescription: 'D', sitePublisher: 'P', siteLicence: 'L', siteLicenceUrl: null, siteLocality: null, siteCountry: null };

test('contribution links: on, off, on a replica with and without PRIMARY_URL', () => {
  const cases: [Parameters<typeof siteOf>[0], Parameters<typeof siteOf>[1], boolean][] = [
    [{ ...TEXTS, contributions: true, primaryUrl: null }, null, true],
    [{ ...TEXTS, contributions: true, primaryUrl: null }, 'primary', true],
    [{ ...TEXTS, contributions: true, primaryUrl: null }, 'replica', false],
    [{ ...TEXTS, contributions: true, primaryUrl: 'https://primary.example.org' }, 'replica', true],
    [{ ...TEXTS, contributions: false, primaryUrl: null }, 'primary', false],
  ];
  for (const [config, role, offered] of cases) {
    const site = siteOf(config, role);
    assert.equal(site.contributions, offered, `${config.contributions} ${role} ${config.primaryUrl}`);
    const nav = page({ baseUrl: 'https://h.example', site }, { title: 'x', heading: 'x', description: 'x', alternates: [], crumbs: [] }).accountNav;
    assert.deepEqual(nav.map((l) => l.href), offered ? ['https://h.example/account/signin', 'https://h.example/account/signup'] : []);
  }
});
