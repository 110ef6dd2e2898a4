import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, type TransactionManager } from '@payments/database';
import { OutboxNotifier } from '@payments/messaging';
import { ROOT_LOGGER } from '@payments/platform';
import { TransactionQueries } from '../transactions/transaction-queries';
import { TransactionStore, type TransactionRow } from '../transactions/transaction-store';
import type { ConnectorStatus, ProviderUpdate } from './connector';
import { ProviderPaymentStore } from './provider-payment-store';

/** How an authenticated provider statement met the transaction. */
export type ApplyResult = 'applied' | 'unchanged' | 'mismatch' | 'conflict';

/**
 * What the providers state about a payment (status update or poll answer), applied to its
 * transaction: forward moves only, and never against a final status (an operator decides those).
 */
@Injectable()
export class ProviderStatements {
  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    private readonly queries: TransactionQueries,
    private readonly attempts: ProviderPaymentStore,
    private readonly outbox: OutboxNotifier,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Applies an authenticated statement of the provider in one transaction with the record of it:
   * the transaction moves forward only, after its reference and amount were checked.
   */
  async applyAndRecord(
    transactionId: string,
    update: ProviderUpdate,
    source: 'notification' | 'poll',
    nextCheckAt: Date | null = null,
  ): Promise<ApplyResult> {
    const result = await this.ds.transaction(async (m) => {
      const row = (await this.queries.byId(m, transactionId, true))!;
      const applied = await this.apply(m, row, update, source);
      if (applied !== 'mismatch') {
        const final = update.recognized && (update.status === 'success' || update.status === 'failed');
        await this.attempts.observed(m, transactionId, {
          providerStatus: update.providerStatus,
          providerReference: update.providerReference,
          pollUrl: update.pollUrl,
          final,
          nextCheckAt,
        });
        if (applied === 'conflict')
          await this.attempts.unresolved(
            m,
            transactionId,
            `provider says ${update.providerStatus} but the payment is ${row.status}`,
          );
      }
      return applied;
    });
    if (result === 'applied') this.outbox.notify();
    return result;
  }

  private async apply(
    m: TransactionManager,
    row: TransactionRow,
    update: ProviderUpdate,
    source: string,
  ): Promise<ApplyResult> {
    const reference =
      update.reference === null || update.reference === row.reference || update.reference === row.public_id;
    const currency = !update.currency || update.currency.toUpperCase() === row.currency.trim();
    if (!reference || !currency || (update.amountMinor !== null && update.amountMinor !== Number(row.total))) {
      this.logger.error(
        { transaction_id: row.public_id, source, provider_status: update.providerStatus },
        'provider statement does not match the payment (reference, amount or currency); not applied',
      );
      return 'mismatch';
    }
    if (!update.recognized) {
      this.logger.warn(
        { transaction_id: row.public_id, source, provider_status: update.providerStatus },
        'provider status not known; the payment stays where it is',
      );
      return 'unchanged';
    }
    const finalNow = row.status === 'success' || row.status === 'failed';
    if (finalNow) {
      const agrees = row.status === update.status || update.status === 'pending' || update.status === 'processing';
      if (!agrees) {
        // e.g. Paid for a payment we failed: money may have moved. Never flipped here: an operator decides.
        this.logger.error(
          { transaction_id: row.public_id, source, provider_status: update.providerStatus, status: row.status },
          'provider contradicts a final payment; left to an operator',
        );
        return 'conflict';
      }
      return 'unchanged';
    }
    const before = row.status;
    const moved = await this.moveTo(m, row, update.status, messageFor(update), null);
    return moved.status === before ? 'unchanged' : 'applied';
  }

  /** Moves a transaction forward to `to` (through processing on the way to success), never back. */
  async moveTo(
    m: TransactionManager,
    row: TransactionRow,
    to: ConnectorStatus,
    message: string,
    correlationId: string | null,
  ): Promise<TransactionRow> {
    let current = row;
    if (to === 'pending' || current.status === to || current.status === 'success' || current.status === 'failed')
      return current;
    if (to === 'processing' || (to === 'success' && current.status === 'pending')) {
      current = await this.store.changeStatus(
        m,
        current,
        'processing',
        to === 'processing' ? message : 'Payment confirmed by the provider',
        correlationId,
      );
      if (to === 'processing') return current;
    }
    return this.store.changeStatus(m, current, to, message, correlationId);
  }
}

function messageFor(u: ProviderUpdate): string {
  if (u.status === 'success')
    return u.refunded ? `Payment successful (the provider reports it ${u.providerStatus} since)` : 'Payment successful';
  if (u.status === 'failed') return `Payment ${u.providerStatus.toLowerCase()} at the provider`;
  return `Awaiting the customer (${u.providerStatus})`;
}
