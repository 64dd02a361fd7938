// GDAL's command-line tools (Debian's gdal-bin, as CI installs it: .ci/run) run against a
// listening test server, and the requests they make, as the server saw them. Tests that need
// GDAL skip when `ogrinfo` is missing, unless HERITAGE_TEST_GDAL=required (as in CI).
import { execFile, execFileSync } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import type { TestServer } from './server.js';

const run = promisify(execFile);

/** The reason GDAL tests cannot run here, or undefined when they can (or must). */
export function gdalSkipReason(): string | undefined {
  try {
    execFileSync('ogrinfo', ['--version'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const reason = `no usable ogrinfo on the PATH (apt-get install gdal-bin): ${(error as Error).message}`;
    if (process.env.HERITAGE_TEST_GDAL === 'required') throw new Error(`HERITAGE_TEST_GDAL=required but ${reason}`);
    return reason;
  }
}

type GdalTool = 'ogrinfo' | 'ogr2ogr' | 'gdal_create' | 'gdal_translate' | 'gdalinfo';
const GDAL_ENV = { ...process.env, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1', GDAL_HTTP_TIMEOUT: '30', CPL_DEBUG: 'OFF' };

/** Runs a GDAL tool (in `cwd`, for the files it writes); the test server is on 127.0.0.1, never reached through a proxy. */
export async function gdal(tool: GdalTool, args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run(tool, args, { env: GDAL_ENV, maxBuffer: 64 * 1024 * 1024, cwd });
  return stdout;
}

/** The same, for a run that may fail: its exit code and what it wrote to stderr. */
export async function gdalOutcome(tool: GdalTool, args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(tool, args, { env: GDAL_ENV, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

export interface LoggedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  accept: string;
}

/** Every request the server receives from now on (the fast path included), in order. */
export function logRequests(server: TestServer): LoggedRequest[] {
  const log: LoggedRequest[] = [];
  server.server.app.server.on('request', (request: IncomingMessage) => {
    log.push({ method: request.method ?? '', url: request.url ?? '', accept: request.headers.accept ?? '' });
  });
  return log;
}

/** `ogrinfo -so` fields of one layer: name → type as GDAL prints it (`Integer`, `Integer(Boolean)`, …). */
export function ogrinfoFields(output: string): Map<string, string> {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Data axis to CRS axis mapping'));
  const fields = new Map<string, string>();
  for (const line of lines.slice(start + 1)) {
    const match = /^(\w+): (\S+) \(/.exec(line);
    if (match) fields.set(match[1]!, match[2]!);
  }
  return fields;
}

/** A GeoPackage geometry blob (header, then ISO WKB) → a MultiPolygon's coordinates. */
export function gpkgMultiPolygon(blob: Buffer): number[][][][] {
  if (blob.toString('latin1', 0, 2) !== 'GP') throw new Error('not a GeoPackage geometry');
  const flags = blob[3]!;
  const envelopeBytes = [0, 32, 48, 48, 64][(flags >> 1) & 7] ?? 0;
  let at = 8 + envelopeBytes;
  const little = () => blob[at++] === 1;
  const uint = (le: boolean) => {
    const value = le ? blob.readUInt32LE(at) : blob.readUInt32BE(at);
    at += 4;
    return value;
  };
  const double = (le: boolean) => {
    const value = le ? blob.readDoubleLE(at) : blob.readDoubleBE(at);
    at += 8;
    return value;
  };
  const header = (expected: number) => {
    const le = little();
    const type = uint(le);
    if (type !== expected) throw new Error(`WKB type ${type}, expected ${expected}`);
    return le;
  };
  const polygons: number[][][][] = [];
  const le = header(6);
  for (let p = uint(le); p > 0; p--) {
    const ple = header(3);
    const rings: number[][][] = [];
    for (let r = uint(ple); r > 0; r--) {
      const ring: number[][] = [];
      for (let n = uint(ple); n > 0; n--) ring.push([double(ple), double(ple)]);
      rings.push(ring);
    }
    polygons.push(rings);
  }
  return polygons;
}

/** Where the docs say the server listens, in their examples. */
const README_ORIGIN = 'http://127.0.0.1:8000';

/** What leads the GIS page's GDAL commands (docs/gis.md). */
export const GDAL_COMMANDS_MARKER = '**With GDAL/OGR**';

/**
 * The GDAL command lines the GIS page shows (the sh block after "With GDAL/OGR"), as
 * argument lists for a server at `origin`: lines joined at a trailing `\`, comments dropped,
 * words split as sh would split these (double quotes hold spaces and single quotes).
 */
export function readmeGdalCommands(page: string, origin: string): string[][] {
  const section = page.slice(page.indexOf(GDAL_COMMANDS_MARKER));
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (block === undefined) throw new Error(`docs: no sh block after ${GDAL_COMMANDS_MARKER}`);
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => /^(ogrinfo|ogr2ogr) /.test(line))
    .map((line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replaceAll(README_ORIGIN, origin)));
}
