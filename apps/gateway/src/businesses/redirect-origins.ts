import { Inject, Injectable } from '@nestjs/common';
import { BusinessStore } from './business-store';
import { ErrorCodes } from '@payments/contracts';
import { TtlCache } from '@payments/platform';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';

/** How many redirect origins one business may allow. */
export const REDIRECT_ORIGINS_MAX = 20;
/** Businesses whose lists are cached at most; the oldest entry makes room. */
const CACHE_MAX_ENTRIES = 50_000;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin `raw` names, normalised (`https://shop.example`), or why it is not acceptable: only
 * scheme, host and optional port; https, or http for a local development host.
 */
export function parseRedirectOrigin(raw: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an origin such as https://shop.example or https://shop.example:8443' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) {
    return { problem: 'must use https (http only for localhost)' };
  }
  if (
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '') ||
    !/^https?:\/\/[^/?#]+\/?$/i.test(raw)
  ) {
    return { problem: 'must be only scheme, host and optional port (no path, query, fragment or credentials)' };
  }
  return { origin: url.origin };
}

/** The origin of a redirect URL, or null when it cannot be parsed. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Where a business's public-key payments may send the customer after checkout. Cached for
 * REDIRECT_ORIGINS_CACHE_TTL_MS: a change applies at once on its own replica, on others when their entry expires.
 */
@Injectable()
export class RedirectOriginsService {
  private readonly cache: TtlCache<number, ReadonlySet<string>>;
  /** Bumped by every change: a read that started before one must not cache what it read. */
  private changes = 0;

  constructor(
    private readonly businesses: BusinessStore,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.cache = new TtlCache(config.REDIRECT_ORIGINS_CACHE_TTL_MS, CACHE_MAX_ENTRIES);
  }

  async get(businessId: number): Promise<string[]> {
    const origins = await this.businesses.redirectOrigins(businessId);
    if (origins === null) throw new ApiException(ErrorCodes.NotFound, `no business ${businessId}`);
    return origins;
  }

  /** Replaces the list; entries are validated by the request schema, normalised and de-duplicated here. */
  async set(businessId: number, origins: string[]): Promise<string[]> {
    const normalised = [
      ...new Set(
        origins.map((o) => {
          const parsed = parseRedirectOrigin(o);
          return 'origin' in parsed ? parsed.origin : o;
        }),
      ),
    ];
    this.changes++;
    this.cache.delete(businessId);
    const saved = await this.businesses.setRedirectOrigins(businessId, normalised);
    // Again after the write: a read that began before it may have cached the old list meanwhile.
    this.changes++;
    this.cache.delete(businessId);
    if (saved === null) throw new ApiException(ErrorCodes.NotFound, `no business ${businessId}`);
    return saved;
  }

  /** The fields among `urls` whose origin the business has not allowed. */
  async disallowed(businessId: number, urls: Record<string, string | null | undefined>): Promise<string[]> {
    const given = Object.entries(urls).filter((e): e is [string, string] => typeof e[1] === 'string');
    if (given.length === 0) return [];
    const allowed = await this.allowed(businessId);
    return given.filter(([, url]) => !allowed.has(originOf(url) ?? '')).map(([field]) => field);
  }

  private async allowed(businessId: number): Promise<ReadonlySet<string>> {
    const now = Date.now();
    const hit = this.cache.get(businessId, now);
    if (hit) return hit;
    const changesBefore = this.changes;
    const origins = new Set(await this.get(businessId));
    if (this.changes === changesBefore) this.cache.set(businessId, origins, now);
    return origins;
  }
}
