// The account forms' counts in Redis (REDIS_URL), shared by every process and host: a key per
// name, address, device or site under the prefix, its window begun by its first event (an
// atomic INCR and, for a new key, PEXPIRE). Bounded in time like the rate limit's commands; a
// failure is the caller's to ignore (throttle.ts keeps its own count).
import type { Redis } from 'ioredis';
import type { Count, SharedCounts } from './throttle.js';

const COUNT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

const count = (events: unknown, leftMs: unknown): Count => ({ events: Number(events ?? 0), leftMs: Math.max(0, Number(leftMs)) });

export function redisCounts(redis: Redis, prefix: string, windowMs: number): SharedCounts {
  return {
    async read(keys) {
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.get(`${prefix}${key}`).pttl(`${prefix}${key}`);
      const replies = (await pipeline.exec()) ?? [];
      return keys.map((_, i) => {
        const [events, left] = [replies[2 * i], replies[2 * i + 1]];
        if (!events || !left || events[0] || left[0]) throw new Error('Redis did not answer');
        return count(events[1], left[1]);
      });
    },
    async add(keys) {
      return Promise.all(keys.map(async (key) => {
        const reply = await redis.eval(COUNT, 1, `${prefix}${key}`, String(windowMs));
        if (!Array.isArray(reply)) throw new Error('Redis did not answer');
        return count(reply[0], reply[1]);
      }));
    },
  };
}
