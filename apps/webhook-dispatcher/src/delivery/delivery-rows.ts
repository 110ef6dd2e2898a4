import type { DeliveryStatus } from '@payments/contracts';
import { columnList, qualify } from '@payments/database';
import type { CallbackRow } from '../callbacks/callback-store';
import type { WebhookEventRow } from '../events/events-store';

export type { DeliveryStatus };

/** The rows DeliveryStore reads and writes, and what its callers hand it. */

export interface DeliveryRow {
  id: string;
  public_id: string;
  event_id: string;
  callback_id: number;
  status: DeliveryStatus;
  attempts: number;
  cycle_start: number;
  next_attempt_at: Date | null;
  enqueued_at: Date | null;
  enqueue_count: number;
  locked_until: Date | null;
  /** Who holds the claim: written by each claim, required by every write of that attempt's outcome. */
  lock_token: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of DeliveryRow, in the table's order: what each statement reads or returns. */
export const DELIVERY_COLUMNS = columnList<DeliveryRow>({
  id: true,
  public_id: true,
  event_id: true,
  callback_id: true,
  status: true,
  attempts: true,
  cycle_start: true,
  next_attempt_at: true,
  enqueued_at: true,
  enqueue_count: true,
  locked_until: true,
  last_error: true,
  created_at: true,
  updated_at: true,
  lock_token: true,
});

/** The same list over the alias `d`. */
export const DELIVERY_COLUMNS_D = qualify(DELIVERY_COLUMNS, 'd');
/** The same list over the alias `i`. */
export const DELIVERY_COLUMNS_I = qualify(DELIVERY_COLUMNS, 'i');

/** A delivery written by the fan-out. */
export interface FannedOut {
  id: string;
  callback_id: number;
  status: DeliveryStatus;
  enqueue_count: number;
  /** Claimed in the fan-out for its first attempt (handed over, within its callback's limit); null otherwise. */
  claimed: ClaimedAttempt | null;
}

/** What a fan-out that hands its deliveries over claims them with (DeliveryStore.recordAndFanOut). */
export interface FirstAttemptClaims {
  /** Deliveries the fan-out claims at most (attempts that can start at once); 0 hands over without claiming. */
  most: number;
  /** A callback's claims in flight at most, counting those of the fan-out. */
  perCallbackLimit: number;
  /** How long a claim made in the fan-out holds, counted from its insert. */
  lockSeconds: number;
}

export type { WebhookEventRow };

/** The claimed delivery an outcome is written for: its id, its claim's token and the attempts made before it. */
export type ClaimRef = Pick<DeliveryRow, 'id' | 'lock_token' | 'attempts'>;

/** A row of DeliveryStore.overdue, and the keyset cursor of the next page. */
export type OverdueRow = Pick<DeliveryRow, 'id' | 'attempts' | 'enqueue_count' | 'next_attempt_at'>;
export type OverdueCursor = Pick<DeliveryRow, 'id' | 'next_attempt_at'>;

export interface FailedAttempt {
  deliveryId: string;
  /** The claim's token (DeliveryRow.lock_token): only its holder records the outcome. */
  lockToken: string | null;
  /** Attempts made before this one. */
  previousAttempts: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** Null: give up (the delivery fails). */
  retryInSeconds: number | null;
}

export interface ClaimedAttempt {
  delivery: DeliveryRow;
  /** Null when the callback row is gone. */
  callback: CallbackRow | null;
  event: WebhookEventRow;
}
