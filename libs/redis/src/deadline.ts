import type { Redis } from 'ioredis';

/** A Redis call that could not be answered in time, or was not sent because the connection is down. */
export class RedisDeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisDeadlineError';
  }
}

/** True when commands sent now go to the server at once (not to ioredis' offline queue). */
export function redisReady(redis: Pick<Redis, 'status'>): boolean {
  return redis.status === undefined || redis.status === 'ready';
}

/**
 * Waits for a Redis call at most `ms`. The shared connections retry forever across reconnects
 * (`maxRetriesPerRequest: null`), so a call made while Redis is down would otherwise wait for it
 * to come back: a request would hang. Past the deadline the call is not cancelled — ioredis still
 * sends it once it reconnects — so a caller that gives up must be safe if it runs later.
 */
export function withinDeadline<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RedisDeadlineError(`${what}: no answer from Redis within ${ms} ms`)), ms);
    timer.unref();
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err as Error);
      },
    );
  });
}
