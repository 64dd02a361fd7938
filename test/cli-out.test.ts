// `diff -o FILE` and `export --out FILE` as child processes, FILE being something other than a
// regular file: a FIFO (read by the test), a symbolic link to a file (the target replaced
// atomically, the link kept), a character device, a descriptor link (/dev/stdout), a folder
// and a link to nothing (refused). Each path is still what it was afterwards (issue 33,
// defect 6). What each command writes is compared with what it writes on standard output.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { runCli } from './support/cli.js';
import { importInto, temporaryDir } from './support/server.js';

let dir: string;
let db: string;
let oldFile: string;
let newFile: string;

before(async () => {
  dir = temporaryDir();
  db = path.join(dir, 'catalogue.db');
  await importInto(db, buildTestCatalogue());
  const edited = buildTestCatalogue();
  edited.features[0]!.address = 'Corrected address';
  oldFile = path.join(dir, 'old.json');
  newFile = path.join(dir, 'new.json');
  fs.writeFileSync(oldFile, formatCatalogue(buildTestCatalogue()));
  fs.writeFileSync(newFile, formatCatalogue(edited));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const COMMANDS = {
  diff: (out: string) => ['diff', oldFile, newFile, '-o', out],
  export: (out: string) => ['export', '--db', db, '--format', 'csv', '--collection', 'media', '--out', out],
} as const;
type CommandName = keyof typeof COMMANDS;

/** What the command writes to standard output (`-`): what it must write anywhere else. */
async function expectedOutput(command: CommandName): Promise<string> {
  const result = await runCli(COMMANDS[command]('-'));
  assert.equal(result.code, 0, result.stderr);
  assert.ok(result.stdout.length > 0);
  return result.stdout;
}

/** A path's kind, as lstat sees it (a symbolic link is not followed). */
function kindOf(file: string): string {
  const stat = fs.lstatSync(file);
  if (stat.isSymbolicLink()) return `link to ${fs.readlinkSync(file)}`;
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isCharacterDevice()) return `character device ${stat.rdev}`;
  if (stat.isDirectory()) return 'folder';
  return stat.isFile() ? 'file' : 'other';
}

/**
 * The test's own files under root, so that a broken build cannot replace the machine's: a
 * null device made with mknod (1, 3), and a link to this process's standard output as
 * /dev/stdout is. Anyone else cannot replace /dev/null or /dev/stdout, so uses them.
 */
function systemPaths(): { nullDevice: string; stdoutLink: string } {
  if (process.getuid?.() !== 0) return { nullDevice: '/dev/null', stdoutLink: '/dev/stdout' };
  const nullDevice = path.join(dir, 'null');
  const stdoutLink = path.join(dir, 'stdout');
  if (!fs.existsSync(nullDevice)) execFileSync('mknod', ['-m', '666', nullDevice, 'c', '1', '3']);
  if (!fs.existsSync(stdoutLink)) fs.symlinkSync('/proc/self/fd/1', stdoutLink);
  return { nullDevice, stdoutLink };
}

/** `cat FILE` as the reader of a FIFO: killed if still waiting at the end (a writer that never opened it). */
function readFifo(file: string): { text: Promise<string>; stop: () => void } {
  const reader = spawn('cat', [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  reader.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const text = new Promise<string>((resolve, reject) => {
    reader.on('error', reject);
    reader.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`cat exited with ${code}`))));
  });
  return { text, stop: () => reader.exitCode === null && reader.kill() };
}

for (const command of Object.keys(COMMANDS) as CommandName[]) {
  describe(`${command} into a path that is not a new regular file`, () => {
    test('a FIFO is written into, read by its reader, and stays a FIFO', async () => {
      const expected = await expectedOutput(command);
      const fifo = path.join(dir, `${command}.fifo`);
      execFileSync('mkfifo', [fifo]);
      const reader = readFifo(fifo);
      try {
        const result = await runCli(COMMANDS[command](fifo));
        assert.equal(result.code, 0, result.stderr);
        assert.equal(kindOf(fifo), 'FIFO');
        assert.equal(await reader.text, expected);
      } finally {
        reader.stop();
      }
    });

    test('a link to a FIFO is written into; both stay what they were', async () => {
      const expected = await expectedOutput(command);
      const fifo = path.join(dir, `${command}-target.fifo`);
      const link = path.join(dir, `${command}-fifo-link`);
      execFileSync('mkfifo', [fifo]);
      fs.symlinkSync(path.basename(fifo), link);
      const reader = readFifo(fifo);
      try {
        const result = await runCli(COMMANDS[command](link));
        assert.equal(result.code, 0, result.stderr);
        assert.equal(kindOf(link), `link to ${path.basename(fifo)}`);
        assert.equal(kindOf(fifo), 'FIFO');
        assert.equal(await reader.text, expected);
      } finally {
        reader.stop();
      }
    });

    test('a link to a regular file: the file it leads to is replaced whole, the link stays, nothing else is left', async () => {
      const expected = await expectedOutput(command);
      const folder = fs.mkdtempSync(path.join(dir, `${command}-link-`));
      const target = path.join(folder, 'target.txt');
      const link = path.join(folder, 'link.txt');
      fs.writeFileSync(target, 'the old content');
      fs.symlinkSync('target.txt', link);
      const result = await runCli(COMMANDS[command](link));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(kindOf(link), 'link to target.txt');
      assert.equal(kindOf(target), 'file');
      assert.equal(fs.readFileSync(target, 'utf8'), expected);
      assert.deepEqual(fs.readdirSync(folder).sort(), ['link.txt', 'target.txt']);
    });

    test('a character device (the null device) is written into and stays that device', async () => {
      const { nullDevice } = systemPaths();
      const before = kindOf(nullDevice);
      assert.match(before, /^character device \d+$/);
      const result = await runCli(COMMANDS[command](nullDevice));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(kindOf(nullDevice), before);
      assert.equal(fs.readFileSync(nullDevice, 'utf8'), '', 'still the null device: nothing to read');
    });

    test('a link to the standard output (/dev/stdout) writes what - writes, and stays a link', async () => {
      const expected = await expectedOutput(command);
      const { stdoutLink } = systemPaths();
      const before = kindOf(stdoutLink);
      const result = await runCli(COMMANDS[command](stdoutLink));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, expected);
      assert.equal(kindOf(stdoutLink), before);
    });

    test('a folder, or a link to nothing, is refused with a sentence naming it (exit 1), and left as it was', async () => {
      const folder = fs.mkdtempSync(path.join(dir, `${command}-folder-`));
      const refused = await runCli(COMMANDS[command](folder));
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr.trim().split('\n').at(-1), `heritage-api: ${folder} is a folder: the output must be a file, a FIFO or a character device (or - for standard output).`);
      assert.equal(kindOf(folder), 'folder');
      assert.deepEqual(fs.readdirSync(folder), []);
      const dangling = path.join(dir, `${command}-dangling`);
      fs.symlinkSync('nowhere/at-all.txt', dangling);
      const nothing = await runCli(COMMANDS[command](dangling));
      assert.equal(nothing.code, 1);
      assert.match(nothing.stderr, new RegExp(`heritage-api: ${dangling} is a symbolic link to nothing \\(${path.join(dir, 'nowhere/at-all.txt')}\\): remove it or give another path\\.\\n$`));
      assert.equal(kindOf(dangling), 'link to nowhere/at-all.txt');
    });
  });
}
