import type {
  InvoiceView,
  LedgerEntryView,
  LedgerSummaryResult,
  ListSplitConfigsResult,
  SplitConfigView,
} from '@payments/contracts';
import type * as R from './splits.responses';

/** The spec's "YYYY-MM-DD HH:MM:SS" (UTC) from an ISO 8601 timestamp. */
export function specDateTime(iso: string): string;
export function specDateTime(iso: string | null): string | null;
export function specDateTime(iso: string | null): string | null {
  if (iso === null) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new Error(`not a timestamp: ${iso}`);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** The spec's split_config object (POST and PUT answers). */
function splitConfig(c: SplitConfigView): R.SplitConfig {
  return {
    public_id: c.public_id,
    owner_business_id: c.owner_business_id,
    partner_business_id: c.partner_business_id,
    split_type: c.split_type,
    split_value: c.split_value,
    split_role: c.split_role,
    currency: c.currency,
    description: c.description,
    is_active: c.is_active,
  };
}

export function presentSplitConfigCreated(c: SplitConfigView): R.SplitConfigSaved {
  return { result: 'success', split_config: splitConfig(c), message: 'Split config created' };
}

export function presentSplitConfigUpdated(c: SplitConfigView): R.SplitConfigSaved {
  return { result: 'success', split_config: splitConfig(c), message: 'Split config updated' };
}

/** A config as the list shows it: with its date_created. */
export function presentListedSplitConfig(c: SplitConfigView): R.SplitConfigList['split_configs'][number] {
  return { ...splitConfig(c), date_created: specDateTime(c.date_created) };
}

/** The list adds date_created to each config. */
export function presentSplitConfigList(page: ListSplitConfigsResult): R.SplitConfigList {
  return {
    result: 'success',
    split_configs: page.split_configs.map(presentListedSplitConfig),
    count: page.count,
    has_more: page.has_more,
  };
}

export function presentSplitConfigDeactivated(c: SplitConfigView): R.SplitConfigDeactivated {
  return { result: 'success', public_id: c.public_id, message: 'Split config deactivated' };
}

/** The spec's Ledger entry, field for field (a reversal is an entry with a negative amount). */
export function presentLedgerEntry(e: LedgerEntryView): R.LedgerEntry {
  return {
    public_id: e.public_id,
    transaction_id: e.transaction_id,
    split_config_id: e.split_config_id,
    creditor_business_id: e.creditor_business_id,
    debtor_business_id: e.debtor_business_id,
    amount: e.amount,
    currency: e.currency,
    status: e.status,
    invoice_reference: e.invoice_reference,
    settlement_date: specDateTime(e.settlement_date),
    date_created: specDateTime(e.date_created),
  };
}

export function presentLedger(entries: LedgerEntryView[], count: number, hasMore: boolean): R.Ledger {
  return { result: 'success', ledger_entries: entries.map(presentLedgerEntry), count, has_more: hasMore };
}

export function presentSummary(s: LedgerSummaryResult): R.LedgerSummary {
  return { result: 'success', summary: { owed_to_you: s.owed_to_you, you_owe: s.you_owe } };
}

/** An invoice of the weekly settlement (beyond the spec; dates in the spec's ledger format). */
export function presentInvoice(i: InvoiceView): R.Invoice {
  return {
    invoice_reference: i.invoice_reference,
    debtor_business_id: i.debtor_business_id,
    creditor_business_id: i.creditor_business_id,
    currency: i.currency,
    amount: i.amount,
    status: i.status,
    entry_count: i.entry_count,
    period_end: specDateTime(i.period_end),
    date_created: specDateTime(i.date_created),
    date_paid: specDateTime(i.date_paid),
  };
}

export function presentInvoices(invoices: InvoiceView[], count: number, hasMore: boolean): R.InvoiceList {
  return { result: 'success', invoices: invoices.map(presentInvoice), count, has_more: hasMore };
}

/** Admin answers name the mode too: one run settles both. */
function adminInvoice(i: InvoiceView): R.AdminInvoice {
  return { ...presentInvoice(i), mode: i.mode };
}

export function presentSettlementRun(r: {
  period_end: string;
  invoices: InvoiceView[];
  entries_invoiced: number;
}): R.SettlementRun {
  return {
    result: 'success',
    message: `Settlement run invoiced ${r.entries_invoiced} ledger entries into ${r.invoices.length} invoices`,
    period_end: specDateTime(r.period_end),
    invoices: r.invoices.map(adminInvoice),
    count: r.invoices.length,
    entries_invoiced: r.entries_invoiced,
  };
}

export function presentInvoicePaid(i: InvoiceView): R.InvoicePaid {
  return { result: 'success', message: `Invoice ${i.invoice_reference} is paid`, invoice: adminInvoice(i) };
}
