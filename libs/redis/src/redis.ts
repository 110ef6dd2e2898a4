import IORedis, { type Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DependencyUnavailableError, describeTarget } from '@payments/database';

/** Nest injection token of the process's shared Redis connection (null when the service uses none). */
export const REDIS = Symbol('REDIS');

export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: null, enableReadyCheck: true, connectTimeout: 3_000 });
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
