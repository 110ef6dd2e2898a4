import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import { PollingWorker, ROOT_LOGGER } from '@payments/platform';
import { TransactionCopyStore } from './transaction-copy-store';

/** Changes folded per statement; the worker goes again at once while there are more. */
const BATCH = 5_000;
/** How often it looks when there is nothing to fold: readers add the changes left, so this is only a size bound. */
const INTERVAL_MS = 2_000;

/**
 * Folds the daily totals' changes (written by the copies' triggers, one row per statement) into
 * the totals, so the overview's read stays a few rows per day.
 */
@Injectable()
export class DailyTotalsCompactor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly ds: DataSource,
    private readonly copies: TransactionCopyStore,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.worker = new PollingWorker(
      'daily-totals-compactor',
      async () => (await this.copies.compactDailyTotals(this.ds, BATCH)) === BATCH,
      INTERVAL_MS,
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.stop();
  }
}
