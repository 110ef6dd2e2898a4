import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { SETTLEMENT_QUEUE, prefixed, type SettlementJobData } from '@payments/contracts';
import { REDIS } from '@payments/redis';
import { ROOT_LOGGER } from '@payments/platform';
import { SplitLedgerConfig } from '../config/split-ledger.config';
import { RunSettlementUseCase } from './usecases/run-settlement.usecase';

/** Id of the repeatable job; renaming it leaves the old schedule firing next to the new one. */
export const SETTLEMENT_SCHEDULER_ID = 'weekly-settlement';

/**
 * The weekly settlement as a BullMQ repeatable job (SETTLEMENT_CRON, UTC). Every replica upserts
 * the same scheduler, so a changed cron replaces the old one; BullMQ gives each occurrence to one
 * worker, and the run is safe to repeat. Closed on shutdown after the job in progress ends.
 */
@Injectable()
export class SettlementScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private queue: Queue<SettlementJobData> | undefined;
  private worker: Worker<SettlementJobData> | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SplitLedgerConfig) private readonly config: SplitLedgerConfig,
    private readonly run: RunSettlementUseCase,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'settlement-scheduler' });
  }

  /** The queue name in this deployment's namespace (KAFKA_TOPIC_PREFIX), so deployments sharing a Redis stay apart. */
  get queueName(): string {
    return prefixed(this.config.KAFKA_TOPIC_PREFIX, SETTLEMENT_QUEUE);
  }

  async onApplicationBootstrap(): Promise<void> {
    // BullMQ opens its own connections (a worker blocks one); same server and options as the service's.
    const connection = { ...this.redis.options };
    this.queue = new Queue<SettlementJobData>(this.queueName, { connection });
    await this.queue.upsertJobScheduler(
      SETTLEMENT_SCHEDULER_ID,
      { pattern: this.config.SETTLEMENT_CRON, tz: 'UTC' },
      {
        name: 'settlement.run',
        data: { trigger: 'schedule' },
        opts: { removeOnComplete: 50, removeOnFail: 200, attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
      },
    );
    this.worker = new Worker<SettlementJobData>(this.queueName, (job) => this.process(job), {
      connection,
      concurrency: 1,
    });
    this.worker.on('failed', (job, err) =>
      this.logger.error({ err, job_id: job?.id, attempts: job?.attemptsMade }, 'settlement job failed'),
    );
    this.worker.on('error', (err) => this.logger.warn({ err: err.message }, 'settlement worker error'));
    this.logger.info({ queue: this.queueName, cron: this.config.SETTLEMENT_CRON }, 'weekly settlement scheduled');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
  }

  private async process(job: Job<SettlementJobData>): Promise<{ invoices: number; entries: number }> {
    const result = await this.run.execute(`job_${job.id}`);
    return { invoices: result.invoices.length, entries: result.entries_invoiced };
  }
}
