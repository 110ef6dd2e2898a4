import { Injectable } from '@nestjs/common';
import { ErrorCodes, type AdminRecoverDeliveriesBody, type AdminRecoverDeliveriesResult } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { DomainException } from '@payments/platform';
import { DataSource } from 'typeorm';
import { DeliveryQueue } from '../delivery/delivery-queue';
import { DeliveryStore } from '../delivery/delivery-store';

export const ADMIN_RECOVER_MAX_PAGE = 1_000;

/**
 * Operator recovery of one business and mode (all its active callbacks): failed and skipped
 * deliveries since a time, page by page so a long outage does not make one huge statement, and a
 * dry run that only lists them.
 */
@Injectable()
export class AdminRecoverUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: DeliveryStore,
    private readonly queue: DeliveryQueue,
  ) {}

  async execute(body: AdminRecoverDeliveriesBody): Promise<AdminRecoverDeliveriesResult> {
    const limit = Math.min(Math.max(1, Math.trunc(body.limit)), ADMIN_RECOVER_MAX_PAGE);
    if (body.after !== null && !/^\d{1,18}$/.test(body.after)) throw new DomainException(ErrorCodes.ValidationError, 'after must be a cursor from a previous page');
    const scope = { businessId: body.business_id, mode: body.mode };
    let total: number | null = null;
    if (body.after === null) {
      [{ total }] = await queryRows<{ total: number }>(
        this.ds,
        `SELECT count(*)::int AS total FROM deliveries d JOIN callbacks c ON c.id = d.callback_id
          WHERE c.business_id = $1 AND c.mode = $2 AND c.is_active AND c.deleted_at IS NULL
            AND d.status IN ('failed', 'skipped') AND d.created_at >= $3`,
        [body.business_id, body.mode, body.since],
      );
    }
    const rows = await this.store.recover(scope, body.since, { dryRun: body.dry_run, after: body.after, limit });
    if (!body.dry_run && rows.length > 0) this.queue.wake();
    return {
      deliveries: rows.map(({ id: _id, ...view }) => view),
      next: rows.length === limit ? rows[rows.length - 1].id : null,
      total,
    };
  }
}
