import IORedis, { type Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DependencyUnavailableError, describeTarget } from '@payments/database';
import { withinDeadline } from './deadline';

/** Nest injection token of the process's shared Redis connection (null when the service uses none). */
export const REDIS = Symbol('REDIS');

/**
 * Nest injection token of a connection whose calls never outlive the connection they were sent
 * on (connectRedisWithoutReplay): for calls that are worthless, or harmful, once their caller
 * has moved on.
 */
export const REDIS_WITHOUT_REPLAY = Symbol('REDIS_WITHOUT_REPLAY');

export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new IORedis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectTimeout: 3_000,
  });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new DependencyUnavailableError(
      'Redis',
      describeTarget(url),
      (err as Error).message,
      'Start it with `npm run infra:up` or point REDIS_URL at a running server',
    );
  }
  return redis;
}

/**
 * A second connection to `shared`'s server whose calls are never replayed, for callers that may give up. The shared one
 * holds and resends calls across outages (right for writes that must land); on this one a call fails at once while it
 * is disconnected, and calls in flight when it drops fail and are not resent.
 */
export async function connectRedisWithoutReplay(shared: Redis, logger: Logger): Promise<Redis> {
  const redis = shared.duplicate({ lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  await redis.connect();
  return redis;
}

/**
 * Closes a connection after the calls it still holds: QUIT goes behind them (including calls held
 * while Redis was unreachable), so they land if Redis answers within `ms`. Past `ms` the
 * connection is dropped and what it still held is lost (logged).
 */
export async function quitRedis(redis: Redis, ms: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + Math.max(ms, 0);
  const reconnected = waitingToResend(redis) ? whenReady(redis) : undefined;
  try {
    // QUIT on a connection that is reconnecting, with nothing queued while it was down, closes it
    // at once: the calls in flight when it dropped (which ioredis resends once it is back) would
    // be dropped unsent. So the connection is let back first, when it holds such calls.
    if (reconnected) await withinDeadline(reconnected.promise, Math.max(deadline - Date.now(), 1), 'reconnecting');
    await withinDeadline(redis.quit(), Math.max(deadline - Date.now(), 1), 'closing');
  } catch (err) {
    logger.error(
      { err: (err as Error).message },
      'redis did not take the calls still queued before shutdown; they are lost',
    );
  } finally {
    reconnected?.cancel();
  }
  redis.disconnect();
}

/** Calls in flight when the connection dropped, held by ioredis to resend once it is back. */
function waitingToResend(redis: Redis): boolean {
  const held = (redis as unknown as { prevCommandQueue?: { length: number } | null }).prevCommandQueue;
  return redis.status !== 'ready' && redis.status !== 'end' && (held?.length ?? 0) > 0;
}

function whenReady(redis: Redis): { promise: Promise<void>; cancel: () => void } {
  let cancel = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    const done = () => {
      cancel();
      resolve();
    };
    cancel = () => {
      redis.off('end', done);
      redis.off('ready', done);
    };
    redis.once('ready', done);
    redis.once('end', done);
  });
  return { promise, cancel };
}
