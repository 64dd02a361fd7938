// Failed sign-ins counted in Redis (REDIS_URL), shared by every process and host: a key per
// name and per address under the prefix, its window begun by its first failure (an atomic
// INCR and, for a new key, PEXPIRE). Bounded in time like the rate limit's commands; a
// failure is the caller's to ignore (throttle.ts keeps its own count).
import type { Redis } from 'ioredis';
import { THROTTLE_WINDOW_MS, type SharedFailures } from './throttle.js';

const COUNT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export function redisFailures(redis: Redis, prefix: string): SharedFailures {
  return {
    async read(keys) {
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.get(`${prefix}${key}`).pttl(`${prefix}${key}`);
      const replies = (await pipeline.exec()) ?? [];
      return keys.map((_, i) => {
        const [count, left] = [replies[2 * i], replies[2 * i + 1]];
        if (!count || !left || count[0] || left[0]) throw new Error('Redis did not answer');
        return { failures: Number(count[1] ?? 0), leftMs: Math.max(0, Number(left[1])) };
      });
    },
    async add(keys) {
      await Promise.all(keys.map((key) => redis.eval(COUNT, 1, `${prefix}${key}`, String(THROTTLE_WINDOW_MS))));
    },
  };
}
