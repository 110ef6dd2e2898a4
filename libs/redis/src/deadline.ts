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
 * Waits for a Redis call at most `ms`: the shared connections retry forever across reconnects, so it would hang while
 * Redis is down. The call is not cancelled (ioredis sends it later), so a caller giving up must be safe if it runs.
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
