import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { logLines } from '../__tests__/log-lines';
import type { GatewayConfig } from '../config/gateway.config';
import { newApiKey } from './api-key-format';
import type { ApiKeyStore } from './api-key-store';
import { ApiKeysService } from './api-keys.service';

/**
 * The service over a store that counts lookups (`hold` holds its answers until released) and a
 * Redis whose subscriber the test drives (`subscribed` answers its next SUBSCRIBE, or refuses it).
 */
async function setUp() {
  const pendingSubscribes: Array<(refusal?: Error) => void> = [];
  const subscriber = Object.assign(new EventEmitter(), {
    status: 'ready',
    subscribe: () =>
      new Promise<number>((resolve, reject) =>
        pendingSubscribes.push((refusal) => (refusal ? reject(refusal) : resolve(1))),
      ),
    disconnect: () => {
      subscriber.status = 'end';
      subscriber.emit('close');
    },
  });
  const redis = { duplicate: () => subscriber, publish: async () => 1 };
  const row = { business_id: 7, mode: 'test', key_type: 'secret', expires_at: null };
  let held: Promise<void> | undefined;
  const store = { valid: jest.fn(async () => (await held, row)) };
  const config = { API_KEY_CACHE_TTL_MS: 60_000, REDIS_KEY_PREFIX: '', REDIS_TIMEOUT_MS: 1_000 } as GatewayConfig;
  const keys = new ApiKeysService(store as unknown as ApiKeyStore, redis as unknown as Redis, config);
  const subscribed = async (refusal?: Error) => {
    await waitForSubscribe(pendingSubscribes);
    pendingSubscribes.shift()!(refusal);
    await new Promise(setImmediate); // what runs once the answer is in
  };
  /** Holds the database's next answers until the returned function is called. */
  const hold = () => {
    let release = () => undefined as void;
    held = new Promise((resolve) => (release = resolve));
    return () => ((held = undefined), release());
  };
  keys.onModuleInit();
  subscriber.emit('ready');
  return { keys, store, subscriber, subscribed, hold };
}

/** Polls (with a deadline) until the service has sent a SUBSCRIBE: a retry comes after a back-off. */
async function waitForSubscribe(pending: unknown[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (pending.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  if (pending.length === 0) throw new Error('no SUBSCRIBE was sent');
}

/** A service whose channel listens (its first SUBSCRIBE answered). */
async function listening() {
  const set = await setUp();
  await set.subscribed();
  return set;
}

describe('ApiKeysService: the invalidation channel', () => {
  const key = newApiKey('secret', 'test');

  it('a key is resolved once, then served from the cache while the channel stays connected', async () => {
    const { keys, store } = await listening();
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(1);
  });

  it('a roll notice from another replica evicts that business', async () => {
    const { keys, store, subscriber } = await listening();
    await keys.authenticate(key);
    subscriber.emit('message', 'apikeys:invalidate', '7');
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
  });

  it('a lookup that read the database before a roll notice came in does not cache what it read', async () => {
    const { keys, store, subscriber, hold } = await listening();
    const release = hold();
    const inFlight = keys.authenticate(key);
    subscriber.emit('message', 'apikeys:invalidate', '7');
    release();
    expect(await inFlight).toMatchObject({ business_id: 7 });
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
  });

  it('while the channel is down every request reads the database; listening again starts an empty cache', async () => {
    const lines = logLines();
    const { keys, store, subscriber, subscribed } = await listening();
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
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        keys: 1,
        message: expect.stringContaining('reading keys from the database'),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('a lookup that read the database before the channel dropped does not cache it once it is back', async () => {
    const lines = logLines();
    const { keys, store, subscriber, subscribed, hold } = await listening();
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

  it('a refused SUBSCRIBE is tried again; keys are read from the database until it is answered', async () => {
    const lines = logLines();
    const { keys, store, subscribed } = await setUp();
    await subscribed(new Error('NOPERM this user has no permissions to access the channel'));
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(2);
    await subscribed(); // the retry, after a back-off
    await keys.authenticate(key);
    await keys.authenticate(key);
    expect(store.valid).toHaveBeenCalledTimes(3);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: expect.stringContaining('cannot subscribe to key invalidations'),
      }),
    ]);
  });

  it('a gateway stopping does not report its channel as lost', async () => {
    const lines = logLines();
    const { keys } = await listening();
    await keys.authenticate(key);
    keys.onApplicationShutdown();
    expect(lines).toEqual([]);
  });
});
