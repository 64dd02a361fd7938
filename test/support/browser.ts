// Debian's Chromium driven by playwright-core, as CI installs it (.ci/run). Tests that need a
// browser skip when it is missing, unless HERITAGE_TEST_BROWSER=required (as in CI).
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { temporaryDir } from './temporary.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium dials Google at start, and this network refuses. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** WebGL in headless Chromium without a GPU: software rendering (for the map page). */
export const WEBGL_FLAGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/** The reason browser tests cannot run here, or undefined when they can (or must). */
export function browserSkipReason(): string | undefined {
  if (fs.existsSync(CHROMIUM_PATH)) return undefined;
  if (process.env.HERITAGE_TEST_BROWSER === 'required') {
    throw new Error(`HERITAGE_TEST_BROWSER=required but ${CHROMIUM_PATH} does not exist (apt-get install chromium)`);
  }
  return `no Chromium at ${CHROMIUM_PATH}`;
}

export async function launchBrowser(extraFlags: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, ...extraFlags] });
}

/** A browser of one context, its profile in a temporary folder; `close` ends both. */
export interface ProfileBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * For a suite of one context that opens several pages of the same site: unlike an incognito
 * context (browser.newContext), a profile keeps V8's code cache, so a page after the first
 * runs the site's scripts (MapLibre's bundle, Swagger UI's) without compiling them again.
 * Measured on the map suite: Chromium's CPU from about 60 s to 46 s, its renderers' share
 * from 33 s to 19 s; on the two API reference pages, about 11 s to 9 s.
 */
export async function launchWithProfile(extraFlags: string[], options: BrowserContextOptions): Promise<ProfileBrowser> {
  const dir = temporaryDir();
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, ...extraFlags], ...options });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
