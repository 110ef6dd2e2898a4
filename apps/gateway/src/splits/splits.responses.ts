import { MODES, LEDGER_ENTRY_STATUSES, SPLIT_ROLES, SPLIT_TYPES } from '@payments/contracts';
import { Bool, Closed, Int, List, Nullable, Str, StringEnum, type Static } from '@payments/contracts/schemas';
import { Ok } from '../http/responses';

/** Answers of /v1/splits and the settlement admin API: the presenters' return types and the OpenAPI schemas. */
const SpecDateTime = (description = 'YYYY-MM-DD HH:MM:SS (UTC)') => Str(description);

const splitConfigFields = {
  public_id: Str(),
  owner_business_id: Int(),
  partner_business_id: Int(),
  split_type: StringEnum(SPLIT_TYPES),
  split_value: Int('Basis points for percentage, minor units for fixed'),
  split_role: StringEnum(SPLIT_ROLES),
  currency: Str(),
  description: Nullable(Str()),
  is_active: Bool(),
};
export const SplitConfig = Closed(splitConfigFields);
export type SplitConfig = Static<typeof SplitConfig>;

export const SplitConfigSaved = Ok({ split_config: SplitConfig, message: Str() });
export type SplitConfigSaved = Static<typeof SplitConfigSaved>;

export const SplitConfigList = Ok({
  split_configs: List(Closed({ ...splitConfigFields, date_created: SpecDateTime() })),
  count: Int('Every config of the business, not the page size'),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type SplitConfigList = Static<typeof SplitConfigList>;

export const SplitConfigDeactivated = Ok({ public_id: Str(), message: Str() });
export type SplitConfigDeactivated = Static<typeof SplitConfigDeactivated>;

export const LedgerEntry = Closed({
  public_id: Str(),
  transaction_id: Int(),
  split_config_id: Nullable(Int()),
  creditor_business_id: Int(),
  debtor_business_id: Int(),
  amount: Int('Minor units; negative for a refund reversal'),
  currency: Str(),
  status: StringEnum(LEDGER_ENTRY_STATUSES),
  invoice_reference: Nullable(Str()),
  settlement_date: Nullable(SpecDateTime()),
  date_created: SpecDateTime(),
});
export type LedgerEntry = Static<typeof LedgerEntry>;

export const Ledger = Ok({
  ledger_entries: List(LedgerEntry),
  count: Int('Every matching entry, not the page size'),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type Ledger = Static<typeof Ledger>;

const CurrencyTotals = List(Closed({ currency: Str(), total: Int('Minor units') }));
export const LedgerSummary = Ok({ summary: Closed({ owed_to_you: CurrencyTotals, you_owe: CurrencyTotals }) });
export type LedgerSummary = Static<typeof LedgerSummary>;

const invoiceFields = {
  invoice_reference: Str(),
  debtor_business_id: Int(),
  creditor_business_id: Int(),
  currency: Str(),
  amount: Int('Minor units'),
  status: StringEnum(['issued', 'paid'] as const),
  entry_count: Int(),
  period_end: SpecDateTime(),
  date_created: SpecDateTime(),
  date_paid: Nullable(SpecDateTime()),
};
export const Invoice = Closed(invoiceFields);
export type Invoice = Static<typeof Invoice>;

export const InvoiceList = Ok({
  invoices: List(Invoice),
  count: Int(),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type InvoiceList = Static<typeof InvoiceList>;

/** Admin answers name the mode too: one run settles both. */
export const AdminInvoice = Closed({ ...invoiceFields, mode: StringEnum(MODES) });
export type AdminInvoice = Static<typeof AdminInvoice>;

export const SettlementRun = Ok({
  message: Str(),
  period_end: SpecDateTime(),
  invoices: List(AdminInvoice),
  count: Int(),
  entries_invoiced: Int(),
});
export type SettlementRun = Static<typeof SettlementRun>;

export const InvoicePaid = Ok({ message: Str(), invoice: AdminInvoice });
export type InvoicePaid = Static<typeof InvoicePaid>;
