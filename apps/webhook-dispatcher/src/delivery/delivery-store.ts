import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { queryRows } from '@payments/database';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

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
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface CallbackRow {
  id: number;
  business_id: number;
  mode: 'test' | 'live';
  url: string;
  description: string;
  events: string[];
  is_active: boolean;
  failure_count: number;
  disabled_reason: string | null;
  last_triggered: Date | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** Database side of deliveries: fan-out, queue hand-off, claims and state changes. */
@Injectable()
export class DeliveryStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * One delivery per active callback of the event's business and mode that subscribes to it.
   * Runs inside the consumer's inbox transaction; the unique (event, callback) pair makes it idempotent.
   */
  async fanOut(m: EntityManager, eventId: string, businessId: number, mode: string, eventType: string): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      m,
      `INSERT INTO deliveries (public_id, event_id, callback_id, status, next_attempt_at)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), $1, c.id, 'pending', now()
         FROM callbacks c
        WHERE c.business_id = $2 AND c.mode = $3 AND c.is_active AND c.deleted_at IS NULL AND $4 = ANY (c.events)
       ON CONFLICT (event_id, callback_id) DO NOTHING
       RETURNING id`,
      [eventId, businessId, mode, eventType],
    );
    return rows.length;
  }

  /** Deliveries waiting for a queue job; marks them handed over. Called inside a transaction. */
  async claimForEnqueue(m: EntityManager, limit: number): Promise<DeliveryRow[]> {
    return queryRows<DeliveryRow>(
      m,
      `UPDATE deliveries SET enqueued_at = now(), enqueue_count = enqueue_count + 1
        WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND enqueued_at IS NULL
                      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [limit],
    );
  }

  /**
   * Pending deliveries that were handed to the queue a while ago and are overdue, and that no live
   * worker holds: candidates for a lost job (a crash, a Redis restart). The caller checks the queue.
   */
  async overdue(graceSeconds: number, limit: number): Promise<Pick<DeliveryRow, 'id' | 'attempts' | 'enqueue_count'>[]> {
    return queryRows(
      this.ds,
      `SELECT id, attempts, enqueue_count FROM deliveries
        WHERE status = 'pending' AND enqueued_at IS NOT NULL
          AND enqueued_at < now() - make_interval(secs => $1)
          AND next_attempt_at < now() - make_interval(secs => $1)
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT $2`,
      [graceSeconds, limit],
    );
  }

  /** Hands a delivery back to the enqueuer, unless it was queued again in the meantime. */
  async release(id: string, enqueueCount: number): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.ds,
      `UPDATE deliveries SET enqueued_at = NULL WHERE id = $1 AND status = 'pending' AND enqueue_count = $2 RETURNING id`,
      [id, enqueueCount],
    );
    return rows.length > 0;
  }

  /**
   * Takes one attempt of a delivery for this worker, in one statement: still pending, still at
   * that attempt, not held by another worker, and its callback below its concurrency limit. The
   * limit is counted without locking the callback, so two workers racing for the last slot may
   * both win: a soft limit, traded for no lock contention on a busy callback.
   */
  async claimAttempt(deliveryId: string, attempt: number, lockSeconds: number, perCallbackLimit: number): Promise<{ delivery: DeliveryRow } | 'busy' | null> {
    const [delivery] = await queryRows<DeliveryRow>(
      this.ds,
      `UPDATE deliveries d SET locked_until = now() + make_interval(secs => $3), updated_at = now()
        WHERE d.id = $1 AND d.status = 'pending' AND d.attempts = $2 AND (d.locked_until IS NULL OR d.locked_until < now())
          AND (SELECT count(*) FROM deliveries x WHERE x.callback_id = d.callback_id AND x.locked_until IS NOT NULL AND x.locked_until > now()) < $4
        RETURNING d.*`,
      [deliveryId, attempt, lockSeconds, perCallbackLimit],
    );
    if (delivery) return { delivery };
    const waiting = await queryRows<{ id: string }>(
      this.ds,
      `SELECT id FROM deliveries WHERE id = $1 AND status = 'pending' AND attempts = $2 AND (locked_until IS NULL OR locked_until < now())`,
      [deliveryId, attempt],
    );
    return waiting.length > 0 ? 'busy' : null;
  }
}
