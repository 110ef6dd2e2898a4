import { isIP } from 'node:net';
import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MinLength,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { HOST_PORT_LIST, InternalRpcConfig, PORT_RULE } from '@payments/config';

const ADDRS = { message: '$property must be a comma-separated list of host:port' };

/** The named ranges the HTTP server knows (proxy-addr's), or an IP address with an optional prefix length. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** The entries of a TRUSTED_PROXIES list, trimmed; an empty one stays (and is refused: `10.0.0.1,`). */
const proxyEntries = (list: string): string[] => list.split(',').map((s) => s.trim());
@ValidatorConstraint({ name: 'proxyList' })
class ProxyList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    if (value.trim() === 'none') return true;
    return proxyEntries(value).every((entry) => {
      if (PROXY_NAMES.has(entry)) return true;
      const [ip, prefix, ...rest] = entry.split('/');
      // No zone ids (fe80::1%eth0): Node accepts them, the HTTP server's parser does not.
      const family = ip?.includes('%') ? 0 : isIP(ip ?? '');
      if (family === 0 || rest.length > 0) return false;
      return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    });
  }
  defaultMessage(): string {
    return (
      '$property must be a comma-separated list of IP addresses or CIDR ranges, ' +
      'or loopback, linklocal, uniquelocal; or none'
    );
  }
}

/** gateway settings; property name = environment variable name. */
export class GatewayConfig extends InternalRpcConfig {
  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  GATEWAY_PORT = 3000;

  /** Prometheus /metrics, never on the public GATEWAY_PORT. */
  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  METRICS_PORT = 9464;

  /** Bind address of the internal listener (METRICS_PORT), as for the services' HTTP_PORT; manifests set 0.0.0.0. */
  @IsString()
  @IsNotEmpty()
  HTTP_HOST = '127.0.0.1';

  /** Guards /admin/v1: `Authorization: Bearer <token>`. No default: it must be chosen. */
  @IsString()
  @MinLength(16, { message: '$property must be set to a secret of at least 16 characters' })
  ADMIN_API_TOKEN = '';

  /**
   * Proxies whose X-Forwarded-For is believed for the client's address (login limiter, audit log); `none` trusts none.
   * The default trusts private networks, right when only the ingress reaches the gateway; otherwise list the ingress's
   * addresses, or other pods could claim any address.
   */
  @Validate(ProxyList)
  TRUSTED_PROXIES = 'loopback, linklocal, uniquelocal';

  /** TRUSTED_PROXIES as the HTTP server takes it: the entries, or false for none. */
  trustedProxies(): string[] | false {
    return this.TRUSTED_PROXIES.trim() === 'none' ? false : proxyEntries(this.TRUSTED_PROXIES);
  }

  /** Public address of the hosted checkout page (the gateway serves it under /checkout). */
  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s) URL' })
  CHECKOUT_URL = 'http://localhost:3000/checkout';

  /**
   * The gateway's public address (scheme, host, optional port and path prefix), for addresses given
   * to others: a provider connection's notification_url. Empty: http://127.0.0.1:GATEWAY_PORT.
   */
  @ValidateIf((o: GatewayConfig) => o.PUBLIC_BASE_URL !== '')
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
    message: '$property must be an http(s) URL without a query or fragment',
  })
  PUBLIC_BASE_URL = '';

  /** PUBLIC_BASE_URL (or its default), without a trailing slash. */
  publicBaseUrl(): string {
    return (this.PUBLIC_BASE_URL || `http://127.0.0.1:${this.GATEWAY_PORT}`).replace(/\/+$/, '');
  }

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: '$property must be a postgres:// URL of the database server' })
  DATABASE_URL = 'postgres://payments:payments@127.0.0.1:55432/postgres';

  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: '$property must be a lower-case PostgreSQL identifier' })
  DATABASE_NAME = 'payments_gateway';

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  @IsBoolean()
  MIGRATE_ON_BOOT = true;

  @Matches(/^rediss?:\/\/\S+$/, { message: '$property must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:56379';

  /** Sustained requests per second per API key (token bucket in Redis, shared by all replicas). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  RATE_LIMIT_PER_SECOND = 25;

  /** Bucket size: how many requests a key may send at once; 0 means twice RATE_LIMIT_PER_SECOND. */
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_BURST = 0;

  /**
   * How long a rate-limit call may wait for Redis (ms) before its requests pass unlimited: while
   * Redis reconnects, commands are held rather than failed, and requests must not wait for it.
   */
  @IsInt()
  @Min(10)
  @Max(10_000)
  RATE_LIMIT_TIMEOUT_MS = 250;

  /**
   * How long a replica may spend tokens it took from a key's bucket ahead of its requests (ms), without asking Redis
   * for each: granted only from the bucket's upper half, and not refilled while held (ADR 0020). 0: every request asks
   * Redis.
   */
  @IsInt()
  @Min(0)
  @Max(10_000)
  RATE_LIMIT_LEASE_MS = 1_000;

  /**
   * How long an Idempotency-Key claim, the keeping of its answer, or a key-roll notice may wait
   * for Redis (ms). Past it a claim answers 503 (the request did not run) and an answer is sent
   * without waiting to be kept: a request never hangs on a Redis that is down.
   */
  @IsInt()
  @Min(10)
  @Max(10_000)
  REDIS_TIMEOUT_MS = 1_000;

  /** Namespace for this deployment's Redis keys and channels (rate limits, idempotency, key cache). */
  @Matches(/^[A-Za-z0-9:._-]{0,64}$/, { message: '$property may contain letters, digits and : . _ - only' })
  REDIS_KEY_PREFIX = '';

  /** How long an Idempotency-Key and its response are kept (seconds; Stripe keeps 24 h). */
  @IsInt()
  @Min(60)
  @Max(604_800)
  IDEMPOTENCY_TTL_SECONDS = 86_400;

  /** How long a resolved API key is cached in memory; rolls are pushed to every replica at once. */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  API_KEY_CACHE_TTL_MS = 60_000;

  /**
   * How long a business's redirect origins are cached for public-key initializes. A change applies
   * at once on the replica that made it; other replicas see it within this time. 0: not cached.
   */
  @IsInt()
  @Min(0)
  @Max(60_000)
  REDIRECT_ORIGINS_CACHE_TTL_MS = 5_000;

  /** A dashboard session ends after this many seconds without a request (and at logout). */
  @IsInt()
  @Min(60)
  @Max(86_400)
  DASHBOARD_SESSION_IDLE_SECONDS = 1_800;

  /** A dashboard session ends this many seconds after sign-in, however active. */
  @IsInt()
  @Min(300)
  @Max(604_800)
  DASHBOARD_SESSION_MAX_SECONDS = 43_200;

  /**
   * Where the dashboard's built files are (Vite's output, `index.html` and `assets/`). Empty: the
   * build's place beside the gateway's own, dist/apps/dashboard.
   */
  @IsString()
  DASHBOARD_DIR = '';

  @Matches(HOST_PORT_LIST, ADDRS)
  TRANSACTION_SERVICE_ADDRS = '127.0.0.1:4001';

  @Matches(HOST_PORT_LIST, ADDRS)
  SPLIT_LEDGER_SERVICE_ADDRS = '127.0.0.1:4002';

  @Matches(HOST_PORT_LIST, ADDRS)
  WEBHOOK_DISPATCHER_ADDRS = '127.0.0.1:4003';

  /** An RPC without an answer within this time fails with 503, never a hang. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  RPC_TIMEOUT_MS = 10_000;

  /**
   * Longest connecting to one service address may take (capped at a quarter of RPC_TIMEOUT_MS),
   * so an address that drops packets fails over to the next one within the call's deadline.
   */
  @IsInt()
  @Min(10)
  @Max(60_000)
  RPC_CONNECT_TIMEOUT_MS = 1_000;

  /** How often host names in *_ADDRS are resolved again (a headless Service's pods change). */
  @IsInt()
  @Min(500)
  @Max(600_000)
  RPC_DNS_REFRESH_MS = 10_000;
}
