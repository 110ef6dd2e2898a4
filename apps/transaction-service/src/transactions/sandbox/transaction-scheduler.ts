import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { PollingWorker, ROOT_LOGGER } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { TransactionServiceConfig } from '../../config/transaction.config';
import { REFUND_SELECT, RefundStore, type RefundRow } from '../../refunds/refund-store';
import { TransactionStore, type TransactionRow } from '../transaction-store';

const BATCH = 100;

/**
 * Time-driven transitions, kept in the database (not in timers) so a restart loses none:
 * - the test-mode sandbox settles processing payments whose settle_at has passed;
 * - pending payments past expires_at fail as expired.
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so replicas share the work without doing it twice.
 */
@Injectable()
export class TransactionScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    private readonly outbox: OutboxNotifier,
    private readonly refunds: RefundStore,
    @Inject(TransactionServiceConfig) config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker('transaction-scheduler', () => this.tick(), config.SCHEDULER_POLL_INTERVAL_MS, logger);
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }

  async tick(): Promise<boolean> {
    // Nothing is due on most ticks: one indexed look costs one statement instead of three transactions.
    const [due]: { settle: boolean; expire: boolean; refunds: boolean }[] = await this.ds.query(
      `SELECT EXISTS (SELECT 1 FROM transactions WHERE status = 'processing' AND mode = 'test' AND settle_at <= now()) AS settle,
              EXISTS (SELECT 1 FROM transactions WHERE status = 'pending' AND expires_at <= now()) AS expire,
              EXISTS (SELECT 1 FROM refunds WHERE status = 'pending' AND mode = 'test' AND settle_at <= now()) AS refunds`,
    );
    const settled = due.settle ? await this.settleSandbox() : 0;
    const expired = due.expire ? await this.expirePending() : 0;
    const refunds = due.refunds ? await this.settleRefunds() : 0;
    if (settled + expired + refunds > 0) this.outbox.notify();
    return settled === BATCH || expired === BATCH || refunds === BATCH;
  }

  private settleSandbox(): Promise<number> {
    return this.claim(
      `SELECT * FROM transactions WHERE status = 'processing' AND mode = 'test' AND settle_at <= now()
        ORDER BY settle_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      (m, row) =>
        row.requested_response === 'failed'
          ? this.store.changeStatus(m, row, 'failed', 'Payment declined by the customer', null, { settleAt: null })
          : this.store.changeStatus(m, row, 'success', 'Payment successful', null, { settleAt: null }),
    );
  }

  private expirePending(): Promise<number> {
    return this.claim(
      `SELECT * FROM transactions WHERE status = 'pending' AND expires_at <= now()
        ORDER BY expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      (m, row) => this.store.changeStatus(m, row, 'failed', 'Transaction expired before payment', null),
    );
  }

  /** Test-mode refunds succeed once their settle_at passes. */
  private settleRefunds(): Promise<number> {
    return this.ds.transaction(async (m) => {
      const rows: RefundRow[] = await m.query(
        `${REFUND_SELECT} WHERE r.status = 'pending' AND r.mode = 'test' AND r.settle_at <= now()
          ORDER BY r.settle_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED`,
      );
      for (const row of rows) await this.refunds.changeStatus(m, row, 'success', 'Refund completed', null);
      return rows.length;
    });
  }

  private claim(sql: string, apply: (m: EntityManager, row: TransactionRow) => Promise<unknown>): Promise<number> {
    return this.ds.transaction(async (m) => {
      const rows: TransactionRow[] = await m.query(sql);
      for (const row of rows) await apply(m, row);
      return rows.length;
    });
  }
}
