import type { Redis } from 'ioredis';
import { createRootLogger } from '@payments/platform';
import { connectRedis, connectRedisWithoutReplay } from '@payments/redis';
import { RateLimiter } from '../../apps/gateway/src/auth/rate-limiter';
import type { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { infra, runId } from '../support/infra';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

describe('rate limiter: a call given up on is not replayed after a reconnect', () => {
  jest.setTimeout(20_000);
  const logger = createRootLogger('gateway', 'fatal');
  const prefix = `${runId()}:`;
  // Almost no refill: the bucket's count is what was taken.
  const config = {
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_PER_SECOND: 0.001,
    RATE_LIMIT_BURST: 5,
    RATE_LIMIT_TIMEOUT_MS: 200,
  } as GatewayConfig;
  let proxy: TcpProxy;
  let shared: Redis;
  let withoutReplay: Redis;

  beforeAll(async () => {
    const target = new URL(infra().REDIS_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    shared = await connectRedis(`redis://127.0.0.1:${proxy.port}`, logger);
    withoutReplay = await connectRedisWithoutReplay(shared, logger);
  });

  afterAll(async () => {
    await shared.del(`${prefix}ratelimit:once`, `${prefix}ratelimit:twice`);
    shared.disconnect();
    withoutReplay.disconnect();
    await proxy.close();
  });

  /** One take whose reply is lost, the connection cut, then the next take's remaining tokens. */
  async function remainingAfterADrop(redis: Redis, key: string): Promise<string | undefined> {
    const limiter = new RateLimiter(redis, config);
    proxy.dropReplies(true);
    const lost = await limiter.take(key);
    expect(lost.headers).toEqual({}); // passed unlimited: no answer within RATE_LIMIT_TIMEOUT_MS
    const back = new Promise((resolve) => redis.once('ready', resolve));
    proxy.cut();
    proxy.dropReplies(false);
    await back; // reconnected (within ioredis' first retry delay)
    await redis.ping(); // anything resent after the reconnect has run before this answers
    return (await limiter.take(key)).headers['RateLimit-Remaining'];
  }

  it("on the gateway's limiter connection the lost call took its token once", async () => {
    expect(await remainingAfterADrop(withoutReplay, 'once')).toBe('3');
  });

  it('on the shared connection the same call would have been sent again and taken a second token', async () => {
    expect(await remainingAfterADrop(shared, 'twice')).toBe('2');
  });
});
