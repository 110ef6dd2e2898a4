import type { KeyType, Mode } from './common';
import type { ErrorPayload } from './errors';
import type { LinkSplit, Metadata, MetadataInput, RefundStatus, TransactionFields, TransactionStatus } from './events';
import type { CreatedRange } from './webhook-events';

/**
 * Request/response message patterns between the gateway and the services (TCP RPC).
 * Every request is an RpcRequest<Body>; every reply is an RpcReply<Result>.
 */
export const RpcPatterns = {
  Ping: 'system.ping',
  TransactionsInitialize: 'transactions.initialize',
  TransactionsVerify: 'transactions.verify',
  TransactionsList: 'transactions.list',
  TransactionsFetch: 'transactions.fetch',
  RefundsCreate: 'refunds.create',
  RefundsGet: 'refunds.get',
  LinksCreate: 'links.create',
  LinksList: 'links.list',
  LinksGet: 'links.get',
  LinksDeactivate: 'links.deactivate',
  LinksUpdate: 'links.update',
  RefundsList: 'refunds.list',
  CheckoutGet: 'checkout.get',
  CheckoutPay: 'checkout.pay',
  ConnectionsPut: 'connections.put',
  ConnectionsList: 'connections.list',
  ConnectionsGet: 'connections.get',
  ConnectionsDelete: 'connections.delete',
  ProviderNotify: 'providers.notify',
  ProviderReturn: 'providers.return',
} as const;
export type RpcPattern = (typeof RpcPatterns)[keyof typeof RpcPatterns];

/**
 * Patterns whose service is idempotent on ctx.idempotency_key: after an unknown outcome the gateway reruns a same-key
 * retry once the first can no longer commit; for other patterns it keeps outcome_unknown (ADR 0014).
 */
export const KEY_IDEMPOTENT_PATTERNS: ReadonlySet<string> = new Set<string>([
  RpcPatterns.TransactionsInitialize,
  RpcPatterns.RefundsCreate,
]);

/** Who is asking: set by the gateway from the API key, never by the caller's body. */
export interface RpcContext {
  request_id: string;
  business_id: number;
  mode: Mode;
  key_type: KeyType;
  /**
   * The request's Idempotency-Key, bound to its key type and parameters (a hash, set by the
   * gateway): a service idempotent on it (KEY_IDEMPOTENT_PATTERNS) answers a re-run with what the
   * first run did, so a retry after an unknown outcome never applies the request twice.
   */
  idempotency_key?: string;
  /**
   * Set by the receiving RPC server from the signed envelope's ttl, on its own clock (epoch ms):
   * when the caller stops waiting. Never sent by the caller; a value in the body is replaced.
   */
  deadline_at?: number;
}

export interface RpcRequest<TBody = unknown> {
  ctx: RpcContext;
  body: TBody;
}

/** Requests of the hosted checkout page: no API key, the checkout id is the capability. */
export interface CheckoutRpcRequest<TBody = unknown> {
  ctx: { request_id: string };
  body: TBody;
}

export type RpcReply<T> = { ok: true; data: T } | { ok: false; error: ErrorPayload };

export interface PingReply {
  service: string;
  instance: string;
}

// ---- transactions.initialize
export interface InitializeTransactionBody {
  amount: number;
  email: string;
  currency: string;
  payment_method_type?: 'mobile_money' | 'card';
  payment_method_code?: string;
  mobile_money_number?: string;
  transaction_reference?: string;
  success_url?: string;
  failure_url?: string;
  requested_response?: 'success' | 'failed';
  metadata?: MetadataInput;
  description?: string | null;
}
export interface InitializeTransactionResult {
  transaction_id: string;
  transaction_reference: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  status: TransactionStatus;
  message: string;
  /** Set when the customer has to act on the hosted checkout page. */
  checkout_id: string | null;
  metadata: Metadata;
  description: string | null;
  /** A payment sent to a provider: where to send the customer's browser (web flows). */
  authorization_url?: string;
  /** A code the customer approves in their wallet (InnBucks), and until when, as the provider wrote it. */
  authorization_code?: string;
  authorization_expires?: string;
  /** What the provider asks the customer to do. */
  instructions?: string;
}

// ---- transactions.verify
export interface VerifyTransactionBody {
  reference: string;
}
/** A transaction as the gateway answers with it: its fields, where the customer goes back to, and what was refunded. */
export interface TransactionView extends TransactionFields {
  success_url: string | null;
  failure_url: string | null;
  /** Sum of the successful refunds, minor units. */
  amount_refunded: number;
  /** `{}` when none was set. */
  metadata: Metadata;
  description: string | null;
}

// ---- transactions.list
export interface ListTransactionsBody extends CursorPageBody {
  /** Inclusive UTC days, YYYY-MM-DD. */
  start_date?: string;
  end_date?: string;
  status?: TransactionStatus;
  reference?: string;
  /** Matched without regard to case. */
  email?: string;
  payment_link_id?: string;
  /** The method the payment was made with (`ecocash`, `card`, …): the merchant dashboard's filter. */
  payment_method_code?: string;
  /** ISO-8601 bounds on the creation time. */
  created?: CreatedRange;
}
export interface ListTransactionsResult {
  transactions: TransactionView[];
  has_more: boolean;
}

// ---- transactions.fetch
export interface FetchTransactionBody {
  public_id: string;
}

// ---- refunds
export interface CreateRefundBody {
  transaction_reference: string;
  /** Absent: what is left to refund (the amount minus every refund that has not failed). */
  amount?: number;
  reason?: string;
  metadata?: MetadataInput;
  description?: string | null;
}
/** Oldest first; without a limit every refund (a transaction has few), with one a cursor page in that order. */
export interface ListRefundsBody {
  transaction_reference: string;
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}
export interface ListRefundsResult {
  refunds: RefundView[];
  has_more: boolean;
}
export interface GetRefundBody {
  refund_id: string;
}
export interface RefundView {
  refund_id: string;
  transaction_id: string;
  transaction_reference: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  message: string;
  reason: string | null;
  metadata: Metadata;
  description: string | null;
  date_created: string;
  date_updated: string;
}

// ---- links.create
export interface CreateLinkBody {
  amount: number;
  currency: string;
  description: string;
  splits?: LinkSplit[];
  success_url?: string;
  failure_url?: string;
  metadata?: MetadataInput;
}
export interface LinkView {
  payment_link_id: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  description: string;
  metadata: Metadata;
  splits: LinkSplit[];
  active: boolean;
  success_url: string | null;
  failure_url: string | null;
  date_created: string;
  date_updated: string;
  date_deactivated: string | null;
}
/** A cursor page, newest first: `starting_after` goes to older objects, `ending_before` to newer ones. */
export interface CursorPageBody {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}
export type ListLinksBody = CursorPageBody;
export interface ListLinksResult {
  links: LinkView[];
  has_more: boolean;
}
export interface LinkIdBody {
  payment_link_id: string;
}
/** links.update: absent fields stay; metadata merges with Stripe's semantics (see @payments/domain mergeMetadata). */
export interface UpdateLinkBody extends LinkIdBody {
  description?: string;
  metadata?: MetadataInput;
}

// ---- checkout
export interface CheckoutGetBody {
  checkout_id: string;
}
/** What the hosted page shows: a transaction awaiting its customer, or a payment link. */
export interface CheckoutView {
  kind: 'transaction' | 'link';
  checkout_id: string;
  business_id: number;
  mode: Mode;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  description: string | null;
  /** `inactive`: a payment link its merchant deactivated; it can no longer be paid. */
  status: TransactionStatus | 'open' | 'inactive';
  message: string;
  /** Fixed by the merchant at initialization, or null when the customer chooses. */
  payment_method_code: string | null;
  email: string | null;
  transaction_reference: string | null;
  success_url: string | null;
  failure_url: string | null;
  /**
   * A payment waiting at its provider (live, or a test-mode connection): who, and what the
   * customer does there (go to its page, enter a code, approve a prompt). Absent otherwise.
   */
  provider?: {
    name: string;
    authorization_url: string | null;
    authorization_code: string | null;
    instructions: string | null;
  };
}
export interface CheckoutPayBody {
  checkout_id: string;
  action: 'pay' | 'decline';
  payment_method_code?: string;
  mobile_money_number?: string;
  /** Required when paying a payment link (the customer's address). */
  email?: string;
  /** A payment-link page's one-time token: submitting the same page twice pays once. */
  attempt_token?: string;
}
export interface CheckoutPayResult {
  /** The transaction's checkout id (a payment link creates a new transaction per payment). */
  checkout_id: string;
  transaction_id: string;
  status: TransactionStatus;
}
