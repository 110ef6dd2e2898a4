import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '@payments/platform';
import { EventsStore, RECORDED_ORDER_FIX_SQL } from './events-store';

/**
 * `webhook_events.recorded_xid` holds transaction ids, which only mean something in the cluster
 * that assigned them. After a dump/restore or a logical-replication switchover the new cluster's
 * counter is usually lower, and `GET /v1/events?order=recorded` hides every copied event (and
 * orders new ones before them) until the counter catches up. Checked once at boot, in the
 * background; found, it is logged as an error naming the fix.
 *
 * It does not fix the rows itself: the fix rewrites every copied row of a hot table, and moves
 * them in the recorded order that running `ops webhooks listen` followers page through; an
 * operator runs it at a chosen moment (docs/operations.md, "Moving the webhook database").
 */
@Injectable()
export class RecordedOrderGuard implements OnApplicationBootstrap {
  constructor(
    private readonly events: EventsStore,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    void this.check();
  }

  /**
   * False when copied rows are ahead of this cluster (the fix is logged); true otherwise, or when
   * the check itself failed (logged as a warning).
   */
  async check(): Promise<boolean> {
    try {
      const ahead = await this.events.recordedOrderAhead();
      if (!ahead) return true;
      this.logger.error(
        { newest_recorded_xid: ahead.newest, next_xid: ahead.next },
        "webhook_events.recorded_xid is ahead of this database cluster's transaction ids " +
          '(restored or switched over from another cluster?): ' +
          'GET /v1/events?order=recorded hides those events until the counter catches up. Fix: ' +
          `${RECORDED_ORDER_FIX_SQL}; (see docs/operations.md, 'Moving the webhook database')`,
      );
      return false;
    } catch (err) {
      this.logger.warn(
        { err: (err as Error).message },
        'could not check webhook_events.recorded_xid against this cluster',
      );
      return true;
    }
  }
}
