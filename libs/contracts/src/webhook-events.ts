import type { WebhookEventBody } from './webhook-payloads';

/**
 * Events API and test webhooks: RPC payloads between the gateway and webhook-dispatcher. An event
 * is the same object a callback receives as its request body.
 */

/** Every event name a callback may subscribe to and the events API lists (docs/api.md, Webhooks). */
export const EVENT_CATALOGUE = [
  'payment.created',
  'payment.updated',
  'payment.completed',
  'transaction.pending',
  'transaction.processing',
  'transaction.success',
  'transaction.failed',
  'refund.pending',
  'refund.success',
  'refund.failed',
  'payout.created',
  'payout.completed',
] as const;
export type CatalogueEvent = (typeof EVENT_CATALOGUE)[number];

/** The event a test webhook sends; never stored as a catalogue event, never subscribable. */
export const PING_EVENT = 'ping';

/** `created[...]` bounds of an event list, as ISO-8601 timestamps. */
export interface CreatedRange {
  gte?: string;
  gt?: string;
  lte?: string;
  lt?: string;
}

/**
 * How the events list is ordered, newest first either way: `created` by the events' own time;
 * `recorded` by when the dispatcher recorded them, listing only events no still-running write can
 * be ordered before, so a follower paging towards newer events (ending_before) misses none.
 */
export const EVENT_LIST_ORDERS = ['created', 'recorded'] as const;
export type EventListOrder = (typeof EVENT_LIST_ORDERS)[number];

export interface ListEventsBody {
  order?: EventListOrder;
  type?: string;
  created: CreatedRange;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/** One event: exactly the JSON body its webhook deliveries carry (schema in ./webhook-payloads). */
export type EventView = WebhookEventBody;

/**
 * The exact bytes a webhook delivery of an event carries, signed as they are: the one writer for
 * the dispatcher's deliveries and test pings and for `ops webhooks listen`, in the key order of
 * the event's schema (webhook-payloads.ts, which only the gateway loads).
 */
export function webhookBody(e: WebhookEventBody): string {
  return JSON.stringify({ id: e.id, event: e.event, created_at: e.created_at, mode: e.mode, data: e.data });
}

export interface ListEventsResult {
  events: EventView[];
  has_more: boolean;
}

export interface EventIdBody {
  id: string;
}

/** The outcome of one synchronous test attempt; status_code is null when nothing answered. */
export interface TestCallbackResult {
  event_id: string;
  delivery_id: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}
