import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DataSource } from '@payments/database';
import { REDIS, REDIS_WITHOUT_REPLAY } from '@payments/redis';
import { GatewayModule } from '../app.module';
import { GatewayConfig } from '../config/gateway.config';
import { buildOpenApiDocument } from './openapi';

/** Stand-ins for the runtime providers: preview mode reads decorators and instantiates nothing. */
@Global()
@Module({
  providers: [
    { provide: GatewayConfig, useValue: new GatewayConfig() },
    { provide: DataSource, useValue: {} },
    { provide: REDIS, useValue: {} },
    { provide: REDIS_WITHOUT_REPLAY, useValue: {} },
  ],
  exports: [GatewayConfig, DataSource, REDIS, REDIS_WITHOUT_REPLAY],
})
class PreviewRuntimeModule {}

@Module({ imports: [PreviewRuntimeModule, GatewayModule] })
class PreviewRootModule {}

/** The OpenAPI document without databases or network: what `npm run openapi` writes. */
export async function previewOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(PreviewRootModule, { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
