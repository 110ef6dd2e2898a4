import type { CursorPageBody } from './rpc';
import type { Mode } from './common';

/**
 * Callbacks (webhook endpoints) and deliveries: RPC patterns between the gateway and
 * webhook-dispatcher, their payload types, and the BullMQ queue names.
 */
export const WebhookRpcPatterns = {
  CallbacksCreate: 'callbacks.create',
  CallbacksList: 'callbacks.list',
  CallbacksGet: 'callbacks.get',
  CallbacksUpdate: 'callbacks.update',
  CallbacksDelete: 'callbacks.delete',
  CallbacksSecret: 'callbacks.secret',
  CallbacksRollSecret: 'callbacks.secret.roll',
  DeliveriesList: 'deliveries.list',
  DeliveriesResend: 'deliveries.resend',
  DeliveriesRecover: 'deliveries.recover',
  CallbacksTest: 'callbacks.test',
  EventsList: 'events.list',
  EventsGet: 'events.get',
  /** A transaction's and its refunds' events, oldest first, with the deliveries each caused (dashboard). */
  EventsOfTransaction: 'events.of_transaction',
  /** The webhook deliveries one event caused, oldest first (the dashboard's event page). */
  EventsDeliveries: 'events.deliveries',
} as const;

/**
 * Operator patterns of webhook-dispatcher (gateway admin API only, never a merchant's key): every
 * name is under `admin.` so the RPC layer can require the admin scope for them.
 */
export const WebhookAdminRpcPatterns = {
  /** Queue again (or, dry run, list) a business's failed and skipped deliveries; paged. */
  DeliveriesRecover: 'admin.webhooks.deliveries.recover',
} as const;

/**
 * BullMQ queue names. Renaming one strands the jobs already waiting in Redis under the old name:
 * add a new queue and drain the old one instead.
 */
export const Queues = {
  WebhookDeliveries: 'webhook-deliveries',
} as const;

export interface CreateCallbackBody {
  url: string;
  events: string[];
  description?: string;
}
/** Cursor paging; `skip` then counts from the cursor. */
export interface ListCallbacksBody extends CursorPageBody {
  skip: number;
}
export interface CallbackIdBody {
  id: number;
}
export interface UpdateCallbackBody {
  id: number;
  url?: string;
  events?: string[];
  is_active?: boolean;
  description?: string;
}
export interface CallbackView {
  id: number;
  url: string;
  description: string;
  events: string[];
  is_active: boolean;
  failure_count: number;
  last_triggered: string | null;
  date_created: string;
  date_updated: string;
}
export interface ListCallbacksResult {
  callbacks: CallbackView[];
  total_count: number;
  has_more: boolean;
}
export interface CallbackSecretView {
  secret: string;
  /** Set after a roll: until then the previous secret also signs every delivery. */
  previous_secret_expires_at: string | null;
}
/**
 * `skipped`: the event was raised while the callback was disabled; nothing was sent, and
 * `recover` sends it once the callback is active again.
 */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Cursor paging; `skip` then counts from the cursor. */
export interface ListDeliveriesBody extends CursorPageBody {
  id: number;
  skip: number;
  status?: DeliveryStatus;
}
export interface DeliveryAttemptView {
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  date_created: string;
}
export interface DeliveryView {
  delivery_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: DeliveryAttemptView[];
  next_attempt_at: string | null;
  date_created: string;
}
export interface ListDeliveriesResult {
  deliveries: DeliveryView[];
  total_count: number;
  has_more: boolean;
}
export interface ResendDeliveryBody {
  id: number;
  delivery_id: string;
}
export interface RecoverDeliveriesBody {
  id: number;
  since: string;
}
export interface RecoverDeliveriesResult {
  requeued: number;
}

export interface AdminRecoverDeliveriesBody {
  business_id: number;
  mode: Mode;
  since: string;
  /** List what would be sent; change nothing. */
  dry_run: boolean;
  /** Paging: deliveries after this cursor (from the previous page's `next`). */
  after: string | null;
  limit: number;
}
export interface RecoverableDeliveryView {
  delivery_id: string;
  callback_id: number;
  event_id: string;
  event: string;
  status: 'failed' | 'skipped';
  date_created: string;
}
export interface AdminRecoverDeliveriesResult {
  /** This page: queued again, or (dry run) what would be. */
  deliveries: RecoverableDeliveryView[];
  /** Cursor of the next page; null when this was the last. */
  next: string | null;
  /** On the first page (no `after`): how many match in all. */
  total: number | null;
}

// ---- events.of_transaction
export interface EventsOfTransactionBody {
  transaction_id: string;
}
export interface TransactionEventDelivery {
  delivery_id: string;
  callback_id: number;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
}
export interface TransactionEventView {
  id: string;
  event: string;
  created_at: string;
  deliveries: TransactionEventDelivery[];
}
export interface EventsOfTransactionResult {
  events: TransactionEventView[];
  /** More than the 200 listed. */
  has_more: boolean;
}

// ---- events.deliveries
export interface EventDeliveriesBody {
  event_id: string;
}
export interface EventDeliveryView extends TransactionEventDelivery {
  /** The endpoint's URL now (its id stays the same after an edit). */
  callback_url: string;
  /** The HTTP status of the latest attempt; null before one, or when nothing answered. */
  last_status_code: number | null;
  date_created: string;
}
export interface EventDeliveriesResult {
  deliveries: EventDeliveryView[];
}
