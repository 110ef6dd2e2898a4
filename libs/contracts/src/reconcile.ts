import type { Mode } from './common';
import type { RefundStatus, TransactionStatus } from './events';

/**
 * Read-only operator patterns that `ops reconcile` compares across services (gateway admin API
 * only). Every name is under `admin.` so the RPC layer can require the admin scope for them.
 * Each answers what its service recorded, one page at a time.
 */
export const ReconcileAdminRpcPatterns = {
  /** transaction-service: transactions with their refunds, in id order. */
  Transactions: 'admin.reconcile.transactions',
  /** split-ledger-service: its copy of the given transactions, entries and what its rules expect. */
  Ledger: 'admin.reconcile.ledger',
  /** webhook-dispatcher: the latest transaction.* event recorded per transaction. */
  WebhookTransactions: 'admin.reconcile.webhook-transactions',
  /** webhook-dispatcher: catalogue events with the callbacks they have a delivery for, in order. */
  WebhookEvents: 'admin.reconcile.webhook-events',
  /** webhook-dispatcher: callbacks, in id order. */
  WebhookCallbacks: 'admin.reconcile.webhook-callbacks',
} as const;

/** A page request by cursor (`null` for the first page). */
export interface ReconcilePageBody {
  after: string | null;
  limit: number;
}

export interface ReconcileTransaction {
  id: string;
  transaction_id: string;
  business_id: number;
  mode: Mode;
  amount: number;
  status: TransactionStatus;
  refunds: { id: string; amount: number; status: RefundStatus }[];
  /** When it last changed (ISO-8601): its events may since have been pruned by webhook-dispatcher. */
  updated_at: string;
}
export interface ReconcileTransactionsResult {
  transactions: ReconcileTransaction[];
  next: string | null;
}

export interface ReconcileLedgerBody {
  ids: string[];
}
/** `config:<split config id>` or `link:<index of the payment link's split>`. */
export type SplitKey = string;
export interface ReconcileLedgerTransaction {
  id: string;
  status: TransactionStatus;
  amount: number;
  refunds: { id: string; amount: number; status: RefundStatus }[];
  /** Split entries written: each with what its reversals undo in all (≥ 0). */
  splits: { key: SplitKey; amount: number; reversed: number }[];
  /** The split entries the ledger's rules give for this transaction (success only). */
  expected: { key: SplitKey; amount: number }[];
}
export interface ReconcileLedgerResult {
  transactions: ReconcileLedgerTransaction[];
}

export interface ReconcileWebhookTransactionsBody {
  transaction_ids: string[];
}
export interface ReconcileWebhookTransactionsResult {
  transactions: { transaction_id: string; status: TransactionStatus }[];
  /** Events older than this (ISO-8601) may have been pruned (EVENT_RETENTION). */
  retained_since: string;
}

export interface ReconcileWebhookEvent {
  event_id: string;
  event_type: string;
  business_id: number;
  mode: Mode;
  created_at: string;
  /** Callback ids with a delivery of this event, one element per delivery. */
  delivered_to: number[];
}
export interface ReconcileWebhookEventsResult {
  events: ReconcileWebhookEvent[];
  next: string | null;
}

export interface ReconcileCallback {
  id: number;
  business_id: number;
  mode: Mode;
  events: string[];
  is_active: boolean;
  deleted: boolean;
  created_at: string;
}
export interface ReconcileCallbacksResult {
  callbacks: ReconcileCallback[];
  next: string | null;
}

/** The rows of one reconcile page the services answer: what `ops reconcile` asked for, between 1 and 1 000. */
export const reconcilePageSize = (limit: number): number => Math.min(Math.max(1, Math.trunc(limit) || 1), 1_000);
