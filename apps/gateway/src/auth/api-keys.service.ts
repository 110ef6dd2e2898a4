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

/**
 * Resolves an API key to (business, mode, key type). The key is looked up by its SHA-256, so the
 * secret itself is never compared byte by byte and never stored. Hits are cached in memory for
 * API_KEY_CACHE_TTL_MS; an entry also remembers the key's expiry (a rolled key's grace period),
 * and a roll on any replica evicts that business's keys everywhere through Redis pub/sub.
 */
@Injectable()
export class ApiKeysService implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: TtlCache<string, CachedKey>;
  private readonly misses = new TtlCache<string, true>(MISS_TTL_MS, MAX_ENTRIES);
  private subscriber: Redis | undefined;

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

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('error', (err) => rootLogger().warn({ err: err.message }, 'api key invalidation channel error'));
    this.subscriber.on('message', (_channel, businessId) => this.forgetLocally(Number(businessId)));
    // Notices published while the subscriber was disconnected are lost: once it is back (ioredis
    // subscribes again right after 'ready'), every cached key is resolved anew rather than trusted
    // for up to API_KEY_CACHE_TTL_MS.
    let connectedBefore = false;
    this.subscriber.on('ready', () => {
      if (connectedBefore && this.cache.size > 0) {
        rootLogger().warn({ keys: this.cache.size }, 'api key invalidation channel reconnected; forgetting every cached key');
        this.cache.deleteWhere(() => true);
      }
      connectedBefore = true;
    });
    await this.subscriber.subscribe(this.channel).catch((err) => rootLogger().warn({ err: err.message }, 'cannot subscribe to key invalidations'));
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  async authenticate(key: string): Promise<Principal | null> {
    if (!parseApiKey(key)) return null;
    const hash = hashApiKey(key);
    const now = Date.now();
    if (this.misses.get(hash, now)) return null;
    const hit = this.cache.get(hash, now);
    if (hit) return hit.expiresAt === null || hit.expiresAt > now ? hit.principal : null;
    const row = await this.store.valid(hash);
    if (!row) {
      this.cache.delete(hash);
      this.misses.set(hash, true, now);
      return null;
    }
    this.misses.delete(hash);
    const { expires_at, ...principal } = row;
    this.cache.set(hash, { principal, expiresAt: expires_at ? expires_at.getTime() : null }, now);
    return principal;
  }

  /** Called after a business's keys change: every replica drops what it cached for that business. */
  async forget(businessId: number): Promise<void> {
    this.forgetLocally(businessId);
    // Not waited for longer than REDIS_TIMEOUT_MS: the key change is committed, and a Redis that is
    // down must not hang the admin's request (other replicas' caches expire within API_KEY_CACHE_TTL_MS).
    const notice = this.redis.publish(this.channel, String(businessId));
    await withinDeadline(notice, this.config.REDIS_TIMEOUT_MS, 'key invalidation').catch((err: Error) => rootLogger().error({ err: err.message }, 'cannot publish key invalidation'));
  }

  private forgetLocally(businessId: number): void {
    this.cache.deleteWhere((entry) => entry.principal.business_id === businessId);
  }
}
