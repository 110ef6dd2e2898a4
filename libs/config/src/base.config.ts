import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';

const PORT_RULE = { message: '$property must be an integer between 1 and 65535' };
const HOST_PORT_LIST = /^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/;

/** Settings every process shares. Property name = environment variable name. */
export class CommonConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsInt() @Min(100) @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;
}

/** Settings of the services that own a database and talk through Kafka. */
export class ServiceConfig extends CommonConfig {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: '$property must be a postgres:// URL of the database server' })
  DATABASE_URL = 'postgres://payments:payments@127.0.0.1:55432/postgres';

  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: '$property must be a lower-case PostgreSQL identifier' })
  DATABASE_NAME = '';

  @IsInt() @Min(1) @Max(200)
  DATABASE_POOL_SIZE = 10;

  @IsBoolean()
  MIGRATE_ON_BOOT = true;

  @Matches(HOST_PORT_LIST, { message: '$property must be a comma-separated list of host:port' })
  KAFKA_BROKERS = '127.0.0.1:59092';

  @IsString()
  KAFKA_TOPIC_PREFIX = '';

  @IsInt() @Min(1) @Max(1000)
  KAFKA_PARTITIONS = 6;

  @IsInt() @Min(1) @Max(10)
  KAFKA_REPLICATION_FACTOR = 1;

  @IsInt() @Min(3000) @Max(300_000)
  KAFKA_SESSION_TIMEOUT_MS = 10_000;

  @IsString() @IsNotEmpty()
  RPC_HOST = '0.0.0.0';

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  RPC_PORT = 4000;

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  HTTP_PORT = 4100;

  @IsInt() @Min(10) @Max(60_000)
  OUTBOX_POLL_INTERVAL_MS = 200;

  /** Off only for operational drills and the crash test (events stay in the outbox). */
  @IsBoolean()
  OUTBOX_RELAY_ENABLED = true;
}

/** Services that also use Redis (BullMQ). */
export class RedisServiceConfig extends ServiceConfig {
  @Matches(/^rediss?:\/\/\S+$/, { message: '$property must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:56379';
}

export { HOST_PORT_LIST, PORT_RULE };
