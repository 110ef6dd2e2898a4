import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, RefundStatusChangedData } from '@payments/contracts';
import { lockTransactionLedger } from './ledger-store';
import { ReverseRefundedSplitsUseCase } from './usecases/reverse-refunded-splits.usecase';

/**
 * Consumes `refund.status_changed`: keeps the ledger's copy of the refund (what reversals are
 * computed from) and, when a refund succeeds, writes the reversing entries of its transaction's
 * splits. Runs inside the inbox transaction; the version guard ignores a stale update.
 */
@Injectable()
export class RefundStatusHandler {
  constructor(private readonly reversals: ReverseRefundedSplitsUseCase) {}

  async handle(event: EventEnvelope, m: EntityManager): Promise<void> {
    const { refund: r } = event.data as RefundStatusChangedData;
    await lockTransactionLedger(m, r.transaction.id);
    await m.query(
      `INSERT INTO ledger_refunds (id, public_id, transaction_id, amount, status, version, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6, now())
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
        WHERE ledger_refunds.version < EXCLUDED.version`,
      [r.id, r.refund_id, r.transaction.id, r.amount, r.status, r.version],
    );
    if (r.status === 'success') await this.reversals.execute(m, r.transaction.id, event.correlation_id);
  }
}
