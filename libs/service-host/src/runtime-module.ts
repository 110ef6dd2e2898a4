import { Global, Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Redis } from 'ioredis';
import type { Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import type { ServiceConfig } from '@payments/config';
import { KAFKA_PRODUCER, OutboxNotifier } from '@payments/messaging';
import { HealthModule, NestPinoLogger, ROOT_LOGGER } from '@payments/platform';
import { REDIS } from '@payments/redis';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

export interface RuntimeDeps<C> {
  config: C;
  configClass: new () => C;
  ds: DataSource;
  producer: Producer;
  redis: Redis | undefined;
  logger: Logger;
  notifier: OutboxNotifier;
}

/** The Nest app of a service: its module plus a global module providing the process's connections. */
export async function createServiceApp<C extends ServiceConfig>(
  module: Type<unknown>,
  deps: RuntimeDeps<C>,
): Promise<INestApplication> {
  @Global()
  @Module({
    imports: [HealthModule],
    providers: [
      { provide: SERVICE_CONFIG, useValue: deps.config },
      { provide: deps.configClass, useValue: deps.config },
      { provide: DataSource, useValue: deps.ds },
      { provide: KAFKA_PRODUCER, useValue: deps.producer },
      { provide: REDIS, useValue: deps.redis ?? null },
      { provide: ROOT_LOGGER, useValue: deps.logger },
      { provide: OutboxNotifier, useValue: deps.notifier },
    ],
    exports: [
      SERVICE_CONFIG,
      deps.configClass,
      DataSource,
      KAFKA_PRODUCER,
      REDIS,
      ROOT_LOGGER,
      OutboxNotifier,
      HealthModule,
    ],
  })
  class RuntimeModule {}

  const root: DynamicModule = { module: class ServiceRootModule {}, imports: [RuntimeModule, module] };
  return NestFactory.create(root, { logger: new NestPinoLogger(deps.logger), abortOnError: false });
}
