import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, type TransactionManager } from '@payments/database';
import { PollingWorker, ROOT_LOGGER, type TickResult } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { TransactionServiceConfig } from '../../config/transaction.config';
import { RefundStore } from '../../refunds/refund-store';
import { TransactionQueries } from '../transaction-queries';
import { TransactionStore } from '../transaction-store';

const BATCH = 100;

/**
 * Sandbox settlement and expiry, driven by times kept in the database so a restart loses none; rows
 * are claimed with SKIP LOCKED, so replicas share the work. It sleeps until the earliest is due
 * (within SCHEDULER_POLL_INTERVAL_MS..SCHEDULER_IDLE_MAX_MS) so an idle service does not poll.
 */
@Injectable()
export class TransactionScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    private readonly queries: TransactionQueries,
    private readonly outbox: OutboxNotifier,
    private readonly refunds: RefundStore,
    @Inject(TransactionServiceConfig) config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker(
      'transaction-scheduler',
      () => this.tick(),
      config.SCHEDULER_POLL_INTERVAL_MS,
      logger,
      config.SCHEDULER_IDLE_MAX_MS,
    );
    outbox.onNotify(() => this.worker.hurry());
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  /** True when a batch was full (go again at once); else when the next known work is due (see PollingWorker). */
  async tick(): Promise<TickResult> {
    // Each store's indexed looks, asked at the same time: when is the earliest of each due.
    const [due, refundsDue] = await Promise.all([
      this.queries.due(this.ds),
      this.refunds.sandboxSettlementDueIn(this.ds),
    ]);
    const now = (dueIn: number | null) => dueIn !== null && dueIn <= 0;
    const settled = now(due.settle) ? await this.settleSandbox() : 0;
    const expired = now(due.expire) ? await this.expirePending() : 0;
    const refunds = now(refundsDue) ? await this.settleRefunds() : 0;
    if (settled === BATCH || expired === BATCH || refunds === BATCH) return true;
    // What was due is done (or another replica holds it): look again after the interval. Otherwise
    // sleep until the earliest that is not due yet.
    if ([due.settle, due.expire, refundsDue].some(now)) return false;
    return Math.min(...[due.settle, due.expire, refundsDue].map((dueIn) => dueIn ?? Infinity));
  }

  private settleSandbox(): Promise<number> {
    return this.claimAll(
      (m) => this.queries.claimDueSandbox(m, BATCH),
      (m, rows) =>
        this.store.changeStatuses(
          m,
          rows.map((row) =>
            row.requested_response === 'failed'
              ? { row, to: 'failed', message: 'Payment declined by the customer', settleAt: null }
              : { row, to: 'success', message: 'Payment successful', settleAt: null },
          ),
          null,
        ),
    );
  }

  private expirePending(): Promise<number> {
    return this.claimAll(
      (m) => this.queries.claimExpired(m, BATCH),
      (m, rows) =>
        this.store.changeStatuses(
          m,
          rows.map((row) => ({ row, to: 'failed', message: 'Transaction expired before payment' })),
          null,
        ),
    );
  }

  /** Test-mode refunds succeed once their settle_at passes. */
  private settleRefunds(): Promise<number> {
    return this.claim(
      (m) => this.refunds.claimDueSandbox(m, BATCH),
      (m, row) => this.refunds.changeStatus(m, row, 'success', 'Refund completed', null),
    );
  }

  private claim<R>(
    take: (m: TransactionManager) => Promise<R[]>,
    apply: (m: TransactionManager, row: R) => Promise<unknown>,
  ): Promise<number> {
    return this.claimAll(take, async (m, rows) => {
      for (const row of rows) await apply(m, row);
    });
  }

  /**
   * Claims what is due and applies it to all the claimed rows at once, in one transaction; the relay is woken once it
   * committed (before the next step, which may fail).
   */
  private async claimAll<R>(
    take: (m: TransactionManager) => Promise<R[]>,
    apply: (m: TransactionManager, rows: R[]) => Promise<unknown>,
  ): Promise<number> {
    const claimed = await this.ds.transaction(async (m) => {
      const rows = await take(m);
      if (rows.length > 0) await apply(m, rows);
      return rows.length;
    });
    if (claimed > 0) this.outbox.notify();
    return claimed;
  }
}
