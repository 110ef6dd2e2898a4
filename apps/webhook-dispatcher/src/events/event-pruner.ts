import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { queryRows } from '@payments/database';
import { ROOT_LOGGER } from '@payments/platform';
import { WebhookDispatcherConfig } from '../config/webhook.config';
import { parseDuration } from '../delivery/disable-rule';

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
        const ids = await queryRows<{ id: string }>(
          m,
          `SELECT e.id FROM webhook_events e
            WHERE e.created_at < now() - make_interval(secs => $1)
              AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
            ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [this.retentionMs / 1000, BATCH],
        );
        if (ids.length === 0) return { deleted: 0, more: false };
        // Lock the deliveries and look again: a resend may have made one pending since the scan.
        const locked = await queryRows<{ event_id: string; status: string }>(m, 'SELECT event_id, status FROM deliveries WHERE event_id = ANY ($1::text[]) FOR UPDATE', [ids.map((r) => r.id)]);
        const busy = new Set(locked.filter((d) => d.status === 'pending').map((d) => d.event_id));
        const doomed = ids.map((r) => r.id).filter((id) => !busy.has(id));
        await m.query('DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_id = ANY ($1::text[]))', [doomed]);
        await m.query('DELETE FROM deliveries WHERE event_id = ANY ($1::text[])', [doomed]);
        await m.query('DELETE FROM webhook_events WHERE id = ANY ($1::text[])', [doomed]);
        return { deleted: doomed.length, more: ids.length === BATCH && doomed.length > 0 };
      });
      total += batch.deleted;
      if (!batch.more) break;
    }
    if (total > 0) this.logger.info({ deleted: total }, 'expired events pruned');
    return total;
  }
}
