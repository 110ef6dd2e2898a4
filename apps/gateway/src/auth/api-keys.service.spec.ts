import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { logLines } from '../__tests__/log-lines';
import type { GatewayConfig } from '../config/gateway.config';
import { newApiKey } from './api-key-format';
import type { ApiKeyStore } from './api-key-store';
import { ApiKeysService } from './api-keys.service';

/**
 * The service over a store that counts lookups (`read` holds the next one until released) and a
 * Redis whose subscriber the test drives (`subscribed` answers its next SUBSCRIBE).
 */
async function setUp() {
  const pendingSubscribes: Array<() => void> = [];
  const subscriber = Object.assign(new EventEmitter(), {
    subscribe: () => new Promise<number>((resolve) => pendingSubscribes.push(() => resolve(1))),
    disconnect: () => undefined,
  });
  const redis = { duplicate: () => subscriber, publish: async () => 1 };
  const row = { business_id: 7, mode: 'test', key_type: 'secret', expires_at: null };
  let held: Promise<void> | undefined;
  const store = { valid: jest.fn(async () => (await held, row)) };
  const config = { API_KEY_CACHE_TTL_MS: 60_000, REDIS_KEY_PREFIX: '', REDIS_TIMEOUT_MS: 1_000 } as GatewayConfig;
  const keys = new ApiKeysService(store as unknown as ApiKeyStore, redis as unknown as Redis, config);
  const subscribed = async () => {
    await waitForSubscribe(pendingSubscribes);
    pendingSubscribes.shift()!();
    await new Promise(setImmediate); // what runs once the answer is in
  };
  /** Holds the database's next answers until the returned function is called. */
  const hold = () => {
    let release = () => undefined as void;
    held = new Promise((resolve) => (release = resolve));
    return () => ((held = undefined), release());
  };
  const init = keys.onModuleInit();
  subscriber.emit('ready');
  await subscribed();
  await init;
  return { keys, store, subscriber, subscribed, hold };
}

async function waitForSubscribe(pending: unknown[]): Promise<void> {
  for (let i = 0; i < 10 && pending.length === 0; i++) await new Promise(setImmediate);
  if (pending.length === 0) throw new Error('no SUBSCRIBE was sent');
}

describe('ApiKeysService: the invalidation channel', () => {
  const key = newApiKey('secret', 'test');

  it('a key is resolved once, then served from the cache while the channel stays connected', async () => {
    const { keys, store } = await setUp();
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(1);
  });

  it('a roll notice from another replica evicts that business', async () => {
    const { keys, store, subscriber } = await setUp();
    await keys.authenticate(key);
    subscriber.emit('message', 'apikeys:invalidate', '7');
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
  });

  it('a lookup that read the database before a roll notice came in does not cache what it read', async () => {
    const { keys, store, subscriber, hold } = await setUp();
    const release = hold();
    const inFlight = keys.authenticate(key);
    subscriber.emit('message', 'apikeys:invalidate', '7');
    release();
    expect(await inFlight).toMatchObject({ business_id: 7 });
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
  });

  it('while the channel is down every request reads the database; once it listens again the cache starts empty', async () => {
    const lines = logLines();
    const { keys, store, subscriber, subscribed } = await setUp();
    await keys.authenticate(key); // cached
    subscriber.emit('close');
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(3);
    subscriber.emit('ready'); // ioredis subscribes again; notices count once the SUBSCRIBE is answered
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(4);
    await subscribed();
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(5);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', keys: 1, message: expect.stringContaining('reading keys from the database') })]);
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('a lookup that read the database before the channel dropped does not cache what it read once it is back', async () => {
    const lines = logLines();
    const { keys, store, subscriber, subscribed, hold } = await setUp();
    const release = hold();
    const inFlight = keys.authenticate(key); // read before the drop, answered after the reconnect
    subscriber.emit('close');
    subscriber.emit('ready');
    await subscribed();
    release();
    await inFlight;
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
    expect(lines.map((l) => l.level)).toEqual(['warn']);
  });
});
