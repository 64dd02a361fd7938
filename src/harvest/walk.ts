// One collection, walked page by page into one consistent list of records. Page 1 tells
// the count and the page length (the server's, if it ignores page_size); the other pages
// are fetched concurrently at the page numbers its `next` link counts in. A page whose
// count differs, a page that vanished, or records out of id order mean the source changed
// under us: the collection starts again, at most `maxRestarts` times.
import type { Collection } from '../constants.js';
import { HttpStatusError, type HarvestClient } from './client.js';
import { HarvestError } from './errors.js';
import type { HarvestState, PagePlan } from './state.js';
import { readPage, type WirePage } from './wire.js';

export interface WalkContext {
  client: HarvestClient;
  state: HarvestState;
  maxRestarts: number;
  notify(message: string): void;
  progressed(): void;
}

/** The source changed while a walk was under way. */
class SourceChanged extends Error {}

/** The records of one collection in the API's order, all from one walk. */
export async function walkCollection(ctx: WalkContext, collection: Collection, firstUrl: string): Promise<unknown[]> {
  for (let walks = 1; ; walks++) {
    const outcome = await walkOnce(ctx, collection, firstUrl);
    if (Array.isArray(outcome)) return outcome;
    if (walks > ctx.maxRestarts) {
      throw new HarvestError(`${collection}: the source kept changing while it was harvested (${outcome.reason}); gave up after ${walks} walks. Try again later or raise --max-restarts.`);
    }
    ctx.notify(`${collection}: ${outcome.reason}; the source changed, starting the collection again.`);
    ctx.state.restart(collection);
    ctx.progressed();
  }
}

async function walkOnce(ctx: WalkContext, collection: Collection, firstUrl: string): Promise<unknown[] | { reason: string }> {
  const first = readPage(firstUrl, await ctx.client.getJson(firstUrl), collection);
  const plan = planFrom(firstUrl, first);
  if (!samePlan(ctx.state.plan(collection), plan)) ctx.state.setPlan(collection, plan);
  ctx.state.addPage(collection, 1, first.records);
  ctx.progressed();
  const pageUrl = pageUrlBuilder(firstUrl, first.nextUrl);
  const missing = range(2, plan.lastPage).filter((n) => !ctx.state.pages(collection).has(n));
  const changed = await fetchPages(ctx, collection, plan, missing, pageUrl);
  if (changed !== null) return { reason: changed };
  return assemble(ctx.state.pages(collection), plan) ?? { reason: 'records moved between pages' };
}

function planFrom(url: string, first: WirePage): PagePlan {
  const pageLength = first.records.length;
  if (first.count > 0 && pageLength === 0) throw new HarvestError(`${url} counts ${first.count} records but lists none.`);
  const lastPage = first.count === 0 ? 1 : Math.ceil(first.count / pageLength);
  if (first.hasNext !== lastPage > 1) {
    throw new HarvestError(`${url} counts ${first.count} records, ${pageLength} a page, but its "next" link says otherwise.`);
  }
  return { count: first.count, pageLength, lastPage };
}

function samePlan(a: PagePlan | null, b: PagePlan): boolean {
  return a !== null && a.count === b.count && a.pageLength === b.pageLength && a.lastPage === b.lastPage;
}

/**
 * Page N's URL: the first page's address with the query of page 1's `next` link, `page`
 * set to N. The link's host is not followed: behind a proxy or with BASE_URL it may name
 * an address this machine cannot reach.
 */
function pageUrlBuilder(firstUrl: string, nextUrl: string | null): (page: number) => string {
  if (nextUrl === null) return () => firstUrl;
  const query = new URL(nextUrl, firstUrl).searchParams;
  if (!query.has('page')) throw new HarvestError(`${firstUrl}: the "next" link ${nextUrl} has no page number; only page-numbered pagination is supported.`);
  return (page) => {
    const url = new URL(firstUrl);
    const params = new URLSearchParams(query);
    params.set('page', String(page));
    url.search = params.toString();
    return url.toString();
  };
}

/** Fetches the pages into the state; the reason the source changed, or null. */
async function fetchPages(ctx: WalkContext, collection: Collection, plan: PagePlan, pages: number[], pageUrl: (n: number) => string): Promise<string | null> {
  const abort = new AbortController();
  const settled = await Promise.allSettled(
    pages.map(async (n) => {
      try {
        const records = await fetchPage(ctx, collection, plan, n, pageUrl(n), abort.signal);
        ctx.state.addPage(collection, n, records);
        ctx.progressed();
      } catch (error) {
        abort.abort();
        throw error;
      }
    }),
  );
  const failures: unknown[] = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
  const fatal = failures.find((e) => !(e instanceof SourceChanged) && !isAbort(e));
  if (fatal !== undefined) throw fatal;
  const changed = failures.find((e) => e instanceof SourceChanged);
  if (changed !== undefined) return changed.message;
  // Only aborts are left: the whole harvest is stopping, which is not a change of source.
  if (failures.length > 0) throw failures[0];
  return null;
}

async function fetchPage(ctx: WalkContext, collection: Collection, plan: PagePlan, n: number, url: string, signal: AbortSignal): Promise<unknown[]> {
  let page: WirePage;
  try {
    page = readPage(url, await ctx.client.getJson(url, signal), collection);
  } catch (error) {
    if (error instanceof HttpStatusError && error.status === 404) throw new SourceChanged(`page ${n} is gone`);
    throw error;
  }
  if (page.count !== plan.count) throw new SourceChanged(`the count went from ${plan.count} to ${page.count}`);
  const expected = n < plan.lastPage ? plan.pageLength : plan.count - (plan.lastPage - 1) * plan.pageLength;
  if (page.records.length !== expected) throw new SourceChanged(`page ${n} has ${page.records.length} records, not ${expected}`);
  return page.records;
}

/** Pages 1..last in order; null when ids are not strictly ascending (a record moved). */
function assemble(pages: ReadonlyMap<number, unknown[]>, plan: PagePlan): unknown[] | null {
  const records = range(1, plan.lastPage).flatMap((n) => pages.get(n) ?? []);
  return ascending(records.map(idOf)) && records.length === plan.count ? records : null;
}

/** A record's id (readPage checked that each has one); NaN, never ascending, for one without. */
const idOf = (record: unknown): number => (typeof record === 'object' && record !== null && 'id' in record && typeof record.id === 'number' ? record.id : NaN);

function ascending(ids: readonly number[]): boolean {
  let last = -Infinity;
  for (const id of ids) {
    if (!(id > last)) return false;
    last = id;
  }
  return true;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}
