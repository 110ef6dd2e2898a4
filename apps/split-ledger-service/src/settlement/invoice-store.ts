import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Topics, type InvoiceStatus, type InvoiceView, type Mode, type SettlementInvoiceChangedData } from '@payments/contracts';
import { appendToOutbox } from '@payments/messaging';
import { PRODUCER } from '../ledger/ledger-store';

/** A settlement_invoices row as PostgreSQL returns it. */
export interface InvoiceRow {
  id: string;
  invoice_reference: string;
  mode: Mode;
  debtor_business_id: number;
  creditor_business_id: number;
  currency: string;
  amount: string;
  status: InvoiceStatus;
  entry_count: number;
  period_end: Date;
  created_at: Date;
  paid_at: Date | null;
}

export function toInvoiceView(r: InvoiceRow): InvoiceView {
  return {
    invoice_reference: r.invoice_reference,
    mode: r.mode,
    debtor_business_id: r.debtor_business_id,
    creditor_business_id: r.creditor_business_id,
    currency: r.currency.trim(),
    amount: Number(r.amount),
    status: r.status,
    entry_count: r.entry_count,
    period_end: r.period_end.toISOString(),
    date_created: r.created_at.toISOString(),
    date_paid: r.paid_at ? r.paid_at.toISOString() : null,
  };
}

@Injectable()
export class InvoiceStore {
  /**
   * Announces an invoice change to its creditor (`settlement.invoice_changed`, which the webhook
   * dispatcher turns into payout.created / payout.completed), in the caller's DB transaction.
   */
  async announce(m: EntityManager, r: InvoiceRow, previous: InvoiceStatus | null, correlationId: string | null): Promise<void> {
    const { mode: _mode, ...invoice } = toInvoiceView(r);
    const data: SettlementInvoiceChangedData = { invoice, previous_status: previous, status: r.status };
    await appendToOutbox(m, {
      topic: Topics.SettlementInvoiceChanged,
      type: Topics.SettlementInvoiceChanged,
      key: r.invoice_reference,
      producer: PRODUCER,
      mode: r.mode,
      businessId: r.creditor_business_id,
      correlationId,
      data,
    });
  }
}
