/**
 * Answers of the merchant dashboard's API (docs/dashboard.md), declared once for the gateway and the dashboard app.
 * Types only, importing only Node-free files: the app's type-check (no Node types) loads this file alone, never the
 * package index. Amounts are minor units; every answer also carries `result: 'success'`.
 */
import type { KeyType, Mode } from './common';
import type { ConnectionProvider } from './connections';
import type { CounterpartyTotal, CurrencyTotal, LedgerEntryView, SplitConfigView, SplitType } from './ledger';
import type { EventView, TestCallbackResult } from './webhook-events';
import type { CallbackView, DeliveryView, EventDeliveryView, TransactionEventView } from './webhooks';

/** The shared pieces the answers below are made of, for the app to name. */
export type {
  CounterpartyTotal,
  CurrencyTotal,
  DeliveryView,
  EventDeliveryView,
  EventView,
  KeyType,
  Mode,
  TransactionEventView,
};

type Ok<T> = { result: 'success' } & T;

// ---- session and users

export type Role = 'owner' | 'developer' | 'viewer';

export interface UserView {
  id: number;
  email: string;
  role: Role;
  business_id: number;
  business_name: string;
  date_created: string;
}

export interface SessionAnswer {
  result: 'success';
  user: UserView;
  mode: Mode;
  /** Send it back in X-CSRF-Token on every request that changes something. */
  csrf_token: string;
  /** What this user's role may do (the gateway's roles table), so the pages show only what will work. */
  actions: string[];
}

export type UserList = Ok<{ users: UserView[] }>;
export type UserAnswer = Ok<{ user: UserView }>;

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  mode: Mode | null;
  target: string | null;
  details: Record<string, unknown>;
  ip: string;
  date_created: string;
}

export type AuditPage = Ok<{ entries: AuditEntry[]; has_more: boolean }>;

// ---- overview and payments

/** A payment as the dashboard shows it. */
export interface PaymentItem {
  transaction_id: string;
  reference: string;
  amount: number;
  charges: number;
  total: number;
  amount_refunded: number;
  currency: string;
  status: string;
  email: string;
  payment_method_type: string | null;
  payment_method_code: string | null;
  payment_link_id: string | null;
  description: string | null;
  date_created: string;
  date_updated: string;
}

export interface RefundItem {
  refund_id: string;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  date_created: string;
  date_updated: string;
}

export interface DayTotals {
  /** YYYY-MM-DD, UTC. */
  date: string;
  payments: number;
  succeeded: number;
  /** Successful volume per currency. */
  volume: Record<string, number>;
}

export type Overview = Ok<{ days: DayTotals[]; recent: PaymentItem[] }>;

export type PaymentList = Ok<{ payments: PaymentItem[]; has_more: boolean }>;

/** Partner business id (as text) → its name. An id missing from it is shown as the bare id. */
export type BusinessNames = Record<string, string>;

/**
 * The names of the businesses that pay this one through their split terms (debtors of its entries
 * and invoices): a business is named only to those it chose to pay. Others are shown by id.
 */
export interface Named {
  business_names: BusinessNames;
}

/** A ledger entry as the service gives it, with its dates as /v1/splits shows them: "YYYY-MM-DD HH:MM:SS" in UTC. */
export type LedgerEntryItem = LedgerEntryView;

export type PaymentDetail = Ok<{
  payment: PaymentItem;
  refunds: RefundItem[];
  /** Still refundable (0 unless the payment succeeded). */
  refundable: number;
  /**
   * Its events and its refunds' (the status timeline), oldest first, with the deliveries each caused;
   * null when the dispatcher could not be asked.
   */
  events: TransactionEventView[] | null;
  /**
   * Its split ledger entries this business is a party to (splits, then reversals), oldest first;
   * null when the ledger could not be asked.
   */
  split_entries: LedgerEntryItem[] | null;
}>;

export type RefundAnswer = Ok<{ refund: RefundItem }>;

// ---- payment links

export interface LinkSplitItem {
  business_id: number;
  type: SplitType;
  /** Basis points for a percentage (1250 = 12.5 %), minor units for a fixed amount. */
  value: number;
  description: string | null;
}

/** A payment link: /v1/links's link object. */
export interface LinkItem {
  payment_link_id: string;
  hosted_payment_link: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  description: string;
  /** The merchant's own notes (never shown to the customer). */
  metadata: Record<string, string>;
  splits: LinkSplitItem[];
  success_url: string | null;
  failure_url: string | null;
  active: boolean;
  is_active: boolean;
  date_created: string;
  date_updated: string;
  date_deactivated: string | null;
}

export type LinkList = Ok<{ links: LinkItem[]; has_more: boolean }>;
export type LinkAnswer = Ok<{ link: LinkItem }>;

// ---- splits

/** A split config as /v1/splits/config shows it: without date_updated, dates as "YYYY-MM-DD HH:MM:SS". */
export type SplitConfigItem = Omit<SplitConfigView, 'date_updated'>;

export interface InvoiceItem {
  invoice_reference: string;
  debtor_business_id: number;
  creditor_business_id: number;
  currency: string;
  amount: number;
  status: 'issued' | 'paid';
  entry_count: number;
  period_end: string;
  date_created: string;
  date_paid: string | null;
}

export type SplitConfigList = Ok<{ split_configs: SplitConfigItem[]; count: number; has_more: boolean }>;
export type SplitConfigAnswer = Ok<{ split_config: SplitConfigItem }>;
export type LedgerPage = Ok<{ ledger_entries: LedgerEntryItem[]; count: number; has_more: boolean } & Named>;
export type LedgerSummary = Ok<
  { summary: { owed_to_you: CurrencyTotal[]; you_owe: CurrencyTotal[] }; by_counterparty: CounterpartyTotal[] } & Named
>;
export type InvoiceList = Ok<{ invoices: InvoiceItem[]; count: number; has_more: boolean }>;
export type InvoiceDetail = Ok<
  { invoice: InvoiceItem; ledger_entries: LedgerEntryItem[]; has_more_entries: boolean } & Named
>;

// ---- webhooks and events

/** A webhook endpoint as the dashboard shows it: never its signing secret. */
export type EndpointItem = Pick<
  CallbackView,
  'id' | 'url' | 'description' | 'events' | 'is_active' | 'failure_count' | 'last_triggered' | 'date_created'
>;

/** With the event types an endpoint may subscribe to, for the add and edit forms. */
export type EndpointList = Ok<{ endpoints: EndpointItem[]; event_types: readonly string[] }>;
export type EndpointAnswer = Ok<{ endpoint: EndpointItem }>;
/** The signing secret is in this answer only. */
export type EndpointCreated = Ok<{ endpoint: EndpointItem; secret: string }>;
export type EndpointTested = Ok<TestCallbackResult>;
export type SecretRolled = Ok<{ secret: string; previous_secret_expires_at: string | null }>;
export type DeliveryList = Ok<{ deliveries: DeliveryView[]; has_more: boolean }>;

export type EventList = Ok<{ events: EventView[]; has_more: boolean; event_types: readonly string[] }>;
export type EventDetail = Ok<{ event: EventView; deliveries: EventDeliveryView[] }>;

// ---- API keys and settings

export interface KeyItem {
  type: KeyType;
  mode: Mode;
  /** The key's first characters and an ellipsis: enough to recognise it, never the key. */
  masked: string;
  date_created: string;
  /** Set while a rolled key is in its grace period. */
  expires_at: string | null;
}

export type KeyList = Ok<{ keys: KeyItem[] }>;
/** The new key is in this answer only. */
export type KeyRolled = Ok<{ type: KeyType; mode: Mode; api_key: string; previous_key_expires_at: string }>;

/** A provider connection: /v1/connections's object, never a credential. */
export interface ConnectionItem {
  provider: ConnectionProvider;
  mode: Mode;
  /** Masked: its prefix and the last characters of its id. */
  account: string;
  /** The payment_method_codes this connection serves. */
  methods: string[];
  notification_url: string;
  date_created: string;
  date_updated: string;
}

/** A provider as the settings page shows it: connected or not, never a credential. */
export interface ProviderItem {
  provider: ConnectionProvider;
  /** The credential fields a connection takes (their names only), in the documented order. */
  fields: { name: string; secret: boolean }[];
  notification_url: string;
  /** Null when the provider is not connected in this mode. */
  connection: ConnectionItem | null;
}

export type Settings = Ok<{ redirect_origins: string[]; providers: ProviderItem[] }>;
export type RedirectOrigins = Ok<{ redirect_origins: string[] }>;
export type ConnectionAnswer = Ok<{ connection: ConnectionItem }>;
