// Debian's Chromium driven by playwright-core, as CI installs it (.ci/run). Tests that need a
// browser skip when it is missing, unless HERITAGE_TEST_BROWSER=required (as in CI).
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
