import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { logLines } from '../__tests__/log-lines';
import type { GatewayConfig } from '../config/gateway.config';
import { newApiKey } from './api-key-format';
import type { ApiKeyStore } from './api-key-store';
import { ApiKeysService } from './api-keys.service';

/** The service over a store that counts lookups and a Redis whose subscriber the test drives. */
async function setUp() {
  const subscriber = Object.assign(new EventEmitter(), { subscribe: async () => 1, disconnect: () => undefined });
  const redis = { duplicate: () => subscriber, publish: async () => 1 };
  const store = { valid: jest.fn(async () => ({ business_id: 7, mode: 'test', key_type: 'secret', expires_at: null })) };
  const config = { API_KEY_CACHE_TTL_MS: 60_000, REDIS_KEY_PREFIX: '', REDIS_TIMEOUT_MS: 1_000 } as GatewayConfig;
  const keys = new ApiKeysService(store as unknown as ApiKeyStore, redis as unknown as Redis, config);
  await keys.onModuleInit();
  return { keys, store, subscriber };
}

describe('ApiKeysService: the invalidation channel', () => {
  const key = newApiKey('secret', 'test');

  it('a key is resolved once, then served from the cache while the channel stays connected', async () => {
    const { keys, store, subscriber } = await setUp();
    subscriber.emit('ready');
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(1);
  });

  it('a roll notice from another replica evicts that business', async () => {
    const { keys, store, subscriber } = await setUp();
    subscriber.emit('ready');
    await keys.authenticate(key);
    subscriber.emit('message', 'apikeys:invalidate', '7');
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
  });

  it('after the channel reconnects every cached key is resolved anew: notices sent while it was down are lost', async () => {
    const lines = logLines();
    const { keys, store, subscriber } = await setUp();
    subscriber.emit('ready');
    await keys.authenticate(key);
    subscriber.emit('close');
    subscriber.emit('ready');
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', keys: 1, message: expect.stringContaining('forgetting every cached key') })]);
    expect(JSON.stringify(lines)).not.toContain(key);
  });
});
