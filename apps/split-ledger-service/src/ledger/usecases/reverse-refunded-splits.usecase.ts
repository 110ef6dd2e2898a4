import { Injectable } from '@nestjs/common';
import type { TransactionManager } from '@payments/database';
import { planReversals } from '../domain/reversals';
import { LedgerStore } from '../ledger-store';
import { TransactionCopyStore } from '../transaction-copy-store';

/**
 * Writes the reversals `planReversals` says are missing. Runs after a refund succeeds and after the splits are applied
 * (a refund event may come before the transaction's success), always under the transaction's ledger lock.
 */
@Injectable()
export class ReverseRefundedSplitsUseCase {
  constructor(
    private readonly ledger: LedgerStore,
    private readonly copies: TransactionCopyStore,
  ) {}

  async execute(m: TransactionManager, transactionId: number, correlationId: string | null): Promise<number> {
    const txn = await this.copies.transaction(m, transactionId);
    if (!txn || txn.status !== 'success') return 0;
    const entries = await this.ledger.entriesOfTransaction(m, transactionId);
    const splits = entries.filter((e) => e.kind === 'split');
    if (splits.length === 0) return 0;
    const refunds = await this.copies.refunds(m, [transactionId], true);
    const plan = planReversals(
      Number(txn.amount),
      splits.map((e) => ({ entryId: Number(e.id), amount: Number(e.amount) })),
      refunds.map((r) => ({ refundId: Number(r.id), amount: Number(r.amount) })),
      entries
        .filter((e) => e.kind === 'reversal')
        .map((e) => ({
          entryId: Number(e.reverses_entry_id),
          refundId: Number(e.refund_id),
          amount: Number(e.amount),
        })),
    );
    const byId = new Map(splits.map((e) => [Number(e.id), e]));
    for (const p of plan) {
      const original = byId.get(p.entryId)!;
      await this.ledger.insert(
        m,
        {
          kind: 'reversal',
          mode: original.mode,
          transaction_id: transactionId,
          transaction_public_id: original.transaction_public_id,
          split_config_id: original.split_config_id === null ? null : Number(original.split_config_id),
          split_config_version: original.split_config_version,
          link_split_index: original.link_split_index,
          refund_id: p.refundId,
          reverses_entry_id: p.entryId,
          creditor_business_id: original.creditor_business_id,
          debtor_business_id: original.debtor_business_id,
          amount: p.amount,
          currency: original.currency.trim(),
          capped: false,
        },
        correlationId,
      );
    }
    return plan.length;
  }
}
