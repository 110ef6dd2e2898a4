import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from '@payments/database';
import type { RunSettlementResult } from '@payments/contracts';
import { OutboxNotifier } from '@payments/messaging';
import { ROOT_LOGGER } from '@payments/platform';
import { invoiceReference, invoiceReferencePrefix, netEntries } from '../domain/netting';
import { LedgerStore } from '../../ledger/ledger-store';
import { InvoiceStore, toInvoiceView, type InvoiceRow } from '../invoice-store';

/**
 * A settlement run nets every pending entry created before it into invoices, in one DB transaction. Runs take turns
 * (advisory lock) and re-check locked entries are pending, so none is invoiced twice. A net of 0 is closed at once.
 */
@Injectable()
export class RunSettlementUseCase {
  private readonly logger: Logger;

  constructor(
    private readonly ds: DataSource,
    private readonly invoices: InvoiceStore,
    private readonly ledger: LedgerStore,
    private readonly outbox: OutboxNotifier,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'settlement' });
  }

  async execute(correlationId: string | null): Promise<RunSettlementResult> {
    const result = await this.ds.transaction(async (m) => {
      const period_end = await this.invoices.beginSettlement(m);
      const pending = await this.ledger.pendingUpTo(m, period_end);
      const plans = netEntries(
        pending.map((r) => ({
          id: Number(r.id),
          mode: r.mode,
          debtorBusinessId: r.debtor_business_id,
          creditorBusinessId: r.creditor_business_id,
          currency: r.currency.trim(),
          amount: Number(r.amount),
        })),
      );
      const issued: InvoiceRow[] = [];
      for (const plan of plans) {
        const n = await this.invoices.countWithPrefix(m, invoiceReferencePrefix(period_end, plan));
        const reference = invoiceReference(period_end, plan, n + 1);
        const zero = plan.amount === 0;
        const invoice = await this.invoices.insert(m, {
          invoice_reference: reference,
          mode: plan.mode,
          debtor_business_id: plan.debtorBusinessId,
          creditor_business_id: plan.creditorBusinessId,
          currency: plan.currency,
          amount: plan.amount,
          status: zero ? 'paid' : 'issued',
          entry_count: plan.entryIds.length,
          period_end,
        });
        const moved = await this.ledger.invoice(m, plan.entryIds, zero ? 'settled' : 'invoiced', reference);
        // Cannot happen while the rows are locked; if it did, committing would misstate the invoice.
        if (moved !== plan.entryIds.length)
          throw new Error(`invoice ${reference}: ${moved} of ${plan.entryIds.length} entries were still pending`);
        if (!zero) await this.invoices.announce(m, invoice, null, correlationId);
        issued.push(invoice);
      }
      return {
        period_end: period_end.toISOString(),
        invoices: issued.map(toInvoiceView),
        entries_invoiced: pending.length,
      };
    });
    this.outbox.notify();
    this.logger.info(
      { period_end: result.period_end, invoices: result.invoices.length, entries: result.entries_invoiced },
      'settlement run finished',
    );
    return result;
  }
}
