import IORedis, { type Redis } from 'ioredis';
import { createRootLogger } from '@payments/platform';
import { connectRedis } from '@payments/redis';
import { newApiKey } from '../../apps/gateway/src/auth/api-key-format';
import type { ApiKeyStore } from '../../apps/gateway/src/auth/api-key-store';
import { ApiKeysService } from '../../apps/gateway/src/auth/api-keys.service';
import type { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { infra, runId } from '../support/infra';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';

/**
 * The API-key cache's invalidation channel on the real Redis, its subscriber behind a proxy that can cut it: a roll
 * notice published while the channel is down is lost, so the replica reads keys from the database until it listens
 * again, and notices after that reach it. The store counts lookups (what is under test is the channel, not the table).
 */
describe('API-key cache: roll notices across a lost invalidation channel', () => {
  jest.setTimeout(30_000);
  const logger = createRootLogger('gateway', 'fatal');
  const config = {
    API_KEY_CACHE_TTL_MS: 600_000,
    REDIS_KEY_PREFIX: `${runId()}:`,
    REDIS_TIMEOUT_MS: 1_000,
  } as GatewayConfig;
  const channel = `${config.REDIS_KEY_PREFIX}apikeys:invalidate`;
  const key = newApiKey('secret', 'test');
  const store = {
    valid: jest.fn(async () => ({ business_id: 7, mode: 'test', key_type: 'secret', expires_at: null })),
  };
  let proxy: TcpProxy;
  let viaProxy: Redis;
  let direct: Redis;
  let keys: ApiKeysService;

  /** Database lookups that one more request takes: 0 when it was served from the cache. */
  async function lookupsFor(): Promise<number> {
    const before = store.valid.mock.calls.length;
    expect(await keys.authenticate(key)).toMatchObject({ business_id: 7 });
    return store.valid.mock.calls.length - before;
  }

  beforeAll(async () => {
    const target = new URL(infra().REDIS_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    viaProxy = await connectRedis(`redis://127.0.0.1:${proxy.port}`, logger);
    direct = new IORedis(infra().REDIS_URL);
    keys = new ApiKeysService(store as unknown as ApiKeyStore, viaProxy, config);
    await keys.onModuleInit();
  });

  afterAll(async () => {
    keys.onApplicationShutdown();
    viaProxy.disconnect();
    direct.disconnect();
    await proxy.close();
  });

  it('a connected replica caches a key and forgets it on a roll notice', async () => {
    await waitFor('the channel to listen (a key is then cached)', async () => (await lookupsFor()) === 0);
    await direct.publish(channel, '7');
    await waitFor('the notice to evict the key', async () => (await lookupsFor()) === 1);
    expect(await lookupsFor()).toBe(0);
  });

  it('while the channel is down every request reads the database; once it is back notices reach it again', async () => {
    proxy.refuse(true);
    proxy.cut();
    await waitFor('the replica to notice', async () => (await lookupsFor()) === 1 && (await lookupsFor()) === 1);
    expect(await direct.publish(channel, '7')).toBe(0); // nobody hears it: lost
    proxy.refuse(false);
    await waitFor('the cache to be used again', async () => (await lookupsFor()) === 0);
    expect(await direct.publish(channel, '7')).toBeGreaterThan(0);
    await waitFor('the notice to evict the key', async () => (await lookupsFor()) === 1);
  });
});
