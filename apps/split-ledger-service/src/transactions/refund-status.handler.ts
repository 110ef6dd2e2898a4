import { Injectable } from '@nestjs/common';
import type { TransactionManager } from '@payments/database';
import { OutboxNotifier, type AfterCommit } from '@payments/messaging';
import type { RefundStatusChangedEvent } from '@payments/contracts';
import { lockTransactionLedger } from '../ledger/ledger-store';
import { TransactionCopyStore } from '../ledger/transaction-copy-store';
import { ReverseRefundedSplitsUseCase } from '../ledger/usecases/reverse-refunded-splits.usecase';

/**
 * Consumes `refund.status_changed`: keeps the ledger's copy of the refund (what reversals are
 * computed from) and, when a refund succeeds, writes the reversing entries of its transaction's
 * splits. Runs inside the inbox transaction; the version guard ignores a stale update.
 */
@Injectable()
export class RefundStatusHandler {
  constructor(
    private readonly copies: TransactionCopyStore,
    private readonly reversals: ReverseRefundedSplitsUseCase,
    private readonly outbox: OutboxNotifier,
  ) {}

  /** Returns the relay's wake when it may have written reversing entries (and their events). */
  async handle(event: RefundStatusChangedEvent, m: TransactionManager): Promise<AfterCommit | undefined> {
    const { refund: r } = event.data;
    await lockTransactionLedger(m, r.transaction.id);
    await this.copies.saveRefund(m, r);
    if (r.status !== 'success') return undefined;
    const reversed = await this.reversals.execute(m, r.transaction.id, event.correlation_id);
    return reversed > 0 ? () => this.outbox.notify() : undefined;
  }
}
