// The machine's Redis for the rate-limit tests: 127.0.0.1:6379 unless HERITAGE_TEST_REDIS_URL
// says otherwise. Skipped with the reason when unreachable, unless HERITAGE_TEST_REDIS=required
// (CI). Every run writes under a prefix of its own and deletes it afterwards.
import net from 'node:net';
import { test } from 'node:test';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.HERITAGE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let prefixCounter = 0;

export function uniqueRedisPrefix(): string {
  return `heritage-test:${process.pid}:${Date.now()}:${++prefixCounter}:`;
}

async function redisUnavailableReason(): Promise<string | null> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return `Redis is not reachable at ${TEST_REDIS_URL} (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

/** Defines the tests only when Redis answers; otherwise one skipped (or, in CI, failing) test. */
export async function withRedis(name: string, define: () => void): Promise<void> {
  const reason = await redisUnavailableReason();
  if (reason === null) define();
  else if (process.env.HERITAGE_TEST_REDIS === 'required') {
    test(`${name}: Redis is required (HERITAGE_TEST_REDIS=required)`, () => {
      throw new Error(reason);
    });
  } else test(`${name}: ${reason}`, { skip: reason }, () => undefined);
}

/** Keys under the prefix, and deletes them. */
export async function takeRedisKeys(prefix: string): Promise<string[]> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    return keys;
  } finally {
    redis.disconnect();
  }
}

export interface StallingProxy {
  port: number;
  /** From now on nothing is forwarded either way, but every connection stays open. */
  stall(): void;
  close(): Promise<void>;
}

/** A TCP proxy that can go silent: a Redis that is "slow" rather than down. */
export async function startStallingProxy(target: URL): Promise<StallingProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk) => stalled || upstream.write(chunk));
    upstream.on('data', (chunk) => stalled || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => {
      stalled = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then closed again). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
