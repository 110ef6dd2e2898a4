import { Injectable } from '@nestjs/common';
import { ErrorCodes, type RefundView, type ResolveRefundBody } from '@payments/contracts';
import { DataSource } from '@payments/database';
import { OutboxNotifier } from '@payments/messaging';
import { DomainException } from '@payments/platform';
import { ProviderRefundStore } from '../../connectors/provider-refund-store';
import { RefundStore, toRefundView } from '../refund-store';

/**
 * An operator completes or fails a refund whose provider has no refund API (refunded by hand at the
 * provider), or whose provider answer was lost. Only a pending refund without a sandbox settlement
 * time qualifies; any other, including one still being sent, is refused and nothing changes.
 */
@Injectable()
export class ResolveRefundUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: RefundStore,
    private readonly providerRefunds: ProviderRefundStore,
    private readonly outbox: OutboxNotifier,
  ) {}

  async execute(body: ResolveRefundBody, correlationId: string): Promise<RefundView> {
    const refund = await this.ds.transaction(async (m) => {
      const row = await this.store.byPublicIdForUpdate(m, body.refund_id);
      if (!row) throw new DomainException(ErrorCodes.NotFound, `no refund ${body.refund_id}`);
      if (row.status !== 'pending' || row.settle_at !== null) {
        throw new DomainException(
          ErrorCodes.ValidationError,
          `refund ${row.public_id} is ${row.status === 'pending' ? 'settled by the sandbox' : row.status}, ` +
            'not waiting for an operator',
          [{ field: 'refund_id', message: 'is not waiting for an operator' }],
        );
      }
      const atProvider = await this.providerRefunds.lock(m, row.id);
      if (atProvider && (atProvider.state === 'queued' || atProvider.state === 'sending')) {
        throw new DomainException(
          ErrorCodes.ValidationError,
          `refund ${row.public_id} is being sent to ${atProvider.provider}; its answer decides it`,
          [{ field: 'refund_id', message: 'is not waiting for an operator' }],
        );
      }
      if (atProvider?.state === 'pending' && body.outcome === 'failed') {
        // The provider took it and said it would confirm: failing it here would let the payment be refunded again.
        throw new DomainException(
          ErrorCodes.ValidationError,
          `refund ${row.public_id} was accepted by ${atProvider.provider}, which confirms it; it cannot be failed here`,
          [{ field: 'refund_id', message: 'was accepted by the provider' }],
        );
      }
      if (atProvider)
        await this.providerRefunds.record(m, row.id, { state: 'final', error: 'resolved by an operator' });
      const message =
        body.note?.trim() ||
        (body.outcome === 'success'
          ? 'Refund completed by an operator'
          : 'Refund failed: not refunded at the provider');
      return this.store.changeStatus(m, row, body.outcome, message, correlationId);
    });
    this.outbox.notify();
    return toRefundView(refund);
  }
}
