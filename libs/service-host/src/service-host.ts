import 'reflect-metadata';
import { Global, Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import IORedis, { type Redis } from 'ioredis';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ALL_TOPICS, REPLAY_RESULTS_TOPIC, deadLetterTopic, replayTopic } from '@payments/contracts';
import { ConfigError, loadConfig, type RedisServiceConfig, type ServiceConfig } from '@payments/config';
import { DependencyUnavailableError, describeTarget, ensureDatabase, migrateWithLock, openDatabase, schemaReadinessCheck, waitForCurrentSchema } from '@payments/database';
import { IdempotentConsumer, OutboxRelay, connectAdmin, createKafka, ensureTopics, type BatchEventHandler, type EventHandler, type KafkaSettings } from '@payments/messaging';
import {
  HealthModule,
  HealthRegistry,
  NestPinoLogger,
  PollingWorker,
  createRootLogger,
  authenticatedRpcServer,
  redactText,
  initMetrics,
} from '@payments/platform';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const KAFKA_PRODUCER = Symbol('KAFKA_PRODUCER');
export const REDIS = Symbol('REDIS');
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

export interface ConsumerSpec {
  group: string;
  handlers: Record<string, EventHandler>;
  /** Optional set-based handlers by topic, for a whole consumer batch (see ConsumerOptions). */
  batchHandlers?: Record<string, BatchEventHandler>;
  /** Runs after a consumer transaction that applied new events commits (wakes the next stage). */
  afterCommit?: () => void;
}

export interface ServiceDefinition<C extends ServiceConfig> {
  name: string;
  config: new () => C;
  migrations: Function[];
  /** The Nest module with the service's controllers (RPC) and use cases. */
  module: Type<unknown>;
  usesRedis?: boolean;
  /** False for a service that never writes to its outbox: then no relay polls it. */
  publishesEvents?: boolean;
  /** Kafka consumers, built from the started app so handlers can be Nest providers. */
  consumers?: (app: INestApplication) => ConsumerSpec[];
}

/** Lets the outbox relay be woken by use cases right after they commit (lower event latency). */
export class OutboxNotifier {
  constructor(private readonly worker?: PollingWorker) {}
  notify(): void {
    this.worker?.wake();
  }
}

export function fatal(logger: Logger | undefined, err: unknown): never {
  const message =
    err instanceof ConfigError || err instanceof DependencyUnavailableError ? err.message : `startup failed: ${(err as Error)?.stack ?? err}`;
  if (logger) logger.fatal({ err }, message);
  // Also plain on stderr, so a person starting the service by hand reads it at once.
  process.stderr.write(`error: ${redactText(message)}\n`);
  process.exit(err instanceof ConfigError ? 2 : 1);
}

export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: null, enableReadyCheck: true, connectTimeout: 3_000 });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new DependencyUnavailableError(
      'Redis',
      describeTarget(url),
      (err as Error).message,
      'Start it with `npm run infra:up` or point REDIS_URL at a running server',
    );
  }
  return redis;
}

export function kafkaSettings(config: ServiceConfig, clientId: string): KafkaSettings {
  return {
    brokers: config.KAFKA_BROKERS,
    clientId,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    partitions: config.KAFKA_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    createTopics: config.KAFKA_CREATE_TOPICS,
    security: config,
  };
}

/**
 * Starts a service: validated config, its own database (created and migrated), Kafka topics, the
 * outbox relay, an HTTP port for health and metrics, a TCP RPC server, Kafka consumers, and a
 * graceful shutdown in the reverse order. `main.js migrate` only migrates and exits.
 */
export async function runService<C extends ServiceConfig>(def: ServiceDefinition<C>): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig(def.config);
    const dbName = config.DATABASE_NAME;
    logger = createRootLogger(def.name, config.LOG_LEVEL);
    initMetrics(def.name);
    const dbOptions = { serverUrl: config.DATABASE_URL, database: dbName, migrations: def.migrations, poolSize: config.DATABASE_POOL_SIZE, applicationName: def.name };

    if (process.argv[2] === 'migrate') {
      await ensureDatabase(config.DATABASE_URL, dbName);
      const ds = await openDatabase({ ...dbOptions, migrate: false });
      await migrateWithLock(ds);
      logger.info({ database: dbName }, 'migrations applied');
      await ds.destroy();
      process.exit(0);
    }

    const ds = await openDatabase({ ...dbOptions, migrate: config.MIGRATE_ON_BOOT });
    const settings = kafkaSettings(config, `${def.name}-${process.pid}`);
    const kafka = createKafka(settings, logger);
    const admin = await connectAdmin(kafka, config.KAFKA_BROKERS, config);
    const redis = def.usesRedis ? await connectRedis((config as unknown as RedisServiceConfig).REDIS_URL, logger) : undefined;

    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const relay = new OutboxRelay(ds, producer, config.KAFKA_TOPIC_PREFIX, logger.child({ component: 'outbox-relay' }));
    const relayWorker = new PollingWorker('outbox-relay', () => relay.tick(), config.OUTBOX_POLL_INTERVAL_MS, logger);

    const app = await createApp(def, { config, ds, kafka, producer, redis, logger, relayWorker });
    const health = app.get(HealthRegistry);
    health.register({ name: 'database', check: () => ds.query('SELECT 1') });
    health.register({ name: 'schema', check: schemaReadinessCheck(ds) });
    health.register({ name: 'kafka', check: () => admin.describeCluster() });
    if (redis) health.register({ name: 'redis', check: () => redis.ping() });

    const specs = def.consumers?.(app) ?? [];
    await ensureTopics(admin, settings, [...ALL_TOPICS, REPLAY_RESULTS_TOPIC, ...specs.flatMap((s) => [deadLetterTopic(s.group), replayTopic(s.group)])]);

    app.connectMicroservice<MicroserviceOptions>({ strategy: authenticatedRpcServer(config, logger) });
    await app.startAllMicroservices();
    await app.listen(config.HTTP_PORT, config.HTTP_HOST);
    await waitForCurrentSchema(ds, (pending) => logger!.warn({ pending }, 'waiting for the migration Job: the database schema is behind the code'));

    const relays = config.OUTBOX_RELAY_ENABLED && def.publishesEvents !== false;
    if (relays) relayWorker.start();
    const consumers = specs.map(
      (s) =>
        new IdempotentConsumer(kafka, ds, producer, { group: s.group, handlers: s.handlers, batchHandlers: s.batchHandlers, afterCommit: s.afterCommit, topicPrefix: config.KAFKA_TOPIC_PREFIX, sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS }, logger!.child({ component: 'consumer', group: s.group })),
    );
    await Promise.all(consumers.map((c) => c.start()));
    logger.info({ http_port: config.HTTP_PORT, rpc_port: config.RPC_PORT, database: dbName }, `${def.name} started`);

    onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
      health.markShuttingDown();
      await Promise.all(consumers.map((c) => c.stop()));
      await app.close();
      await relayWorker.stop();
      if (relays) await relay.tick().catch(() => undefined);
      await producer.disconnect();
      await admin.disconnect();
      redis?.disconnect();
      await ds.destroy();
    });
  } catch (err) {
    fatal(logger, err);
  }
}

interface AppDeps<C> {
  config: C;
  ds: DataSource;
  kafka: Kafka;
  producer: Producer;
  redis: Redis | undefined;
  logger: Logger;
  relayWorker: PollingWorker;
}

async function createApp<C extends ServiceConfig>(def: ServiceDefinition<C>, deps: AppDeps<C>): Promise<INestApplication> {
  @Global()
  @Module({
    imports: [HealthModule],
    providers: [
      { provide: SERVICE_CONFIG, useValue: deps.config },
      { provide: def.config, useValue: deps.config },
      { provide: DataSource, useValue: deps.ds },
      { provide: KAFKA_PRODUCER, useValue: deps.producer },
      { provide: REDIS, useValue: deps.redis ?? null },
      { provide: ROOT_LOGGER, useValue: deps.logger },
      { provide: OutboxNotifier, useValue: new OutboxNotifier(deps.relayWorker) },
    ],
    exports: [SERVICE_CONFIG, def.config, DataSource, KAFKA_PRODUCER, REDIS, ROOT_LOGGER, OutboxNotifier, HealthModule],
  })
  class RuntimeModule {}

  const root: DynamicModule = { module: class ServiceRootModule {}, imports: [RuntimeModule, def.module] };
  return NestFactory.create(root, { logger: new NestPinoLogger(deps.logger), abortOnError: false });
}

/** SIGTERM/SIGINT run `close` once; if it takes longer than `timeoutMs` the process exits anyway. */
export function onShutdown(logger: Logger, timeoutMs: number, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    close()
      .then(() => {
        logger.info('stopped cleanly');
        process.exit(0);
      })
      .catch((err) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}
