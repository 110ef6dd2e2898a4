import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { PORT_RULE } from './common.config';
import { InternalRpcConfig, WithKafkaClient } from './security.config';

/** Settings of the services that own a database, talk through Kafka and answer the gateway's RPC. */
export class ServiceConfig extends WithKafkaClient(InternalRpcConfig) {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: '$property must be a postgres:// URL of the database server' })
  DATABASE_URL = 'postgres://payments:payments@127.0.0.1:55432/postgres';

  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: '$property must be a lower-case PostgreSQL identifier' })
  DATABASE_NAME = '';

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  @IsBoolean()
  MIGRATE_ON_BOOT = true;

  @IsInt()
  @Min(1)
  @Max(1000)
  KAFKA_PARTITIONS = 6;

  /** 0: from the cluster — 3 on three brokers or more, else one per broker (libs/messaging topicReplication). */
  @IsInt()
  @Min(0)
  @Max(10)
  KAFKA_REPLICATION_FACTOR = 0;

  /** min.insync.replicas of the topics a service creates; 0: 2 when they have three copies or more. */
  @IsInt()
  @Min(0)
  @Max(10)
  KAFKA_MIN_INSYNC_REPLICAS = 0;

  /** false: the topics must already exist (managed Kafka); startup names the missing ones. */
  @IsBoolean()
  KAFKA_CREATE_TOPICS = true;

  @IsInt()
  @Min(3000)
  @Max(300_000)
  KAFKA_SESSION_TIMEOUT_MS = 10_000;

  /** Loopback by default: only the gateway on the same host may call. Manifests set 0.0.0.0. */
  @IsString()
  @IsNotEmpty()
  RPC_HOST = '127.0.0.1';

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  RPC_PORT = 4000;

  /** Health and metrics; loopback by default, manifests set 0.0.0.0 for probes and scraping. */
  @IsString()
  @IsNotEmpty()
  HTTP_HOST = '127.0.0.1';

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  HTTP_PORT = 4100;

  /**
   * How often the relay looks at the outbox while it finds events there or another replica's relay is at work. Each
   * commit of this process wakes it anyway (after OUTBOX_RELAY_LINGER_MS).
   */
  @IsInt()
  @Min(10)
  @Max(60_000)
  OUTBOX_POLL_INTERVAL_MS = 200;

  /**
   * How long the relay sleeps, at most, after it found the outbox empty, unless a commit of this process wakes it
   * first. Only events written by a process that could not wake it wait for this look: a replica stopped between its
   * commit and its relay's tick, say. At least OUTBOX_POLL_INTERVAL_MS. It was the poll interval (five looks a second)
   * before 2026-11-29, which made the relays most of an idle system's database statements (docs/benchmarks.md,
   * twenty-seventh round).
   */
  @IsInt()
  @Min(10)
  @Max(60_000)
  OUTBOX_IDLE_MAX_MS = 1_000;

  /**
   * How long the relay waits after a commit wakes it before it reads the outbox, so the events of commits close
   * together travel in one batch (as Kafka's linger.ms): fewer relay transactions, produce requests, fetches and
   * consumer transactions. At 100 payments/s, 20 ms cut the machine's CPU per payment by a quarter to 30 %
   * (docs/benchmarks.md, twentieth round); 0 sends each commit's events at once.
   */
  @IsInt()
  @Min(0)
  @Max(1_000)
  OUTBOX_RELAY_LINGER_MS = 20;

  /** Off only for operational drills and the crash test (events stay in the outbox). */
  @IsBoolean()
  OUTBOX_RELAY_ENABLED = true;
}

/** Services that also use Redis (BullMQ). */
export class RedisServiceConfig extends ServiceConfig {
  @Matches(/^rediss?:\/\/\S+$/, { message: '$property must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:56379';
}

export { CommonConfig, HOST_PORT_LIST, PORT_RULE } from './common.config';
