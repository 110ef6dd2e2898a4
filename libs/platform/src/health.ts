import { Controller, Get, Global, Header, Injectable, Module, Res } from '@nestjs/common';
// Types only: the schema values load TypeBox, which only the gateway (whose document they are in) loads.
import type { HealthLive, HealthReady, Static } from '@payments/contracts/schemas';
import { ApiResponds } from './api-response';
import { metricsRegistry } from './metrics';

export interface HealthCheck {
  name: string;
  check: () => Promise<unknown>;
}

const CHECK_TIMEOUT_MS = 2_000;

/** Readiness checks registered by the modules that own a dependency (DB, Redis, Kafka…). */
@Injectable()
export class HealthRegistry {
  private readonly checks: HealthCheck[] = [];
  private shuttingDown = false;

  register(check: HealthCheck): void {
    this.checks.push(check);
  }

  /** Once shutdown starts, readiness fails so load balancers stop sending traffic. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async run(): Promise<{ ok: boolean; checks: Record<string, string> }> {
    const results: Record<string, string> = {};
    if (this.shuttingDown) results.process = 'shutting down';
    await Promise.all(
      this.checks.map(async ({ name, check }) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
            }),
          ]);
          results[name] = 'up';
        } catch (err) {
          results[name] = `down: ${(err as Error).message}`;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { ok: Object.values(results).every((v) => v === 'up'), checks: results };
  }
}

@Controller()
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Get('health/live')
  live(): Static<typeof HealthLive> {
    return { status: 'ok' };
  }

  @Get('health/ready')
  // Only the status is set on the response (both Express and Fastify name it `status`): the
  // gateway runs on Fastify, the services' internal ports on Express.
  async ready(@Res({ passthrough: true }) res: { status(code: number): unknown }): Promise<Static<typeof HealthReady>> {
    const { ok, checks } = await this.registry.run();
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}

/**
 * Declares the health answers for the gateway's OpenAPI document (the services' internal ports
 * have none). The gateway passes the schemas in, so no other process loads them.
 */
export function documentHealthAnswers(schemas: { live: typeof HealthLive; ready: typeof HealthReady }): void {
  const controller = HealthController.prototype;
  ApiResponds(200, 'The process is up', schemas.live)(controller, 'live', { value: controller.live });
  ApiResponds(200, 'Dependencies reachable (503 otherwise)', schemas.ready)(controller, 'ready', {
    value: controller.ready,
  });
}

/** Prometheus metrics on a service's internal HTTP port. */
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics() {
    return metricsRegistry.metrics();
  }
}

/** Health and metrics: for services, whose HTTP port is internal. */
@Global()
@Module({ controllers: [HealthController, MetricsController], providers: [HealthRegistry], exports: [HealthRegistry] })
export class HealthModule {}

/** Health only: for the gateway's public port; its metrics are served by startMetricsServer. */
@Global()
@Module({ controllers: [HealthController], providers: [HealthRegistry], exports: [HealthRegistry] })
export class PublicHealthModule {}
