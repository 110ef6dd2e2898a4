import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, INVOICE_REFERENCE_PATTERN, type InvoiceView, type MarkInvoicePaidBody } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { LedgerStore } from '../../ledger/ledger-store';
import { InvoiceStore, toInvoiceView } from '../invoice-store';

/**
 * Records that an invoice was paid: issued → paid and its entries invoiced → settled, announced
 * to the creditor once. Marking a paid invoice paid again changes nothing and answers the same.
 */
@Injectable()
export class MarkInvoicePaidUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly invoices: InvoiceStore,
    private readonly ledger: LedgerStore,
    private readonly outbox: OutboxNotifier,
  ) {}

  async execute({ ctx, body }: { ctx: { request_id: string }; body: MarkInvoicePaidBody }): Promise<InvoiceView> {
    const ref = body.invoice_reference;
    const row = await this.ds.transaction(async (m) => {
      const current = INVOICE_REFERENCE_PATTERN.test(ref) ? await this.invoices.byReference(m, ref, true) : undefined;
      if (!current) throw new DomainException(ErrorCodes.NotFound, `no invoice ${ref}`);
      if (current.status === 'paid') return current;
      const paid = await this.invoices.markPaid(m, current.id);
      await this.ledger.settleInvoiced(m, ref);
      await this.invoices.announce(m, paid, 'issued', ctx.request_id);
      return paid;
    });
    this.outbox.notify();
    return toInvoiceView(row);
  }
}
