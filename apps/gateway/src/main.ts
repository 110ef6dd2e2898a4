import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import { DataSource, ensureDatabase, migrateWithLock, openDatabase, schemaReadinessCheck } from '@payments/database';
import { loadConfig } from '@payments/config';
import {
  HealthRegistry,
  NestPinoLogger,
  createRootLogger,
  fatal,
  initMetrics,
  onShutdown,
  startMetricsServer,
} from '@payments/platform';
import { REDIS, REDIS_WITHOUT_REPLAY, connectRedis, connectRedisWithoutReplay, quitRedis } from '@payments/redis';
import { GatewayModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { anyAddress, createHttpAdapter, type GatewayHttpApp } from './http/http-server';
import { migrations } from './migrations';
import { buildOpenApiDocument } from './openapi/openapi';

const NAME = 'gateway';

async function main(): Promise<void> {
  let logger: ReturnType<typeof createRootLogger> | undefined;
  try {
    const config = loadConfig(GatewayConfig);
    const log = createRootLogger(NAME, config.LOG_LEVEL);
    logger = log;
    initMetrics(NAME);
    const dbOptions = {
      serverUrl: config.DATABASE_URL,
      database: config.DATABASE_NAME,
      migrations,
      poolSize: config.DATABASE_POOL_SIZE,
      applicationName: NAME,
    };

    if (process.argv[2] === 'migrate') {
      await ensureDatabase(config.DATABASE_URL, config.DATABASE_NAME);
      const ds = await openDatabase({ ...dbOptions, migrate: false });
      await migrateWithLock(ds);
      logger.info({ database: config.DATABASE_NAME }, 'migrations applied');
      await ds.destroy();
      process.exit(0);
    }

    const ds = await openDatabase({ ...dbOptions, migrate: config.MIGRATE_ON_BOOT });
    const redis = await connectRedis(config.REDIS_URL, logger);
    // The rate limiter's: a token-bucket call the limiter gave up on must not take tokens later.
    const limiterRedis = await connectRedisWithoutReplay(redis, logger);

    @Global()
    @Module({
      providers: [
        { provide: GatewayConfig, useValue: config },
        { provide: DataSource, useValue: ds },
        { provide: REDIS, useValue: redis },
        { provide: REDIS_WITHOUT_REPLAY, useValue: limiterRedis },
      ],
      exports: [GatewayConfig, DataSource, REDIS, REDIS_WITHOUT_REPLAY],
    })
    class GatewayRuntimeModule {}

    @Module({ imports: [GatewayRuntimeModule, GatewayModule] })
    class GatewayRootModule {}

    const app = await NestFactory.create<GatewayHttpApp>(
      GatewayRootModule,
      createHttpAdapter(config.trustedProxies()),
      {
        logger: new NestPinoLogger(logger),
        bodyParser: false,
        abortOnError: false,
      },
    );
    app.useGlobalFilters(new AllExceptionsFilter());

    // OpenAPI 3 generated from the code: Swagger UI at /docs, the document at /docs/openapi.json.
    // Built on the first request for it, not at boot: an idle gateway does not hold it.
    SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
      jsonDocumentUrl: 'docs/openapi.json',
      yamlDocumentUrl: 'docs/openapi.yaml',
    });

    const health = app.get(HealthRegistry);
    health.register({ name: 'database', check: () => ds.query('SELECT 1') });
    health.register({ name: 'schema', check: schemaReadinessCheck(ds) });
    health.register({ name: 'redis', check: () => redis.ping() });

    const metricsServer = await startMetricsServer(config.HTTP_HOST, config.METRICS_PORT);
    await app.listen(config.GATEWAY_PORT, anyAddress());
    logger.info({ port: config.GATEWAY_PORT, metrics_port: config.METRICS_PORT }, 'gateway started');

    onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
      const started = Date.now();
      health.markShuttingDown();
      await app.close();
      metricsServer.close();
      limiterRedis.disconnect();
      // Idempotent answers sent while Redis did not answer are still queued on this connection:
      // they are kept if Redis answers before the shutdown deadline (1 s kept for what follows).
      await quitRedis(redis, config.SHUTDOWN_TIMEOUT_MS - (Date.now() - started) - 1_000, log);
      await ds.destroy();
    });
  } catch (err) {
    fatal(logger, err);
  }
}

void main();
