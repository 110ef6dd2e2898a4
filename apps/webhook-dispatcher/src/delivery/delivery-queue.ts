import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import IORedis from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import { Queues } from '@payments/contracts';
import { PollingWorker, ROOT_LOGGER } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { CallbackGate, type Release } from './callback-gate';
import { DeliverAttemptUseCase, type AttemptOutcome, type DeliveryJob } from './usecases/deliver-attempt.usecase';
import { DeliveryReconciler } from './delivery-reconciler';
import { DeliveryStore } from './delivery-store';
import { FirstAttempts } from './first-attempts';

const ENQUEUE_BATCH = 200;
/** The reconciler reads overdue rows a page at a time, and at most this many pages per pass. */
export const RECONCILE_PAGE = 1_000;
export const RECONCILE_PAGES_PER_PASS = 10;

/** One job id per hand-over: (delivery, attempt, how many times the row was queued). */
export const deliveryJobId = (r: { id: string; attempts: number; enqueue_count: number }) =>
  `dlv-${r.id}-${r.attempts}-${r.enqueue_count}`;

/**
 * Deliveries go through a BullMQ queue, one job per attempt, except most first attempts (FirstAttempts). The row stays
 * the source of truth: the enqueuer queues pending rows without a job and the reconciler hands back rows whose job was
 * lost, so no delivery depends on Redis alone.
 */
@Injectable()
export class DeliveryQueue implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private queue!: Queue<DeliveryJob>;
  private worker!: Worker<DeliveryJob>;
  private readonly enqueuer: PollingWorker;
  private readonly reconciler: PollingWorker;
  private readonly lostJobs: DeliveryReconciler;
  private readonly connections: IORedis[] = [];

  constructor(
    private readonly ds: DataSource,
    private readonly store: DeliveryStore,
    private readonly attempt: DeliverAttemptUseCase,
    private readonly gate: CallbackGate,
    private readonly first: FirstAttempts,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.enqueuer = new PollingWorker(
      'delivery-enqueuer',
      () => this.enqueueDue(),
      config.WEBHOOK_ENQUEUE_INTERVAL_MS,
      logger,
    );
    this.reconciler = new PollingWorker(
      'delivery-reconciler',
      () => this.reconcile(),
      config.WEBHOOK_RECONCILE_INTERVAL_MS,
      logger,
    );
    this.lostJobs = new DeliveryReconciler(
      store,
      (row) => this.queue.getJobState(deliveryJobId(row)),
      (id) => this.first.holds(id),
      {
        graceSeconds: config.WEBHOOK_RECONCILE_GRACE_MS / 1000,
        pageSize: RECONCILE_PAGE,
        pagesPerPass: RECONCILE_PAGES_PER_PASS,
      },
    );
    first.wakeQueue = () => this.enqueuer.wake();
  }

  private connection(): IORedis {
    const c = new IORedis(this.config.REDIS_URL, { maxRetriesPerRequest: null, enableReadyCheck: true });
    c.on('error', (err) => this.logger.warn({ err: err.message }, 'queue redis connection error'));
    this.connections.push(c);
    return c;
  }

  /** Started only after the app is up, so the worker never runs before its dependencies. */
  onApplicationBootstrap(): void {
    const prefix = this.config.KAFKA_TOPIC_PREFIX ? `bull:${this.config.KAFKA_TOPIC_PREFIX}` : 'bull';
    this.queue = new Queue<DeliveryJob>(Queues.WebhookDeliveries, { connection: this.connection(), prefix });
    this.worker = new Worker<DeliveryJob>(Queues.WebhookDeliveries, (job, token) => this.process(job, token), {
      connection: this.connection(),
      prefix,
      concurrency: this.config.WEBHOOK_WORKER_CONCURRENCY,
      lockDuration: this.config.WEBHOOK_TIMEOUT_MS + 15_000,
    });
    this.worker.on('failed', (job, err) => this.logger.error({ err, job_id: job?.id }, 'delivery job failed'));
    this.enqueuer.start();
    this.reconciler.start();
  }

  /** Graceful: stop handing out work, let attempts in flight finish and record their outcome. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.enqueuer.stop();
    await this.reconciler.stop();
    await this.worker?.close();
    await this.queue?.close();
    for (const c of this.connections) c.disconnect();
  }

  wake(): void {
    this.enqueuer.wake();
  }

  private async process(job: Job<DeliveryJob>, token?: string): Promise<string> {
    const { callbackId } = job.data;
    const slot = callbackId === undefined ? Promise.resolve<Release>(() => undefined) : this.gate.acquire(callbackId);
    // Full here with others waiting: back off briefly and leave the worker slot to other callbacks.
    if (slot === null) return this.later(job, token, 50, 150);
    const release = await slot;
    let outcome: AttemptOutcome;
    try {
      outcome = await this.attempt.execute(job.data);
    } finally {
      release();
    }
    // The database still counts another replica's attempts (or an older job) at the limit.
    if (outcome === 'busy') return this.later(job, token, 250, 500);
    if (outcome === 'retry' || outcome === 'failed') this.enqueuer.wake();
    return outcome;
  }

  /** Runs the job again in `min`…`min + spread` ms. */
  private async later(job: Job<DeliveryJob>, token: string | undefined, min: number, spread: number): Promise<never> {
    await job.moveToDelayed(Date.now() + min + Math.floor(Math.random() * spread), token);
    throw new DelayedError();
  }

  private async enqueueDue(): Promise<boolean> {
    const count = await this.ds.transaction(async (m) => {
      const rows = await this.store.claimForEnqueue(m, ENQUEUE_BATCH);
      if (rows.length === 0) return 0;
      const now = Date.now();
      await this.queue.addBulk(
        rows.map((r) => ({
          name: 'deliver',
          data: { deliveryId: r.id, attempt: r.attempts, callbackId: Number(r.callback_id) },
          opts: {
            jobId: deliveryJobId(r),
            delay: Math.max(0, (r.next_attempt_at?.getTime() ?? now) - now),
            removeOnComplete: { age: 3600, count: 5000 },
            removeOnFail: { age: 24 * 3600 },
          },
        })),
      );
      return rows.length;
    });
    return count === ENQUEUE_BATCH;
  }

  /**
   * Hands back to the enqueuer the deliveries whose job is gone, leaving alone rows a live worker holds, rows waiting
   * here for their first attempt and rows whose job still waits or runs. See DeliveryReconciler.
   */
  private async reconcile(): Promise<boolean> {
    const released = await this.lostJobs.pass();
    if (released > 0) {
      this.logger.warn({ released }, 'deliveries without a live job were queued again');
      this.enqueuer.wake();
    }
    return false;
  }
}
