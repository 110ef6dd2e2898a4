import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PING_EVENT, type DeliveryStatus, type RecoverableDeliveryView } from '@payments/contracts';
import { queryRows } from '@payments/database';

export type { DeliveryStatus };

/** Whose failed and skipped deliveries to recover: one callback, or every callback of a business and mode. */
export type RecoverScope = { callbackId: number } | { businessId: number; mode: string };

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
  failing_since: Date | null;
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
   * One delivery per callback of each event's business and mode that subscribes to it: `pending`
   * for an active callback, `skipped` for a disabled one, so an outage loses no event (`recover`
   * sends skipped deliveries once the callback is active again). Runs inside the consumer's inbox
   * transaction; the unique (event, callback) pair makes it idempotent.
   */
  async fanOut(m: EntityManager, eventIds: string[]): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      m,
      `INSERT INTO deliveries (public_id, event_id, callback_id, status, next_attempt_at, last_error)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), e.id, c.id,
              CASE WHEN c.is_active THEN 'pending' ELSE 'skipped' END,
              CASE WHEN c.is_active THEN now() END,
              CASE WHEN c.is_active THEN NULL ELSE 'callback disabled' END
         FROM webhook_events e
         JOIN callbacks c ON c.business_id = e.business_id AND c.mode = e.mode AND c.deleted_at IS NULL AND e.event_type = ANY (c.events)
        WHERE e.id = ANY ($1::text[])
        ORDER BY array_position($1::text[], e.id), c.id
       ON CONFLICT (event_id, callback_id) DO NOTHING
       RETURNING id`,
      [eventIds],
    );
    return rows.length;
  }

  /**
   * Failed and skipped deliveries created since `since` of active callbacks in `scope`, in id
   * order after the cursor `after`: queued again (a fresh retry cycle), or only listed on a dry run.
   * Test pings are never recovered: each was a one-off check.
   */
  async recover(scope: RecoverScope, since: string, opts: { dryRun: boolean; after: string | null; limit: number | null }): Promise<(RecoverableDeliveryView & { id: string })[]> {
    const byCallback = 'callbackId' in scope;
    const params: unknown[] = [byCallback ? scope.callbackId : scope.businessId, byCallback ? null : scope.mode, since, opts.after ?? '0', opts.limit];
    const page = `SELECT d.id FROM deliveries d JOIN callbacks c ON c.id = d.callback_id
        WHERE ${byCallback ? 'c.id = $1 AND $2::text IS NULL' : 'c.business_id = $1 AND c.mode = $2'} AND c.is_active AND c.deleted_at IS NULL
          AND d.status IN ('failed', 'skipped') AND d.created_at >= $3 AND d.id > $4::bigint
          AND NOT EXISTS (SELECT 1 FROM webhook_events p WHERE p.id = d.event_id AND p.event_type = '${PING_EVENT}')
        ORDER BY d.id LIMIT $5`;
    const picked = opts.dryRun
      ? `SELECT d.id, d.status FROM deliveries d WHERE d.id IN (${page})`
      : `UPDATE deliveries d SET status = 'pending', cycle_start = d.attempts, next_attempt_at = now(), enqueued_at = NULL, last_error = NULL, updated_at = now()
           FROM deliveries before WHERE before.id = d.id AND d.id IN (${page}) AND d.status IN ('failed', 'skipped')
         RETURNING d.id, before.status`;
    const rows = await queryRows<Omit<RecoverableDeliveryView, 'date_created'> & { id: string; created_at: Date }>(
      this.ds,
      `WITH picked AS (${picked})
       SELECT d.id, d.public_id AS delivery_id, d.callback_id, d.event_id, e.event_type AS event, p.status, d.created_at
         FROM picked p JOIN deliveries d ON d.id = p.id JOIN webhook_events e ON e.id = d.event_id
        ORDER BY d.id`,
      params,
    );
    return rows.map(({ created_at, ...r }) => ({ ...r, date_created: created_at.toISOString() }));
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
   * Takes one attempt of a delivery for this worker, in one statement that also returns its
   * callback and event: still pending, still at that attempt, not held by another worker, and its
   * callback below its concurrency limit. The limit is counted without locking the callback, so
   * two workers racing for the last slot may both win: a soft limit, traded for no lock
   * contention on a busy callback.
   */
  async claimAttempt(deliveryId: string, attempt: number, lockSeconds: number, perCallbackLimit: number): Promise<ClaimedAttempt | 'busy' | null> {
    const [claimed] = await queryRows<DeliveryRow & { callback_json: Record<string, unknown> | null; event_json: Record<string, unknown> | null }>(
      this.ds,
      `UPDATE deliveries d SET locked_until = now() + make_interval(secs => $3), updated_at = now()
        WHERE d.id = $1 AND d.status = 'pending' AND d.attempts = $2 AND (d.locked_until IS NULL OR d.locked_until < now())
          AND (SELECT count(*) FROM deliveries x WHERE x.callback_id = d.callback_id AND x.locked_until IS NOT NULL AND x.locked_until > now()) < $4
        RETURNING d.*,
          (SELECT row_to_json(c) FROM callbacks c WHERE c.id = d.callback_id) AS callback_json,
          (SELECT json_build_object('id', e.id, 'event_type', e.event_type, 'mode', e.mode, 'payload', e.payload, 'created_at', e.created_at)
             FROM webhook_events e WHERE e.id = d.event_id) AS event_json`,
      [deliveryId, attempt, lockSeconds, perCallbackLimit],
    );
    if (claimed) {
      const { callback_json, event_json, ...delivery } = claimed;
      return { delivery, callback: callback_json ? withDates<CallbackRow>(callback_json, CALLBACK_DATES) : null, event: withDates<WebhookEventRow>(event_json!, ['created_at']) };
    }
    const waiting = await queryRows<{ id: string }>(
      this.ds,
      `SELECT id FROM deliveries WHERE id = $1 AND status = 'pending' AND attempts = $2 AND (locked_until IS NULL OR locked_until < now())`,
      [deliveryId, attempt],
    );
    return waiting.length > 0 ? 'busy' : null;
  }

  /**
   * Records a successful attempt in one statement: the attempt row, and the delivery succeeded if
   * it is still this worker's. No callback lock: nothing here writes the callback row (see
   * touchCallback), so a concurrent DELETE of the callback cannot deadlock with it. False when the
   * delivery moved on meanwhile.
   */
  async recordSuccess(deliveryId: string, previousAttempts: number, statusCode: number | null, durationMs: number): Promise<boolean> {
    const [row] = await queryRows<{ done: number }>(
      this.ds,
      `WITH attempt AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error) VALUES ($1, $2 + 1, $3, $4, NULL) ON CONFLICT DO NOTHING
       ), done AS (
         UPDATE deliveries SET status = 'succeeded', attempts = $2 + 1, locked_until = NULL, next_attempt_at = NULL, last_error = NULL, updated_at = now()
          WHERE id = $1 AND status = 'pending' AND attempts = $2 RETURNING id
       )
       SELECT count(*)::int AS done FROM done`,
      [deliveryId, previousAttempts, statusCode, durationMs],
    );
    return row.done > 0;
  }

  /** After a success: clears the failure streak and notes the time, at most about once a second per callback. */
  async touchCallback(callbackId: number): Promise<void> {
    await this.ds.query(
      `UPDATE callbacks SET failure_count = 0, failing_since = NULL, last_triggered = now()
        WHERE id = $1 AND (failure_count <> 0 OR last_triggered IS NULL OR last_triggered < now() - interval '1 second')`,
      [callbackId],
    );
  }
}

export interface WebhookEventRow {
  id: string;
  event_type: string;
  mode: string;
  payload: unknown;
  created_at: Date;
}

export interface ClaimedAttempt {
  delivery: DeliveryRow;
  /** Null when the callback row is gone. */
  callback: CallbackRow | null;
  event: WebhookEventRow;
}

const CALLBACK_DATES = ['last_triggered', 'failing_since', 'previous_secret_expires_at', 'created_at', 'updated_at', 'deleted_at'] as const;

/** Rows that travelled as JSON carry timestamps as strings: back to Dates, as pg gives them. */
function withDates<T>(json: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = { ...json };
  for (const f of fields) out[f] = typeof out[f] === 'string' ? new Date(out[f] as string) : (out[f] ?? null);
  return out as T;
}
