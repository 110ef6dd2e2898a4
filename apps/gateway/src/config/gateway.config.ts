import { IsBoolean, IsInt, IsString, Matches, Max, MinLength, Min } from 'class-validator';
import { CommonConfig, HOST_PORT_LIST, PORT_RULE } from '@payments/config';

const ADDRS = { message: '$property must be a comma-separated list of host:port' };

/** gateway settings; property name = environment variable name. */
export class GatewayConfig extends CommonConfig {
  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  GATEWAY_PORT = 3000;

  /** Guards /admin/v1: `Authorization: Bearer <token>`. No default: it must be chosen. */
  @IsString() @MinLength(16, { message: '$property must be set to a secret of at least 16 characters' })
  ADMIN_API_TOKEN = '';

  /** Public address of the hosted checkout page (the gateway serves it under /checkout). */
  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s) URL' })
  CHECKOUT_URL = 'http://localhost:3000/checkout';

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: '$property must be a postgres:// URL of the database server' })
  DATABASE_URL = 'postgres://payments:payments@127.0.0.1:55432/postgres';

  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: '$property must be a lower-case PostgreSQL identifier' })
  DATABASE_NAME = 'payments_gateway';

  @IsInt() @Min(1) @Max(200)
  DATABASE_POOL_SIZE = 10;

  @IsBoolean()
  MIGRATE_ON_BOOT = true;

  @Matches(/^rediss?:\/\/\S+$/, { message: '$property must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:56379';

  @IsInt() @Min(1) @Max(100_000)
  RATE_LIMIT_PER_SECOND = 25;

  @Matches(HOST_PORT_LIST, ADDRS)
  TRANSACTION_SERVICE_ADDRS = '127.0.0.1:4001';

  @Matches(HOST_PORT_LIST, ADDRS)
  SPLIT_LEDGER_SERVICE_ADDRS = '127.0.0.1:4002';

  @Matches(HOST_PORT_LIST, ADDRS)
  WEBHOOK_DISPATCHER_ADDRS = '127.0.0.1:4003';

  /** An RPC without an answer within this time fails with 503, never a hang. */
  @IsInt() @Min(100) @Max(120_000)
  RPC_TIMEOUT_MS = 10_000;

  /** How often host names in *_ADDRS are resolved again (a headless Service's pods change). */
  @IsInt() @Min(500) @Max(600_000)
  RPC_DNS_REFRESH_MS = 10_000;
}
