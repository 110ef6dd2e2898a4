import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { Logger } from 'pino';
import { loadConfig, type RedisServiceConfig, type ServiceConfig } from '@payments/config';
import { openDatabase, schemaReadinessCheck, waitForCurrentSchema } from '@payments/database';
import { ServiceMessaging, type ConsumerSpec } from '@payments/messaging';
import {
  HealthRegistry,
  authenticatedRpcServer,
  createRootLogger,
  fatal,
  initMetrics,
  onShutdown,
} from '@payments/platform';
import { connectRedis } from '@payments/redis';
import { createServiceApp } from './runtime-module';

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
    const dbOptions = {
      serverUrl: config.DATABASE_URL,
      database: dbName,
      migrations: def.migrations,
      poolSize: config.DATABASE_POOL_SIZE,
      applicationName: def.name,
    };

    if (process.argv[2] === 'migrate') {
      const ds = await openDatabase({ ...dbOptions, migrate: true });
      logger.info({ database: dbName }, 'migrations applied');
      await ds.destroy();
      process.exit(0);
    }

    const ds = await openDatabase({ ...dbOptions, migrate: config.MIGRATE_ON_BOOT });
    const messaging = await ServiceMessaging.connect(def.name, config, ds, logger, def.publishesEvents !== false);
    const redis = def.usesRedis
      ? await connectRedis((config as unknown as RedisServiceConfig).REDIS_URL, logger)
      : undefined;

    const app = await createServiceApp(def.module, {
      config,
      configClass: def.config,
      ds,
      producer: messaging.producer,
      redis,
      logger,
      notifier: messaging.notifier,
    });
    const health = app.get(HealthRegistry);
    health.register({ name: 'database', check: () => ds.query('SELECT 1') });
    health.register({ name: 'schema', check: schemaReadinessCheck(ds) });
    health.register({ name: 'kafka', check: () => messaging.admin.describeCluster() });
    if (redis) health.register({ name: 'redis', check: () => redis.ping() });

    const specs = def.consumers?.(app) ?? [];
    await messaging.ensureTopics(specs);

    const rpcServer = authenticatedRpcServer(config, logger);
    app.connectMicroservice<MicroserviceOptions>({ strategy: rpcServer });
    await app.startAllMicroservices();
    await app.listen(config.HTTP_PORT, config.HTTP_HOST);
    await waitForCurrentSchema(ds, (pending) =>
      logger!.warn({ pending }, 'waiting for the migration Job: the database schema is behind the code'),
    );

    await messaging.start(specs);
    logger.info({ http_port: config.HTTP_PORT, rpc_port: config.RPC_PORT, database: dbName }, `${def.name} started`);

    onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
      health.markShuttingDown();
      // The RPC server closes first: new connections are refused, callers get goaway, and running requests finish with
      // every dependency still up; consumers leave their groups meanwhile. allSettled: a consumer failing to stop must
      // not cut the RPC drain short.
      for (const r of await Promise.allSettled([rpcServer.close(), messaging.stopConsuming()])) {
        if (r.status === 'rejected')
          logger!.error({ err: r.reason as Error }, 'error while stopping RPC or consumers; shutting down the rest');
      }
      await app.close();
      await messaging.close();
      redis?.disconnect();
      await ds.destroy();
    });
  } catch (err) {
    fatal(logger, err);
  }
}
