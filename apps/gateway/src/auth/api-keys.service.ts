import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { KeyType, Mode } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { REDIS } from '@payments/redis';
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
  cachedAt: number;
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
  private readonly cache = new Map<string, CachedKey>();
  private readonly misses = new Map<string, number>();
  private subscriber: Redis | undefined;

  constructor(
    private readonly store: ApiKeyStore,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  private get channel(): string {
    return `${this.config.REDIS_KEY_PREFIX}${INVALIDATE_CHANNEL}`;
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('error', (err) => rootLogger().warn({ err: err.message }, 'api key invalidation channel error'));
    this.subscriber.on('message', (_channel, businessId) => this.forgetLocally(Number(businessId)));
    await this.subscriber.subscribe(this.channel).catch((err) => rootLogger().warn({ err: err.message }, 'cannot subscribe to key invalidations'));
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  async authenticate(key: string): Promise<Principal | null> {
    if (!parseApiKey(key)) return null;
    const hash = hashApiKey(key);
    const now = Date.now();
    const missedAt = this.misses.get(hash);
    if (missedAt !== undefined && now - missedAt < MISS_TTL_MS) return null;
    const hit = this.cache.get(hash);
    if (hit && now - hit.cachedAt < this.config.API_KEY_CACHE_TTL_MS) {
      return hit.expiresAt === null || hit.expiresAt > now ? hit.principal : null;
    }
    const row = await this.store.valid(hash);
    if (!row) {
      this.cache.delete(hash);
      if (this.misses.size >= MAX_ENTRIES) this.misses.clear();
      this.misses.set(hash, now);
      return null;
    }
    this.misses.delete(hash);
    const { expires_at, ...principal } = row;
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { principal, expiresAt: expires_at ? expires_at.getTime() : null, cachedAt: now });
    return principal;
  }

  /** Called after a business's keys change: every replica drops what it cached for that business. */
  async forget(businessId: number): Promise<void> {
    this.forgetLocally(businessId);
    await this.redis.publish(this.channel, String(businessId)).catch((err) => rootLogger().error({ err }, 'cannot publish key invalidation'));
  }

  private forgetLocally(businessId: number): void {
    for (const [hash, entry] of this.cache) if (entry.principal.business_id === businessId) this.cache.delete(hash);
  }
}
