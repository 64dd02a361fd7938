// `apply` (issue 22) on the tests' store (test/postgres/apply.test.ts runs it on PostgreSQL):
// every kind of change in every list, checked two independent ways: the stored catalogue
// equals the old one edited by hand (export), and the API serves exactly what an import of
// that edited catalogue serves (pages, details, search, counts, OGC items, tiles). Every
// refusal by its JSON path, with nothing changed; a second apply and a dry run change
// nothing; a running server switches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from './support/catalogue.js';
import { applyTo, assertSameCatalogue, CHANGE_FORMAT, editedCatalogue, newFeature, nudged, storedCatalogue, storedVersion, type ChangeFileValue } from './support/apply.js';
import { runCli } from './support/cli.js';
import { appOnDatabase, startTestApp, type TestApp } from './support/in-process.js';
import { enc } from './support/ogc.js';
import { importInto } from './support/server.js';
import { createTestDatabase } from './support/stores.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import { temporaryDir } from './support/temporary.js';

const FORMAT = CHANGE_FORMAT;
const old = buildTestCatalogue();
const feature = (id: number) => structuredClone(old.features.find((f) => f.id === id)!);


/** Every kind of change, per list; each applied to the old catalogue on its own. */
const CHANGES: { name: string; file: ChangeFileValue }[] = [
  {
    name: 'put new records in every list',
    file: {
      format: FORMAT,
      authors: { put: [{ id: 11, username: 'archivist' }] },
      categories: { put: [{ id: 12, name: 'Markets', description: 'Street markets.', thumbnail: 'categories/markets.png' }] },
      sites: { put: [{ id: 13, name: 'Spitalfields Market' }] },
      // Ids below, between and above the stored ones: positions move for the ones after.
      features: { put: [newFeature(2, { categories: [12, 3], site: 13 }), newFeature(40), newFeature(200)] },
      images: { put: [{ id: 1, feature: 200, author: 11, title: 'Stalls at dawn', file: 'uploads/features/200/stalls.jpg', description: 'Saturday', copyright: true, created: '2020-01-04' }] },
      documents: { put: [{ id: 973, feature: 2, author: 2, title: 'The market hall', body: '<p>Rebuilt in <em>1893</em>.</p>', created: '2020-02-02', last_edited: '2020-02-03', published: true }] },
      media: { put: [{ id: 5, feature: 1, author: 11, title: 'Market sounds', url: 'https://example.org/sounds', published: true }] },
    },
  },
  {
    name: 'put replacements in every list',
    file: {
      format: FORMAT,
      authors: { put: [{ id: 5, username: 'zoe-renamed' }] },
      // Found in its features' search text: feature 1 is in it.
      categories: { put: [{ id: 4, name: 'Gasworks', description: '', thumbnail: 'categories/gas.png' }] },
      sites: { put: [{ id: 1, name: 'Royal London' }] },
      // Feature 1's names are in its attachments' search text; feature 5 moves far away.
      features: { put: [{ ...feature(1), b_name: 'Tramway depot', tags: ['trams'] }, { ...feature(5), geometry: newFeature(5).geometry, categories: [3] }] },
      // Image 9 is unpublished, image 8 published; document 971 moves to feature 7.
      images: { put: [{ ...old.images[2]!, published: false }, { ...old.images[1]!, published: true, title: 'Now shown' }] },
      documents: { put: [{ ...old.documents[0]!, feature: 7, title: 'Moved' }] },
      media: { put: [{ ...old.media[0]!, url: 'https://example.org/walk' }] },
    },
  },
  {
    name: 'buildings given another street, moved beside another street, added and removed',
    file: {
      format: FORMAT,
      features: {
        put: [{ ...feature(3), street: 'Quire Court' }, { ...feature(9), geometry: nudged(feature(9), 0.0002) }, newFeature(2001), newFeature(2003, { street: 'Quire Court' })],
        remove: [11],
      },
    },
  },
  {
    // Feature 1 is on site 1 and not in the file: its site's name changes what its pages show.
    name: 'a site renamed alone',
    file: { format: FORMAT, sites: { put: [{ id: 1, name: 'Whitechapel Works' }] } },
  },
  {
    name: 'removals in every list',
    file: {
      format: FORMAT,
      // Author 5's records go too; category 3 and site 1 are dropped from the features using them.
      authors: { remove: [5] },
      categories: { remove: [3] },
      sites: { remove: [1] },
      features: { put: [{ ...feature(1), categories: [4], site: null }, { ...feature(5), site: null }], remove: [89, 3, 45] },
      images: { remove: [8, 9] },
      documents: { remove: [972] },
      media: { remove: [6, 4] },
    },
  },
];

/** Answers that depend on every derived thing: positions, counts, search text, item counts, extents, tiles. */
const URLS = [
  '/api/v1/features/', '/api/v1/features/?page=2', '/api/v1/features/?page=last', '/api/v1/features/?page_size=7&page=4',
  '/api/v1/images/', '/api/v1/documents/', '/api/v1/media/', '/api/v1/features/1/', '/api/v1/features/5/', '/api/v1/features/200/',
  '/api/v1/images/1/', '/api/v1/images/8/', '/api/v1/documents/971/',
  '/api/v1/features/?q=tramway', '/api/v1/features/?q=gasworks', '/api/v1/features/?q=market', '/api/v1/features/?q=industry',
  '/api/v1/features/?q=street', '/api/v1/images/?q=tramway', '/api/v1/images/?q=osborn', '/api/v1/documents/?q=moved',
  '/api/v1/documents/?q=market', '/api/v1/media/?q=walking', '/api/v1/features/?category=4', '/api/v1/features/?tag=trams',
  '/api/v1/features/?bbox=-0.08,51.5,-0.05,51.53', '/api/v1/images/?author=5', '/ogc/collections/features/items?limit=3',
  '/ogc/collections/images/items?limit=2', '/ogc/collections', '/map/config.json',
  // Category names, joined per feature at import: put, renamed and dropped categories change them.
  '/ogc/collections/features/items?limit=100&skipGeometry=true&properties=categories',
  // Counts, first image and joined lists, kept on each feature's row: attachments put, moved, unpublished and removed change them.
  '/ogc/collections/features/items?limit=10000&skipGeometry=true&properties=image_count,document_count,media_count,thumbnail,category_ids,tags',
  // Every feature as its stored GeoJSON text (item-texts.ts): whatever a change touches of a feature, its site's name included.
  '/ogc/collections/features/items?limit=10000',
  `/ogc/collections/features/items?skipGeometry=true&filter=${enc("categories LIKE '%s%'")}`, '/ogc/collections/features/items?skipGeometry=true&categories=Markets',
  '/tiles/features/14/8188/5446.mvt', '/tiles/features/16/32753/21787.mvt', '/tiles/features/12/2047/1361.mvt',
  // The streets' labels, kept per street: an apply places again those its buildings reach.
  '/map/streets.json',
];

/** Status and body; an OGC page's `timeStamp` (the time it was made) left out. */
async function answer(app: TestApp, url: string): Promise<string> {
  const { status, bytes, headers } = await app.request(url);
  if (!String(headers['content-type']).includes('json')) return `${status} ${bytes.toString('base64')}`;
  const { timeStamp: _made, ...body } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return `${status} ${JSON.stringify(body)}`;
}

async function assertSameAnswers(actual: TestApp, expected: TestApp): Promise<void> {
  for (const url of URLS) assert.equal(await answer(actual, url), await answer(expected, url), url);
}

describe('apply: every kind of change equals the edited catalogue, and serves what its import serves', () => {
  for (const { name, file } of CHANGES) {
    test(name, async () => {
      const database = createTestDatabase();
      const expected = editedCatalogue(old, file);
      let applied: TestApp | undefined;
      let imported: TestApp | undefined;
      try {
        await importInto(database.settings, old);
        const outcome = await applyTo(database.settings, file);
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assertSameCatalogue(await storedCatalogue(database.settings), expected);
        applied = await appOnDatabase(database);
        imported = await startTestApp({ catalogue: expected });
        await assertSameAnswers(applied, imported);
      } finally {
        if (applied) await applied.close();
        else await database.drop();
        await imported?.close();
      }
    });
  }
});

/** Each refused whole, with every problem at its path; checked against the stored test catalogue. */
const REFUSALS: { name: string; file: ChangeFileValue; problems: [path: string, message: RegExp][] }[] = [
  {
    name: 'a removed feature that images still point to',
    file: { format: FORMAT, features: { remove: [1] } },
    problems: [['features.remove[0]', /feature 1 is still used by images 7, 8 \(their feature\)/], ['features.remove[0]', /documents 971/], ['features.remove[0]', /media 4/]],
  },
  {
    name: 'an image whose feature does not exist',
    file: { format: FORMAT, images: { put: [{ ...old.images[0]!, feature: 9999 }] } },
    problems: [['images.put[0].feature', /there is no feature with id 9999 in features, stored or put by this file/]],
  },
  {
    name: 'a reference to a record the same file removes',
    file: { format: FORMAT, media: { remove: [4] }, features: { remove: [7] }, documents: { put: [{ ...old.documents[0]!, feature: 7 }] } },
    problems: [['features.remove[0]', /feature 7 is still used by media 6/], ['documents.put[0].feature', /feature 7 is removed by this file \(features\.remove\[0\]\)/]],
  },
  {
    name: 'a duplicate id',
    file: { format: FORMAT, sites: { put: [{ id: 2, name: 'A' }, { id: 2, name: 'B' }] } },
    problems: [['sites.put[1].id', /duplicate id 2: sites\.put\[0\] has it too/]],
  },
  {
    name: 'an id both put and removed',
    file: { format: FORMAT, media: { put: [old.media[0]!], remove: [4] } },
    problems: [['media.remove[0]', /id 4 is both put \(media\.put\[0\]\) and removed/]],
  },
  {
    name: 'an author, a category and a site still used',
    file: { format: FORMAT, authors: { remove: [5] }, categories: { remove: [3] }, sites: { remove: [1] } },
    problems: [
      ['authors.remove[0]', /author 5 is still used by images 8, 9/], ['authors.remove[0]', /media 6/],
      ['categories.remove[0]', /category 3 is still used by features 1 \(their categories\)/],
      ['sites.remove[0]', /site 1 is still used by features 1, 5 \(their site\)/],
    ],
  },
  {
    name: "a username another author keeps, and a feature's category that is not there",
    file: { format: FORMAT, authors: { put: [{ id: 9, username: 'zoë' }] }, features: { put: [{ ...feature(3), categories: [4, 77] }] } },
    problems: [['authors.put[0].username', /duplicate username "zoë": author 5 has it/], ['features.put[0].categories[1]', /there is no category with id 77/]],
  },
  {
    name: 'records of the wrong shape',
    file: { format: 'heritage-changes/2', sites: { put: [{ id: 0, name: 'X', colour: 'red' }], drop: [1] }, features: { put: [{ ...feature(3), categories: [4, 4] }] } },
    problems: [
      ['format', /must be "heritage-changes\/1"/], ['sites.put[0].id', /must be a positive integer/], ['sites.put[0].colour', /unknown key "colour"/],
      ['sites.drop', /unknown key "drop"/], ['features.put[0].categories[1]', /category 4 is listed twice/],
    ],
  },
];

describe('apply: refusals, each by its JSON path, with nothing changed', () => {
  let database: ReturnType<typeof createTestDatabase>;
  let version: number;
  before(async () => {
    database = createTestDatabase();
    await importInto(database.settings, old);
    version = await storedVersion(database.settings);
  });
  after(() => database.drop());

  for (const { name, file, problems } of REFUSALS) {
    test(name, async () => {
      const outcome = await applyTo(database.settings, file);
      assert.ok(!outcome.ok, 'refused');
      assert.equal(outcome.total, problems.length, JSON.stringify(outcome.problems));
      for (const [path, message] of problems) {
        assert.ok(outcome.problems.some((p) => p.path === path && message.test(p.message)), `${path}: ${message} in ${JSON.stringify(outcome.problems)}`);
      }
      assertSameCatalogue(await storedCatalogue(database.settings), old);
      assert.equal(await storedVersion(database.settings), version);
    });
  }
});

describe('apply from the command line', () => {
  let database: ReturnType<typeof createTestDatabase>;
  let dir: string;
  const change: ChangeFileValue = { format: FORMAT, features: { put: [{ ...feature(3), b_name: 'Renamed' }] }, media: { remove: [6, 600] } };
  before(async () => {
    database = createTestDatabase();
    dir = temporaryDir();
    await importInto(database.settings, old);
    fs.writeFileSync(path.join(dir, 'change.json'), JSON.stringify(change));
  });
  after(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const run = (...args: string[]) => runCli(['apply', path.join(dir, 'change.json'), ...args, ...database.args]);

  test('--dry-run says what would change and changes nothing', async () => {
    const version = await storedVersion(database.settings);
    const result = await run('--dry-run');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /^Dry run: applying .*change\.json to .* would change features: 1 replaced \(3\); media: 1 removed \(6\)\. Nothing was changed\.\n$/);
    assertSameCatalogue(await storedCatalogue(database.settings), old);
    assert.equal(await storedVersion(database.settings), version);
  });

  test('applied, the version moves on; a second apply of the same file is a no-op that says so', async () => {
    const version = await storedVersion(database.settings);
    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, new RegExp(`^Applied .*change\\.json to .* in \\d+\\.\\d s: features: 1 replaced \\(3\\); media: 1 removed \\(6\\)\\. Catalogue version ${version + 1}\\.\\n$`));
    assertSameCatalogue(await storedCatalogue(database.settings), editedCatalogue(old, change));
    const second = await run();
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /^Nothing to change: .* already holds .*change\.json as given; the catalogue version stays as it was\.\n$/);
    assert.equal(await storedVersion(database.settings), version + 1);
  });

  test('a refused file: exit 1, its problems by path, nothing changed', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ format: FORMAT, sites: { remove: [1] }, images: { put: [{ ...old.images[0]!, author: 77 }] } }));
    const before_ = await storedCatalogue(database.settings);
    const result = await runCli(['apply', file, ...database.args]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /bad\.json cannot be applied to .*; nothing was changed \(2 problems\):\n  sites\.remove\[0\]: site 1 is still used by features 1, 5 \(their site\)[^\n]*\n  images\.put\[0\]\.author: there is no author with id 77 in authors, stored or put by this file\n/);
    assertSameCatalogue(await storedCatalogue(database.settings), before_);
  });

  test('a file that is not JSON: exit 1, the problem at $', async () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '{"format": "heritage-changes/1", ');
    const result = await runCli(['apply', file, ...database.args]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /broken\.json is not a valid change file \(1 problem\):\n  \$: the file is not valid JSON/);
  });
});

describe('a running server switches to the applied catalogue', () => {
  test('the version it serves moves on, and so do its answers', async () => {
    const database = createTestDatabase();
    await importInto(database.settings, old);
    const app = await appOnDatabase(database, { versionPollMs: '50' });
    try {
      // The version the server serves (its watch's), not the stored one /readyz reads.
      const served = async () => Number(/^heritage_catalogue_version (\d+)/m.exec((await app.request('/metrics')).text)?.[1]);
      const version = await storedVersion(database.settings);
      while ((await served()) !== version) await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await app.request('/api/v1/features/3/')).json().properties.b_name, null);
      const outcome = await applyTo(database.settings, { format: FORMAT, features: { put: [{ ...feature(3), b_name: 'Renamed' }] } });
      assert.ok(outcome.ok && outcome.version === version + 1);
      while ((await served()) === version) await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await app.request('/api/v1/features/3/')).json().properties.b_name, 'Renamed');
    } finally {
      await app.close();
    }
  });
});

describe('the site\'s streets after an apply', () => {
  test('follow one that gives a building another street', async () => {
    const database = createTestDatabase();
    await importInto(database.settings, old);
    const app = await appOnDatabase(database, { versionPollMs: '50' });
    const served = async () => Number(/^heritage_catalogue_version (\d+)/m.exec((await app.request('/metrics')).text)?.[1]);
    const applied = async (file: ChangeFileValue) => {
      const outcome = await applyTo(database.settings, file);
      assert.ok(outcome.ok && outcome.version !== null);
      while ((await served()) !== outcome.version) await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      assert.ok(!(await app.request('/about/')).text.includes('Quire Court'));
      await applied({ format: FORMAT, features: { put: [{ ...feature(3), street: 'Quire Court' }] } });
      assert.ok((await app.request('/about/')).text.includes('Quire Court'), 'the home page lists the new street');
      const labels = (await app.request('/map/streets.json')).json().streets.map((s: { name: string }) => s.name);
      assert.ok(labels.includes('Quire Court'), 'the map labels it');
    } finally {
      await app.close();
    }
  });
});
