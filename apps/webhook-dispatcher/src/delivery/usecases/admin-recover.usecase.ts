import { Injectable } from '@nestjs/common';
import { ErrorCodes, type AdminRecoverDeliveriesBody, type AdminRecoverDeliveriesResult } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { DeliveryQueue } from '../delivery-queue';
import { DeliveryAdminStore } from '../delivery-admin-store';

export const ADMIN_RECOVER_MAX_PAGE = 1_000;

/**
 * Operator recovery of one business and mode (all its active callbacks): failed and skipped
 * deliveries since a time, page by page so a long outage does not make one huge statement, and a
 * dry run that only lists them.
 */
@Injectable()
export class AdminRecoverUseCase {
  constructor(
    private readonly store: DeliveryAdminStore,
    private readonly queue: DeliveryQueue,
  ) {}

  async execute(body: AdminRecoverDeliveriesBody): Promise<AdminRecoverDeliveriesResult> {
    const limit = Math.min(Math.max(1, Math.trunc(body.limit)), ADMIN_RECOVER_MAX_PAGE);
    if (body.after !== null && !/^\d{1,18}$/.test(body.after))
      throw new DomainException(ErrorCodes.ValidationError, 'after must be a cursor from a previous page');
    const scope = { businessId: body.business_id, mode: body.mode };
    let total: number | null = null;
    if (body.after === null) total = await this.store.countRecoverable(body.business_id, body.mode, body.since);
    const rows = await this.store.recover(scope, body.since, { dryRun: body.dry_run, after: body.after, limit });
    if (!body.dry_run && rows.length > 0) this.queue.wake();
    return {
      deliveries: rows.map(({ id: _id, ...view }) => view),
      next: rows.length === limit ? rows[rows.length - 1].id : null,
      total,
    };
  }
}
