import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { KeyType, Mode } from '@payments/contracts';
import { rootLogger, TtlCache } from '@payments/platform';
import { REDIS, withinDeadline } from '@payments/redis';
import { GatewayConfig } from '../config/gateway.config';
import { hashApiKey, parseApiKey } from './api-key-format';
import { ApiKeyStore } from './api-key-store';

export interface Principal {
  business_id: number;
  mode: Mode;
  key_type: KeyType;
}

interface CachedKey {
  principal: Principal;
  expiresAt: number | null;
}

/** Channel on which a replica that rolls or revokes keys tells the others to forget them. */
const INVALIDATE_CHANNEL = 'apikeys:invalidate';
const MAX_ENTRIES = 50_000;
/** Unknown keys are remembered briefly, so guessing keys cannot turn into a database load. */
const MISS_TTL_MS = 5_000;
const SUBSCRIBE_RETRY_MAX_MS = 5_000;

/**
 * Resolves an API key by its SHA-256, so the secret is never stored. Hits are cached (API_KEY_CACHE_TTL_MS, never past
 * the key's expiry) and a roll on any replica evicts them everywhere via Redis pub/sub; while this replica's subscriber
 * is down it could miss those notices, so the cache is bypassed and starts empty once it is back.
 */
@Injectable()
export class ApiKeysService implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: TtlCache<string, CachedKey>;
  private readonly misses = new TtlCache<string, true>(MISS_TTL_MS, MAX_ENTRIES);
  private subscriber: Redis | undefined;
  /** True while invalidation notices reach this replica (subscribed, connection up). */
  private listening = false;
  /** Bumped by every invalidation: a lookup that read the database before one does not cache what it read. */
  private generation = 0;
  /** The latest call to listen(): an earlier one that is still retrying gives way to it. */
  private listenAttempt = 0;

  constructor(
    private readonly store: ApiKeyStore,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {
    this.cache = new TtlCache(config.API_KEY_CACHE_TTL_MS, MAX_ENTRIES);
  }

  private get channel(): string {
    return `${this.config.REDIS_KEY_PREFIX}${INVALIDATE_CHANNEL}`;
  }

  onModuleInit(): void {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', (err) => rootLogger().warn({ err: err.message }, 'api key invalidation channel error'));
    subscriber.on('message', (_channel, businessId) => this.forgetLocally(Number(businessId)));
    // Notices published while the subscriber is disconnected are lost: what is cached is dropped
    // then, and nothing is cached until it listens again.
    subscriber.on('close', () => {
      if (this.listening && subscriber.status !== 'end')
        rootLogger().warn(
          { keys: this.cache.size },
          'api key invalidation channel lost; reading keys from the database until it is back',
        );
      this.listening = false;
      this.generation++;
      this.cache.deleteWhere(() => true);
    });
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) void this.listen();
      connectedBefore = true;
    });
    // Not waited for: until it is answered keys are read from the database, and a SUBSCRIBE that
    // is refused must not hold the gateway's start.
    void this.listen();
  }

  /**
   * Subscribes to the invalidation channel; keys are cached only once it is answered, which after a reconnect comes
   * after ioredis's own SUBSCRIBE, so no notice is missed. A refused SUBSCRIBE is retried, with keys read from the
   * database meanwhile.
   */
  private async listen(): Promise<void> {
    const attempt = ++this.listenAttempt;
    for (let failures = 0; ; failures++) {
      try {
        await this.subscriber?.subscribe(this.channel);
        break;
      } catch (err) {
        if (attempt !== this.listenAttempt || this.subscriber?.status === 'end') return;
        if (failures % 10 === 0)
          rootLogger().error(
            { err: (err as Error).message },
            'cannot subscribe to key invalidations; reading keys from the database until it can',
          );
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(100 * 2 ** failures, SUBSCRIBE_RETRY_MAX_MS)).unref(),
        );
        if (attempt !== this.listenAttempt) return;
      }
    }
    if (attempt !== this.listenAttempt) return;
    this.generation++; // a lookup that read the database while notices were lost is not cached
    this.listening = true;
  }

  onApplicationShutdown(): void {
    this.listenAttempt++;
    this.subscriber?.disconnect();
  }

  async authenticate(key: string): Promise<Principal | null> {
    if (!parseApiKey(key)) return null;
    const hash = hashApiKey(key);
    const now = Date.now();
    if (this.misses.get(hash, now)) return null;
    const hit = this.cache.get(hash, now);
    if (hit) return hit.expiresAt === null || hit.expiresAt > now ? hit.principal : null;
    const generation = this.generation;
    const row = await this.store.valid(hash);
    if (!row) {
      this.cache.delete(hash);
      this.misses.set(hash, true, now);
      return null;
    }
    this.misses.delete(hash);
    const { expires_at, ...principal } = row;
    // Not cached while notices cannot reach this replica, nor when a key may have changed while
    // it was read (a notice came in meanwhile, or notices were lost).
    if (this.listening && generation === this.generation)
      this.cache.set(hash, { principal, expiresAt: expires_at ? expires_at.getTime() : null }, now);
    return principal;
  }

  /** Called after a business's keys change: every replica drops what it cached for that business. */
  async forget(businessId: number): Promise<void> {
    this.forgetLocally(businessId);
    // Not waited for longer than REDIS_TIMEOUT_MS: the key change is committed, and a Redis that is
    // down must not hang the admin's request (other replicas' caches expire within API_KEY_CACHE_TTL_MS).
    const notice = this.redis.publish(this.channel, String(businessId));
    await withinDeadline(notice, this.config.REDIS_TIMEOUT_MS, 'key invalidation').catch((err: Error) =>
      rootLogger().error({ err: err.message }, 'cannot publish key invalidation'),
    );
  }

  private forgetLocally(businessId: number): void {
    this.generation++;
    this.cache.deleteWhere((entry) => entry.principal.business_id === businessId);
  }
}
