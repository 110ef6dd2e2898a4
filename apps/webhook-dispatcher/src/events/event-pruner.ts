import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import { ROOT_LOGGER } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { DeliveryAdminStore } from '../delivery/delivery-admin-store';
import { parseDuration } from '../delivery/disable-rule';
import { EventsStore } from './events-store';

const BATCH = 1_000;

/**
 * Deletes events older than EVENT_RETENTION with their deliveries and attempts — but never an
 * event one of whose deliveries is still pending (a first attempt or a retry to come): that one
 * waits until its deliveries settle. Safe with several dispatchers: batches skip locked rows.
 */
@Injectable()
export class EventPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;
  private readonly retentionMs: number;

  constructor(
    private readonly ds: DataSource,
    private readonly events: EventsStore,
    private readonly deliveries: DeliveryAdminStore,
    @Inject(WebhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.retentionMs = parseDuration(config.EVENT_RETENTION);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.config.EVENT_PRUNE_INTERVAL_MS);
    this.timer.unref();
    void this.runOnce();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass; a failure (database down) is logged and the next interval tries again. */
  runOnce(): Promise<number> {
    this.running ??= this.prune()
      .catch((err: Error) => {
        this.logger.warn({ err: err.message }, 'event pruning failed');
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Deletes expired events batch by batch; returns how many went. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.ds.transaction(async (m) => {
        const ids = await this.events.prunable(m, this.retentionMs / 1000, BATCH);
        if (ids.length === 0) return { deleted: 0, more: false };
        // Lock the deliveries and look again: a resend may have made one pending since the scan.
        const busy = await this.deliveries.lockPendingEvents(m, ids);
        const doomed = ids.filter((id) => !busy.has(id));
        await this.deliveries.deleteOfEvents(m, doomed);
        await this.events.delete(m, doomed);
        return { deleted: doomed.length, more: ids.length === BATCH && doomed.length > 0 };
      });
      total += batch.deleted;
      if (!batch.more) break;
    }
    if (total > 0) this.logger.info({ deleted: total }, 'expired events pruned');
    return total;
  }
}
