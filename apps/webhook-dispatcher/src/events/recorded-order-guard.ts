import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '@payments/platform';
import { EventsStore, RECORDED_ORDER_FIX_SQL } from './events-store';

/**
 * `recorded_xid` only means something in the cluster that assigned it: after a dump/restore or switchover
 * `order=recorded` hides copied events until the counter catches up. Logged as an error at boot, not fixed here: the
 * fix rewrites a hot table, so an operator picks the moment (docs/operations.md, "Moving the webhook database").
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
