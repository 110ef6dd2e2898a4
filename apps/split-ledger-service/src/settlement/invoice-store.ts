import { Injectable } from '@nestjs/common';
import {
  type EntityManager,
  type TransactionManager,
  columnList,
  jsonInsert,
  keysetPage,
  queryRows,
  type PageRequest,
} from '@payments/database';
import {
  Topics,
  type InvoiceStatus,
  type InvoiceView,
  type Mode,
  type SettlementInvoiceChangedData,
} from '@payments/contracts';
import { unknownCursor } from '@payments/platform';
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

/** Every column of InvoiceRow: what each statement reads or returns, so a row is exactly this type. */
const INVOICE_COLUMNS = columnList<InvoiceRow>({
  id: true,
  invoice_reference: true,
  mode: true,
  debtor_business_id: true,
  creditor_business_id: true,
  currency: true,
  amount: true,
  status: true,
  entry_count: true,
  period_end: true,
  created_at: true,
  paid_at: true,
});

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

/** A new invoice as a settlement run gives it: the columns its insert writes, named as they are. */
export type NewInvoice = Pick<
  InvoiceRow,
  | 'invoice_reference'
  | 'mode'
  | 'debtor_business_id'
  | 'creditor_business_id'
  | 'currency'
  | 'status'
  | 'entry_count'
  | 'period_end'
> & { amount: number };

/** A paid invoice (of 0) is closed at once: its paid_at is now. */
const INSERT_INVOICE = jsonInsert<NewInvoice>({
  into: 'settlement_invoices',
  fields: {
    invoice_reference: 'text',
    mode: 'text',
    debtor_business_id: 'integer',
    creditor_business_id: 'integer',
    currency: 'text',
    amount: 'bigint',
    status: 'text',
    entry_count: 'integer',
    period_end: 'timestamptz',
  },
  computed: { paid_at: "CASE WHEN status = 'paid' THEN now() END" },
});

const OF_BUSINESS = '(debtor_business_id = $1 OR creditor_business_id = $1) AND mode = $2';

/** Every read and write of `settlement_invoices`, and the announcements of their changes. */
@Injectable()
export class InvoiceStore {
  /**
   * Starts a settlement run in `m`'s transaction: one run at a time (a transaction-scoped advisory
   * lock; a second run waits, then finds the entries the first invoiced gone), and the end of the
   * period it settles, the database's now().
   */
  async beginSettlement(m: EntityManager): Promise<Date> {
    await m.query("SELECT pg_advisory_xact_lock(hashtext('ledger_settlement'))");
    const [{ period_end }] = await queryRows<{ period_end: Date }>(m, 'SELECT now() AS period_end');
    return period_end;
  }

  async byReference(m: EntityManager, reference: string, lock = false): Promise<InvoiceRow | undefined> {
    const [row] = await queryRows<InvoiceRow>(
      m,
      `SELECT ${INVOICE_COLUMNS} FROM settlement_invoices WHERE invoice_reference = $1${lock ? ' FOR UPDATE' : ''}`,
      [reference],
    );
    return row;
  }

  async markPaid(m: EntityManager, id: string): Promise<InvoiceRow> {
    const [paid] = await queryRows<InvoiceRow>(
      m,
      `UPDATE settlement_invoices SET status = 'paid', paid_at = now() WHERE id = $1 RETURNING ${INVOICE_COLUMNS}`,
      [id],
    );
    return paid;
  }

  /** How many invoices have a reference starting with the prefix (the next one's sequence number is this + 1). */
  async countWithPrefix(m: EntityManager, prefix: string): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      m,
      "SELECT count(*)::int AS n FROM settlement_invoices WHERE invoice_reference LIKE $1 || '%'",
      [prefix],
    );
    return n;
  }

  /** Inserts the invoice (INSERT_INVOICE); a paid one (of 0) is closed at once. */
  async insert(m: EntityManager, i: NewInvoice): Promise<InvoiceRow> {
    const [invoice] = await queryRows<InvoiceRow>(
      m,
      `${INSERT_INVOICE.text} RETURNING ${INVOICE_COLUMNS}`,
      INSERT_INVOICE.params(i),
    );
    return invoice;
  }

  /** One page of a business's invoices (as debtor or creditor), newest first, and how many it has in all. */
  async page(
    m: EntityManager,
    businessId: number,
    mode: Mode,
    page: PageRequest,
  ): Promise<{ rows: InvoiceRow[]; hasMore: boolean; count: number }> {
    const { rows, hasMore } = await keysetPage<InvoiceRow>(m, {
      table: 'settlement_invoices',
      columns: INVOICE_COLUMNS,
      scope: [OF_BUSINESS],
      params: [businessId, mode],
      cursorColumn: 'invoice_reference',
      page,
      unknownCursor: unknownCursor('invoice'),
    });
    const [{ n }] = await queryRows<{ n: number }>(
      m,
      `SELECT count(*)::int AS n FROM settlement_invoices WHERE ${OF_BUSINESS}`,
      [businessId, mode],
    );
    return { rows, hasMore, count: n };
  }

  /**
   * Announces an invoice change to its creditor (`settlement.invoice_changed`, which the webhook
   * dispatcher turns into payout.created / payout.completed), in the caller's DB transaction.
   */
  async announce(
    m: TransactionManager,
    r: InvoiceRow,
    previous: InvoiceStatus | null,
    correlationId: string | null,
  ): Promise<void> {
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
