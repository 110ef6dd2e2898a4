import type { Mode } from './common';
import type { EventEnvelope } from './envelope';
import { Topics } from './topics';

/**
 * Split configs, the commission ledger and settlement: split-ledger-service's RPC patterns, bodies, results, events and
 * queue. Amounts are integers in minor units; timestamps are ISO 8601 UTC (the gateway renders the spec's format).
 */
export const LedgerRpcPatterns = {
  SplitConfigsCreate: 'splits.config.create',
  SplitConfigsList: 'splits.config.list',
  SplitConfigsUpdate: 'splits.config.update',
  SplitConfigsDeactivate: 'splits.config.deactivate',
  LedgerList: 'ledger.list',
  LedgerSummary: 'ledger.summary',
  /** One transaction's entries (by its public id) that the caller is a party to, in the caller's mode. */
  LedgerOfTransaction: 'ledger.of_transaction',
  /** The caller's payments and successful volume per UTC day of creation (the dashboard's overview). */
  LedgerDailyTotals: 'ledger.daily_totals',
  InvoicesList: 'settlement.invoices.list',
  /** One invoice of the caller (debtor or creditor) in the caller's mode, with its ledger entries. */
  InvoicesGet: 'settlement.invoices.get',
  /** Admin: no business in the context. */
  SettlementRun: 'settlement.run',
  /** Admin: no business in the context. */
  InvoiceMarkPaid: 'settlement.invoices.mark_paid',
} as const;
export type LedgerRpcPattern = (typeof LedgerRpcPatterns)[keyof typeof LedgerRpcPatterns];

/**
 * BullMQ queue of the weekly settlement. Renaming it breaks running jobs: the repeatable job
 * scheduled under the old name keeps firing into a queue nobody works. Add a new name and
 * remove the old scheduler instead.
 */
export const SETTLEMENT_QUEUE = 'ledger-settlement';

export const SPLIT_TYPES = ['percentage', 'fixed'] as const;
export type SplitType = (typeof SPLIT_TYPES)[number];
export const SPLIT_ROLES = ['fee', 'principal'] as const;
export type SplitRole = (typeof SPLIT_ROLES)[number];
export const SPLIT_DESCRIPTION_MAX = 500;

export const LEDGER_ENTRY_STATUSES = ['pending', 'invoiced', 'settled'] as const;
export type LedgerEntryStatus = (typeof LEDGER_ENTRY_STATUSES)[number];
/** `split`: what a split of a successful transaction owes (≥ 0). `reversal`: a refund undoing part of one (≤ 0). */
export type LedgerEntryKind = 'split' | 'reversal';
export type InvoiceStatus = 'issued' | 'paid';

/** Split configs and ledger entries are addressed by a UUID public_id; anything else is 404 at once. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---- split configs
export interface CreateSplitConfigBody {
  partner_business_id: number;
  split_type: SplitType;
  split_value: number;
  split_role: SplitRole;
  currency: string;
  description?: string | null;
}
export interface UpdateSplitConfigBody {
  public_id: string;
  split_type?: SplitType;
  split_value?: number;
  split_role?: SplitRole;
  description?: string | null;
}
export interface SplitConfigRefBody {
  public_id: string;
}
export interface SplitConfigView {
  public_id: string;
  owner_business_id: number;
  partner_business_id: number;
  split_type: SplitType;
  split_value: number;
  split_role: SplitRole;
  currency: string;
  description: string | null;
  is_active: boolean;
  date_created: string;
  date_updated: string;
}
/** Without a limit: every config (as before cursors existed). */
export interface ListSplitConfigsBody {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}
export interface ListSplitConfigsResult {
  split_configs: SplitConfigView[];
  /** Every config of the business and mode, not the page size. */
  count: number;
  has_more: boolean;
}

// ---- ledger
export interface LedgerEntryView {
  public_id: string;
  kind: LedgerEntryKind;
  transaction_id: number;
  /** The transaction's public id (txn_…), as its merchant knows it. */
  transaction_public_id: string;
  split_config_id: number | null;
  creditor_business_id: number;
  debtor_business_id: number;
  /** Negative for a reversal. */
  amount: number;
  currency: string;
  status: LedgerEntryStatus;
  invoice_reference: string | null;
  settlement_date: string | null;
  date_created: string;
}
export interface ListLedgerBody {
  skip: number;
  limit: number;
  /** Cursor paging (see CursorPageBody); `skip` then counts from the cursor. */
  starting_after?: string;
  ending_before?: string;
}
export interface ListLedgerResult {
  ledger_entries: LedgerEntryView[];
  /** Every entry matching (business as creditor or debtor, in the key's mode), not the page size. */
  count: number;
  has_more: boolean;
}
export interface CurrencyTotal {
  currency: string;
  total: number;
}
/** What one counterparty and the caller owe each other in one currency (unsettled entries). */
export interface CounterpartyTotal {
  business_id: number;
  currency: string;
  /** The counterparty owes the caller this (the caller is the creditor). */
  owed_to_you: number;
  /** The caller owes the counterparty this (the caller is the debtor). */
  you_owe: number;
}
export interface LedgerSummaryResult {
  owed_to_you: CurrencyTotal[];
  you_owe: CurrencyTotal[];
  /** The same amounts per counterparty and currency, by business id then currency. */
  by_counterparty: CounterpartyTotal[];
}
/** A transaction's public id (txn_…), as the merchant sees it. */
export interface LedgerOfTransactionBody {
  transaction_id: string;
}
export interface LedgerOfTransactionResult {
  /** Oldest first: the splits, then any reversals. */
  ledger_entries: LedgerEntryView[];
}
/** UTC days, YYYY-MM-DD, both included; at most DAILY_TOTALS_MAX_DAYS of them. */
export interface DailyTotalsBody {
  from: string;
  to: string;
}
export const DAILY_TOTALS_MAX_DAYS = 92;
/** One day and currency of the caller's transactions, by the day each was created (UTC). */
export interface DailyTotal {
  date: string;
  currency: string;
  payments: number;
  succeeded: number;
  /** Sum of the successful payments' amounts, minor units. */
  succeeded_amount: number;
}
export interface DailyTotalsResult {
  /** By date, then currency; days and currencies without payments are left out. */
  daily_totals: DailyTotal[];
}

// ---- settlement
/** An invoice as the API shows it: the published snapshot plus its mode. */
export type InvoiceView = SettlementInvoiceSnapshot & { mode: Mode };
export interface ListInvoicesBody {
  skip: number;
  limit: number;
  /** Cursor paging (see CursorPageBody); `skip` then counts from the cursor. */
  starting_after?: string;
  ending_before?: string;
}
export interface ListInvoicesResult {
  invoices: InvoiceView[];
  count: number;
  has_more: boolean;
}
/** At most this many of an invoice's entries come with it; `entries_skip` pages through the rest. */
export const INVOICE_ENTRIES_PAGE = 100;
export interface GetInvoiceBody {
  invoice_reference: string;
  /** How many of its entries (oldest first) to skip: an invoiced set never changes, so an offset pages it exactly. */
  entries_skip?: number;
}
export interface GetInvoiceResult {
  invoice: InvoiceView;
  /** The entries the invoice nets, oldest first: one page of INVOICE_ENTRIES_PAGE from `entries_skip`. */
  ledger_entries: LedgerEntryView[];
  has_more_entries: boolean;
}
export interface RunSettlementResult {
  /** Entries created up to this instant were settled. */
  period_end: string;
  invoices: InvoiceView[];
  entries_invoiced: number;
}
/** `INV-<YYYYMMDD>-<debtor>-<creditor>-<CUR>-<TEST|LIVE>-<n>` (docs/decisions/0005-ledger.md). */
export const INVOICE_REFERENCE_PATTERN = /^INV-\d{8}-\d{1,10}-\d{1,10}-[A-Z]{3}-(TEST|LIVE)-\d{1,6}$/;
export interface MarkInvoicePaidBody {
  invoice_reference: string;
}

// ---- events published by split-ledger-service
/** A ledger entry as consumers see it. */
export interface LedgerEntrySnapshot {
  id: number;
  public_id: string;
  kind: LedgerEntryKind;
  mode: Mode;
  transaction_id: number;
  transaction_public_id: string;
  split_config_id: number | null;
  /** Index in the transaction's link_splits, for a payment-link split. */
  link_split_index: number | null;
  /** The refund a reversal undoes (its integer id). */
  refund_id: number | null;
  creditor_business_id: number;
  debtor_business_id: number;
  amount: number;
  currency: string;
  /** The split was cut down so the transaction's entries stay within its amount. */
  capped: boolean;
  status: LedgerEntryStatus;
  date_created: string;
}
export interface LedgerEntryCreatedData {
  entry: LedgerEntrySnapshot;
}
export type LedgerEntryCreatedEvent = EventEnvelope<typeof Topics.LedgerEntryCreated, LedgerEntryCreatedData>;

/** An invoice as the creditor's webhooks see it (`issued` → payout.created, `paid` → payout.completed). */
export interface SettlementInvoiceSnapshot {
  invoice_reference: string;
  debtor_business_id: number;
  creditor_business_id: number;
  currency: string;
  amount: number;
  status: InvoiceStatus;
  entry_count: number;
  period_end: string;
  date_created: string;
  date_paid: string | null;
}
/** Published on Topics.SettlementInvoiceChanged with envelope business_id = the creditor. */
export interface SettlementInvoiceChangedData {
  invoice: SettlementInvoiceSnapshot;
  previous_status: InvoiceStatus | null;
  status: InvoiceStatus;
}
export type SettlementInvoiceChangedEvent = EventEnvelope<
  typeof Topics.SettlementInvoiceChanged,
  SettlementInvoiceChangedData
>;

/** Payload of a settlement job (BullMQ); the run settles what was created before it starts. */
export interface SettlementJobData {
  trigger: 'schedule';
}
