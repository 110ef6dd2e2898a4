import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ErrorCodes, INVOICE_REFERENCE_PATTERN, type InvoiceView, type MarkInvoicePaidBody } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { DomainException } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { InvoiceStore, toInvoiceView, type InvoiceRow } from '../invoice-store';

/**
 * Records that an invoice was paid: issued → paid and its entries invoiced → settled, announced
 * to the creditor once. Marking a paid invoice paid again changes nothing and answers the same.
 */
@Injectable()
export class MarkInvoicePaidUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly invoices: InvoiceStore,
    private readonly outbox: OutboxNotifier,
  ) {}

  async execute({ ctx, body }: { ctx: { request_id: string }; body: MarkInvoicePaidBody }): Promise<InvoiceView> {
    const ref = body.invoice_reference;
    const row = await this.ds.transaction(async (m) => {
      const [current] = INVOICE_REFERENCE_PATTERN.test(ref)
        ? await queryRows<InvoiceRow>(m, 'SELECT * FROM settlement_invoices WHERE invoice_reference = $1 FOR UPDATE', [ref])
        : [];
      if (!current) throw new DomainException(ErrorCodes.NotFound, `no invoice ${ref}`);
      if (current.status === 'paid') return current;
      const [paid] = await queryRows<InvoiceRow>(m, "UPDATE settlement_invoices SET status = 'paid', paid_at = now() WHERE id = $1 RETURNING *", [current.id]);
      await m.query("UPDATE ledger_entries SET status = 'settled' WHERE invoice_reference = $1 AND status = 'invoiced'", [ref]);
      await this.invoices.announce(m, paid, 'issued', ctx.request_id);
      return paid;
    });
    this.outbox.notify();
    return toInvoiceView(row);
  }
}
