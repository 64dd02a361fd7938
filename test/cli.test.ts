import assert from 'node:assert/strict';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { FeatureListSchema } from '../src/render/schemas.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { assertMatches } from './support/schemas.js';
import { exitCode, runCli, startCliServer } from './support/cli.js';
import { crawl } from './support/crawl.js';
import { request, socketTarget } from './support/http.js';
import { FormClient } from './support/form-client.js';
import { importInto, startTestServer, temporaryDir, type TestServer } from './support/server.js';

let dir: string;
before(() => {
  dir = temporaryDir();
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const writeFile = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

function brokenCatalogue(): string {
  const catalogue = buildTestCatalogue() as any;
  catalogue.features[2].geometry.coordinates[0][0].pop();
  catalogue.images[0].author = 999;
  catalogue.media[0].colour = 'red';
  return JSON.stringify(catalogue);
}

describe('validate', () => {
  test('a good file: exit 0 and a summary', async () => {
    const result = await runCli(['validate', writeFile('good.json', formatCatalogue(buildTestCatalogue()))]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /is a valid catalogue: 45 features, 3 images \(2 published\)/);
  });

  test('a bad file: exit 1 and every problem by JSON path', async () => {
    const result = await runCli(['validate', writeFile('bad.json', brokenCatalogue())]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /3 problems/);
    assert.match(result.stderr, /features\[2\]\.geometry\.coordinates\[0\]\[0\]: /);
    assert.match(result.stderr, /images\[0\]\.author: /);
    assert.match(result.stderr, /media\[0\]/);
  });

  test('standard input with -', async () => {
    const result = await runCli(['validate', '-'], { input: 'not json' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\$: /);
  });

  test('a missing file: one sentence, exit 1', async () => {
    const result = await runCli(['validate', path.join(dir, 'missing.json')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^heritage-api: cannot read .*missing\.json: no such file\n$/);
  });
});

describe('import into the database a server is serving', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('a bad file is refused whole, exit 1, and the served data stays exactly as it was', async () => {
    const before = await crawl(t);
    const result = await runCli(['import', writeFile('bad-import.json', brokenCatalogue()), ...t.dbArgs]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /images\[0\]\.author/);
    assert.deepEqual(await crawl(t), before);
  });

  test('a good file replaces the whole catalogue, read from standard input', async () => {
    const catalogue = buildTestCatalogue();
    catalogue.features = catalogue.features.slice(0, 10);
    catalogue.images = catalogue.images.filter((i) => i.feature <= 19);
    catalogue.documents = catalogue.documents.filter((d) => d.feature <= 19);
    catalogue.media = catalogue.media.filter((m) => m.feature <= 19);
    const result = await runCli(['import', '-', ...t.dbArgs], { input: formatCatalogue(catalogue) });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Imported 10 features/);
    const answer = await request(t.origin, '/api/v1/features/');
    assert.equal(answer.json().count, 10);
  });
});

describe('export', () => {
  test('export then import gives an identical API, and the file is the catalogue', async () => {
    const original = await startTestServer();
    const exported = path.join(dir, 'exported.json');
    try {
      const result = await runCli(['export', ...original.dbArgs, '--out', exported]);
      assert.equal(result.code, 0, result.stderr);
      const copy = await startTestServer({ catalogue: JSON.parse(fs.readFileSync(exported, 'utf8')) });
      try {
        assert.deepEqual(await crawl(copy), await crawl(original));
      } finally {
        await copy.close();
      }
    } finally {
      await original.close();
    }
    const catalogue = buildTestCatalogue();
    assert.deepEqual(JSON.parse(fs.readFileSync(exported, 'utf8')), {
      ...catalogue,
      features: [...catalogue.features].sort((a, b) => a.id - b.id),
    });
  });

  test('to standard output by default', async () => {
    const t = await startTestServer();
    try {
      const result = await runCli(['export', ...t.dbArgs]);
      assert.equal(result.code, 0);
      assert.equal(JSON.parse(result.stdout).features.length, 45);
    } finally {
      await t.close();
    }
  });
});

describe('databases that cannot be served', () => {
  test('a missing database: one clear sentence, non-zero exit, no stack trace', async () => {
    const result = await runCli(['serve', '--db', path.join(dir, 'nope.db'), '--port', '0']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^heritage-api: The database .*nope\.db does not exist/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  test('a corrupt database: one clear sentence, non-zero exit', async () => {
    const file = writeFile('corrupt.db', 'this is not a database at all, not even close'.repeat(100));
    const result = await runCli(['serve', '--db', file, '--port', '0']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^heritage-api: The database .*corrupt\.db cannot be read/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  test('export of a missing database fails the same way', async () => {
    const result = await runCli(['export', '--db', path.join(dir, 'nope.db')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /does not exist/);
  });
});

describe('demo and help', () => {
  test('demo is deterministic and imports', async () => {
    const a = await runCli(['demo', '--scale', '0.02', '--seed', '7']);
    const b = await runCli(['demo', '--scale', '0.02', '--seed', '7']);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.stdout, b.stdout);
    const db = path.join(dir, 'demo.db');
    const imported = await runCli(['import', '-', '--db', db], { input: a.stdout });
    assert.equal(imported.code, 0, imported.stderr);
  });

  test('bad option values are refused with a clear message', async () => {
    const result = await runCli(['demo', '--scale', 'big']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /--scale/);
  });

  for (const command of ['serve', 'import', 'export', 'validate', 'demo']) {
    test(`${command} --help`, async () => {
      const result = await runCli([command, '--help']);
      assert.equal(result.code, 0);
      assert.match(result.stdout, new RegExp(`Usage: heritage-api ${command}`));
    });
  }
});

describe('serve', () => {
  test('--init-demo (npm start) builds the demo catalogue into a missing database, serves it, and SIGTERM exits 0', async () => {
    const database = path.join(dir, 'fresh', 'catalogue.db');
    const { child, origin, stderr } = await startCliServer(['--db', database, '--init-demo']);
    try {
      assert.match(stderr(), /does not exist yet: building the demo catalogue/);
      const answer = await request(origin, '/api/v1/features/');
      assert.equal(answer.status, 200);
      assertMatches(FeatureListSchema, answer.json());
      assert.ok(answer.json().count >= 3600, String(answer.json().count));
      // The demo's pictures are written beside the database and served under /media/.
      const image = (await request(origin, '/api/v1/images/')).json().results[0];
      const picture = await request(origin, new URL(image.file).pathname);
      assert.equal(picture.status, 200, image.file);
      assert.match(picture.headers['content-type'] ?? '', /^image\//);
      assert.deepEqual([...picture.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
      // Contributions on, with a demo editor whose printed password signs in.
      const printed = /as the demo editor: demo-editor, password (\S+) \(kept in (.+)\)$/m.exec(stderr());
      assert.ok(printed, stderr());
      assert.equal(fs.readFileSync(printed[2]!, 'utf8').trim(), printed[1]);
      assert.equal(fs.statSync(printed[2]!).mode & 0o077, 0, 'readable by its owner alone');
      const editor = new FormClient(socketTarget(origin));
      assert.equal((await editor.submit('/account/signin', { username: 'demo-editor', password: printed[1]! })).status, 303);
      assert.ok((await editor.get('/moderate/')).text.includes('Nothing is waiting for review.'));
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exitCode(child), 0);
    assert.ok(fs.existsSync(database));
    assert.ok(fs.existsSync(path.join(dir, 'fresh', 'media')));
    // Built through import's path: the database holds exactly the catalogue `demo` writes.
    const [exported, written] = await Promise.all([runCli(['export', '--db', database]), runCli(['demo'])]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok(written.stdout.length > 1e6 && exported.stdout === written.stdout, 'export of the demo database = the demo file');
  });

  test('an existing database is served as it is, not rebuilt', async () => {
    const database = path.join(dir, 'kept.db');
    await importInto(database, buildTestCatalogue());
    const { child, origin } = await startCliServer(['--db', database, '--init-demo']);
    try {
      assert.equal((await request(origin, '/api/v1/features/')).json().count, 45);
      assert.equal((await request(origin, '/media/anything.png')).status, 404, 'no media root: nothing was written beside it');
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exitCode(child), 0);
  });
});

describe('migrate (SQLite)', () => {
  test('an older database is refused by serve with the fix, and migrate upgrades it keeping its catalogue', async () => {
    const database = path.join(dir, 'older.db');
    await importInto(database, buildTestCatalogue());
    const before = (await runCli(['export', '--db', database])).stdout;
    // Make it look like a version 1 file: no search tables, older version number.
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(database);
    db.exec("DROP TABLE features_search; DROP TABLE feature_tags; UPDATE meta SET value = '1' WHERE key = 'schema_version'");
    db.close();

    const refused = await runCli(['serve', '--port', '0', '--db', database]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /has schema version 1; this heritage-api reads version \d+: run heritage-api migrate --db /);

    const migrated = await runCli(['migrate', '--db', database]);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal((await runCli(['export', '--db', database])).stdout, before);
    const { child, origin } = await startCliServer(['--db', database]);
    try {
      const expected = buildTestCatalogue().features.filter((f) => /osborn/i.test(`${f.address} ${f.search_str}`)).length;
      assert.equal((await request(origin, '/api/v1/features/?q=osborn')).json().count, expected);
    } finally {
      child.kill('SIGTERM');
      await exitCode(child);
    }
  });
});

/** A port on 127.0.0.1 held by a plain TCP server, so that serve cannot take it. */
async function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('--db with a URL of another database', () => {
  const sentence = 'heritage-api: --db / DATABASE_URL: mysql:// is not a database heritage-api reads; give a SQLite file path (such as ./data/catalogue.db) or a postgres:// or postgresql:// URL.\n';
  const commands: [string, string[]][] = [
    ['serve', ['serve', '--port', '0']], ['import', ['import', 'catalogue.json']], ['export', ['export']], ['migrate', ['migrate']],
  ];
  for (const [name, args] of commands) {
    test(`${name} --db mysql://x/y: one sentence, exit 1, nothing created`, async () => {
      const cwd = fs.mkdtempSync(path.join(dir, `mysql-${name}-`));
      fs.writeFileSync(path.join(cwd, 'catalogue.json'), formatCatalogue(buildTestCatalogue()));
      const result = await runCli([...args, '--db', 'mysql://x/y'], { cwd });
      assert.deepEqual({ code: result.code, stderr: result.stderr }, { code: 1, stderr: sentence });
      assert.deepEqual(fs.readdirSync(cwd), ['catalogue.json']);
    });
  }
  test('DATABASE_URL=mysql://x/y is refused the same way', async () => {
    const cwd = fs.mkdtempSync(path.join(dir, 'mysql-env-'));
    const result = await runCli(['migrate'], { cwd, env: { DATABASE_URL: 'mysql://x/y' } });
    assert.deepEqual({ code: result.code, stderr: result.stderr, files: fs.readdirSync(cwd) }, { code: 1, stderr: sentence, files: [] });
  });
});

describe('serve: what it cannot start with is one sentence naming the flag', () => {
  let database: string;
  before(async () => {
    database = path.join(dir, 'start-checks.db');
    await importInto(database, buildTestCatalogue());
  });

  test('a busy port', async () => {
    const held = await holdPort();
    try {
      const result = await runCli(['serve', '--db', database, '--port', String(held.port)]);
      assert.equal(result.code, 1);
      assert.equal(result.stderr, `heritage-api: port ${held.port} on 127.0.0.1 is already in use (--port / PORT): stop what listens there, or choose another port.\n`);
    } finally {
      await held.close();
    }
  });

  test('a busy port with --workers 2: every worker says why, then the server stops (not restarted forever)', { timeout: 60_000 }, async () => {
    const held = await holdPort();
    try {
      const result = await runCli(['serve', '--db', database, '--port', String(held.port), '--workers', '2'], { env: { RATE_LIMIT: 'off' } });
      assert.equal(result.code, 1);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.at(-1), 'heritage-api: no worker could start (the reason is above); stopping.');
      assert.ok(lines.includes(`heritage-api: port ${held.port} on 127.0.0.1 is already in use (--port / PORT): stop what listens there, or choose another port.`), result.stderr);
      assert.doesNotMatch(result.stderr, /starting another|\n\s+at /);
    } finally {
      await held.close();
    }
  });

  test('a --media-root that does not exist', async () => {
    const missing = path.join(dir, 'no-such-media');
    const result = await runCli(['serve', '--db', database, '--port', '0', '--media-root', missing]);
    assert.deepEqual({ code: result.code, stderr: result.stderr }, { code: 1, stderr: `heritage-api: --media-root / MEDIA_ROOT ${missing}: no such folder.\n` });
  });

  test('a MEDIA_ROOT that is a file, not a folder', async () => {
    const file = writeFile('media-root-file.txt', 'not a folder');
    const result = await runCli(['serve', '--db', database, '--port', '0'], { env: { MEDIA_ROOT: file } });
    assert.deepEqual({ code: result.code, stderr: result.stderr }, { code: 1, stderr: `heritage-api: --media-root / MEDIA_ROOT ${file} is a file, not a folder.\n` });
  });

  test('a catalogue with pictures and no media folder: one warning at start; with a media folder, none', async () => {
    const catalogue = buildTestCatalogue();
    const images = catalogue.images.filter((i) => i.published !== false).length;
    const used = new Set(catalogue.features.flatMap((f) => f.categories));
    const thumbnails = catalogue.categories.filter((c) => used.has(c.id) && c.thumbnail !== '').length;
    assert.ok(images > 0 && thumbnails > 0, 'the test catalogue has both kinds of picture');
    const warning = `heritage-api: warning: the catalogue links ${images} image file(s) and ${thumbnails} category thumbnail(s) under /media/, ` +
      'but no media folder is set, so each will answer 404: set --media-root (or MEDIA_ROOT) to the folder holding them.\n';
    for (const [args, expected] of [[[], 1], [['--media-root', dir], 0]] as const) {
      const { child, origin, stderr } = await startCliServer(['--db', database, ...args]);
      // An answer first: a SIGTERM right after the "serving" line can come before the handler (seen before this change too).
      assert.equal((await request(origin, '/healthz')).status, 200);
      child.kill('SIGTERM');
      assert.equal(await exitCode(child), 0);
      assert.equal(stderr().split(warning).length - 1, expected, stderr());
    }
  });
});

describe('RATE_LIMIT_EXEMPT set empty: nobody is exempt', () => {
  async function loopbackClient(env: NodeJS.ProcessEnv) {
    const database = path.join(dir, 'exempt.db');
    if (!fs.existsSync(database)) await importInto(database, buildTestCatalogue());
    const { child, origin } = await startCliServer(['--db', database], { RATE_LIMIT: '2/minute', ...env });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(origin, '/api/v1/features/')).status);
      return { statuses, metrics: (await request(origin, '/metrics')).status };
    } finally {
      child.kill('SIGTERM');
      await exitCode(child);
    }
  }

  test('a loopback client (a same-host proxy) is limited, and /metrics refuses it', async () => {
    assert.deepEqual(await loopbackClient({ RATE_LIMIT_EXEMPT: '' }), { statuses: [200, 200, 429], metrics: 403 });
  });

  test('unset, the default exempts loopback: never limited, /metrics answers', async () => {
    assert.deepEqual(await loopbackClient({}), { statuses: [200, 200, 200], metrics: 200 });
  });
});
