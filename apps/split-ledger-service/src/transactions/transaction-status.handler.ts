import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, TransactionStatusChangedData } from '@payments/contracts';
import { lockTransactionLedger } from '../ledger/ledger-store';
import { ApplySplitsUseCase } from '../ledger/usecases/apply-splits.usecase';

/**
 * Keeps the ledger's copy of a transaction current and, when it reaches success, applies its
 * splits. Runs inside the inbox transaction, so it happens once per event; the version guard also
 * ignores an older event arriving late.
 */
@Injectable()
export class TransactionStatusHandler {
  constructor(private readonly applySplits: ApplySplitsUseCase) {}

  async handle(event: EventEnvelope, m: EntityManager): Promise<void> {
    const { transaction: t } = event.data as TransactionStatusChangedData;
    const succeeded = t.status === 'success';
    // Before the copy changes, so a refund of this transaction handled at the same time either
    // sees all of this (entries included) or runs entirely before it.
    if (succeeded) await lockTransactionLedger(m, t.id);
    await m.query(
      `INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status, version, link_splits, transaction_created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10, now())
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
        WHERE ledger_transactions.version < EXCLUDED.version`,
      [t.id, t.transaction_id, t.business_id, t.mode, t.amount, t.currency, t.status, t.version, JSON.stringify(t.link_splits), t.date_created],
    );
    if (succeeded) await this.applySplits.execute(m, t, event.correlation_id);
  }
}
