// What the map page's browser tests need besides a server: the bundle built from web/ when
// missing or older than its sources, picture files for a catalogue's media paths (the
// demo's, from src/), and a page that records its console errors and every request it makes.
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchWithProfile, WEBGL_FLAGS, type ProfileBrowser } from './browser.js';
import { buildWeb, webBuildIsStale } from '../../scripts/build-web.mjs';
import { MAP_CREATED_EVENT } from '../../web/events.js';
import { ROOT } from './root.js';
export { writeCatalogueMedia } from '../../src/demo/pictures.js';

export const ARTIFACTS_DIR = path.join(ROOT, 'test-artifacts');

export async function ensureWebBuilt(): Promise<void> {
  if (webBuildIsStale()) await buildWeb();
}


export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Motion reduced, as a user may ask of their system: MapLibre then moves the camera without
 * animating it, and software WebGL draws far fewer frames (with one shared context, the map
 * suite's Chromium CPU from 59 s to 46 s). A page of a test of the animation itself asks
 * for motion (openWatchedPage's `motion`), in the same context.
 */
const MAP_CONTEXT: BrowserContextOptions = { deviceScaleFactor: 1, reducedMotion: 'reduce' };

/**
 * The context a suite's map pages share, in a browser of its own with a profile
 * (launchWithProfile): one per suite, not one per page, since a page in a new context
 * starts with empty caches, and parses MapLibre's 1.6 MB and compiles its shaders afresh.
 * The page keeps nothing in cookies or storage, so its pages share only caches.
 */
export function launchMapBrowser(): Promise<ProfileBrowser> {
  return launchWithProfile(WEBGL_FLAGS, MAP_CONTEXT);
}

/** A map context beside others in a browser already running (one map page among other pages). */
export function newMapContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext(MAP_CONTEXT);
}

export async function openWatchedPage(context: BrowserContext, viewport: { width: number; height: number }, { motion = false } = {}): Promise<WatchedPage> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  if (motion) await page.emulateMedia({ reducedMotion: 'no-preference' });
  // The page keeps no global handle on its map; it announces it, and the tests keep it as `__map`.
  await page.addInitScript((type: string) => {
    const w = globalThis as any;
    w.document.addEventListener(type, (event: any) => (w.__map = event.detail), { capture: true });
  }, MAP_CREATED_EVENT);
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('request', (request) => requests.push(request.url()));
  return { page, errors, requests, close: () => page.close() };
}

/** Waits until the page has drawn its map: config read, style loaded, every visible tile in. */
export async function waitForMap(page: Page): Promise<void> {
  // A function, not a string: the page's Content-Security-Policy forbids eval.
  await page.waitForFunction(() => {
    const w = globalThis as any;
    const map = w.__map;
    return w.document.body.dataset.ready === 'true' && map !== undefined && map.loaded() && map.areTilesLoaded() && !map.isMoving();
  }, undefined, { timeout: 30_000, polling: 100 });
}
