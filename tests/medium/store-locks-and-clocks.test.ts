import { ApiKeyStore } from '../../apps/gateway/src/auth/api-key-store';
import { BusinessStore } from '../../apps/gateway/src/businesses/business-store';
import { CallbackStore } from '../../apps/webhook-dispatcher/src/callbacks/callback-store';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/**
 * Store methods that take an advisory lock or read the database's clock (they used to be SQL in
 * use cases): in process, against migrated databases.
 */
describe('stores: locks and the database clock', () => {
  let gateway: MigratedDatabase;
  let webhooks: MigratedDatabase;

  beforeAll(async () => {
    [gateway, webhooks] = await Promise.all([
      migratedDatabase('gateway', 'store_clock_gw'),
      migratedDatabase('webhook-dispatcher', 'store_locks_wh'),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.drop(), webhooks?.drop()]);
  });

  it("a key roll expires that mode and type's current keys at now() + grace, never later than they would", async () => {
    const keys = new ApiKeyStore(gateway.ds);
    const business = await gateway.ds.transaction((m) => new BusinessStore(gateway.ds).insert(m, 'Clock'));
    const add = (hash: string, type: 'secret' | 'public', mode: 'test' | 'live' = 'test') =>
      gateway.ds.transaction((m) =>
        keys.insert(m, { business_id: business.id, mode, key_type: type, key_hash: hash, prefix: hash.slice(0, 8) }),
      );
    await add('hash-secret-1', 'secret');
    await add('hash-public-1', 'public');
    await add('hash-secret-live', 'secret', 'live');

    const [{ now }] = (await gateway.ds.query('SELECT now() AS now')) as { now: Date }[];
    const expires = await gateway.ds.transaction((m) => keys.expireCurrent(m, business.id, 'test', 'secret', 3600));
    // The database's clock, an hour on (the statement's now(), a moment after the one read above).
    expect(expires.getTime() - now.getTime()).toBeGreaterThanOrEqual(3_600_000);
    expect(expires.getTime() - now.getTime()).toBeLessThan(3_660_000);
    expect((await keys.valid('hash-secret-1'))?.expires_at?.getTime()).toBe(expires.getTime());
    // Other types and modes are untouched.
    expect((await keys.valid('hash-public-1'))?.expires_at).toBeNull();
    expect((await keys.valid('hash-secret-live'))?.expires_at).toBeNull();

    // A second roll with a longer grace does not extend the first one's expiry; a shorter one brings it forward.
    await gateway.ds.transaction((m) => keys.expireCurrent(m, business.id, 'test', 'secret', 7200));
    expect((await keys.valid('hash-secret-1'))?.expires_at?.getTime()).toBe(expires.getTime());
    await gateway.ds.transaction((m) => keys.expireCurrent(m, business.id, 'test', 'secret', 0));
    expect(await keys.valid('hash-secret-1')).toBeUndefined();
  });

  it('counts live callbacks under a business+mode lock: a second creation waits for the first to commit', async () => {
    const store = new CallbackStore(webhooks.ds);
    const callback = {
      business_id: 11,
      mode: 'test' as const,
      url: 'https://example.com/hook',
      description: '',
      events: ['transaction.success'],
      secret: 'whsec_x',
    };
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstCounted!: () => void;
    const firstHasLock = new Promise<void>((resolve) => (firstCounted = resolve));
    const seen: string[] = [];

    const first = webhooks.ds.transaction(async (m) => {
      seen.push(`first counts ${await store.countLiveLocked(m, 11, 'test')}`);
      firstCounted();
      await firstMayCommit;
      await store.insert(m, callback);
      seen.push('first inserted');
    });
    await firstHasLock;
    const second = webhooks.ds.transaction(async (m) => {
      seen.push(`second counts ${await store.countLiveLocked(m, 11, 'test')}`);
    });
    // Another business's creations do not wait.
    await webhooks.ds.transaction((m) => store.countLiveLocked(m, 12, 'test'));
    releaseFirst();
    await Promise.all([first, second]);
    expect(seen).toEqual(['first counts 0', 'first inserted', 'second counts 1']);
  });
});
