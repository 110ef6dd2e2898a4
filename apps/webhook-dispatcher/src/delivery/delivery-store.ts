import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, GroupCommit, queryRows } from '@payments/database';
import type { DeliveryStatus } from '@payments/contracts';
import type { CallbackRow } from '../callbacks/callback-store';

export type { DeliveryStatus };

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


/**
 * The worker's side of `deliveries` and `delivery_attempts`: fan-out, queue hand-off, claims and
 * the outcome of each attempt (what merchants and operators do to them is in DeliveryAdminStore).
 * It reads `callbacks` and `webhook_events` only to know whom to deliver what.
 */
@Injectable()
export class DeliveryStore {
  private readonly claims = new GroupCommit<Claim, ClaimedAttempt | null>((items) => this.claimMany(items));
  private readonly successes = new GroupCommit<Success, boolean>((items) => this.recordSuccesses(items));

  constructor(private readonly ds: DataSource) {}

  /**
   * One delivery per callback of each event's business and mode that subscribes to it: `pending`
   * for an active callback, `skipped` for a disabled one, so an outage loses no event (`recover`
   * sends skipped deliveries once the callback is active again). Runs inside the consumer's inbox
   * transaction; the unique (event, callback) pair makes it idempotent. With `handOver`, the
   * pending ones are written already handed over (`enqueued_at` set, as the enqueuer would), for
   * the caller to attempt in-process once the transaction commits: the enqueuer leaves them alone,
   * and the reconciler queues any that this process never got to (a crash).
   */
  async fanOut(m: EntityManager, eventIds: string[], handOver = false): Promise<FannedOut[]> {
    return queryRows<FannedOut>(
      m,
      `INSERT INTO deliveries (public_id, event_id, callback_id, status, next_attempt_at, last_error, enqueued_at, enqueue_count)
       SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), e.id, c.id,
              CASE WHEN c.is_active THEN 'pending' ELSE 'skipped' END,
              CASE WHEN c.is_active THEN now() END,
              CASE WHEN c.is_active THEN NULL ELSE 'callback disabled' END,
              CASE WHEN c.is_active AND $2 THEN now() END,
              CASE WHEN c.is_active AND $2 THEN 1 ELSE 0 END
         FROM webhook_events e
         JOIN callbacks c ON c.business_id = e.business_id AND c.mode = e.mode AND c.deleted_at IS NULL AND e.event_type = ANY (c.events)
        WHERE e.id = ANY ($1::text[])
        ORDER BY array_position($1::text[], e.id), c.id
       ON CONFLICT (event_id, callback_id) DO NOTHING
       RETURNING id, callback_id, status, enqueue_count`,
      [eventIds, handOver],
    );
  }

  /** Hands deliveries taken for an in-process attempt, and never attempted, back to the enqueuer. */
  async releaseMany(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ds.query(`UPDATE deliveries SET enqueued_at = NULL WHERE id = ANY($1::bigint[]) AND status = 'pending' AND attempts = 0 AND enqueue_count = 1 AND locked_until IS NULL`, [ids]);
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
   * contention on a busy callback. Claims that arrive together go out in one statement
   * (GroupCommit); each counts the callback's attempts as they were before that statement, and
   * the in-process CallbackGate keeps one process's own claims within the limit.
   */
  async claimAttempt(deliveryId: string, attempt: number, lockSeconds: number, perCallbackLimit: number): Promise<ClaimedAttempt | 'busy' | null> {
    const claimed = await this.claims.submit({ deliveryId, attempt, lockSeconds, perCallbackLimit });
    if (claimed) return claimed;
    const waiting = await queryRows<{ id: string }>(
      this.ds,
      `SELECT id FROM deliveries WHERE id = $1 AND status = 'pending' AND attempts = $2 AND (locked_until IS NULL OR locked_until < now())`,
      [deliveryId, attempt],
    );
    return waiting.length > 0 ? 'busy' : null;
  }

  private async claimMany(items: Claim[]): Promise<(ClaimedAttempt | null)[]> {
    const rows = await queryRows<DeliveryRow & { callback_json: Record<string, unknown> | null; event_json: Record<string, unknown> | null }>(
      this.ds,
      `WITH input AS (
         SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[]) AS t(id, attempt, lock_seconds, max_in_flight)
       ),
       ranked AS ( -- the count below predates this statement: ranked, one callback's claims stay within its limit
         SELECT t.*, row_number() OVER (PARTITION BY x.callback_id ORDER BY t.id) AS rank
           FROM input t JOIN deliveries x ON x.id = t.id
       )
       UPDATE deliveries d SET locked_until = now() + make_interval(secs => i.lock_seconds), updated_at = now()
         FROM ranked i
        WHERE d.id = i.id AND d.status = 'pending' AND d.attempts = i.attempt AND (d.locked_until IS NULL OR d.locked_until < now())
          AND (SELECT count(*) FROM deliveries x WHERE x.callback_id = d.callback_id AND x.locked_until IS NOT NULL AND x.locked_until > now()) + i.rank <= i.max_in_flight
        RETURNING d.*,
          (SELECT row_to_json(c) FROM callbacks c WHERE c.id = d.callback_id) AS callback_json,
          (SELECT json_build_object('id', e.id, 'event_type', e.event_type, 'mode', e.mode, 'payload', e.payload, 'created_at', e.created_at)
             FROM webhook_events e WHERE e.id = d.event_id) AS event_json`,
      [items.map((i) => i.deliveryId), items.map((i) => i.attempt), items.map((i) => i.lockSeconds), items.map((i) => i.perCallbackLimit)],
    );
    const byId = new Map<string, ClaimedAttempt>();
    for (const { callback_json, event_json, ...delivery } of rows) {
      byId.set(String(delivery.id), {
        delivery,
        callback: callback_json ? withDates<CallbackRow>(callback_json, CALLBACK_DATES) : null,
        event: withDates<WebhookEventRow>(event_json!, ['created_at']),
      });
    }
    return items.map((i) => byId.get(i.deliveryId) ?? null);
  }

  /**
   * Records a successful attempt: the attempt row, and the delivery succeeded if it is still this
   * worker's. No callback lock: nothing here writes the callback row (see
   * CallbackStore.recordSuccess), so a concurrent DELETE of the callback cannot deadlock with it.
   * False when the delivery moved on meanwhile. Successes that arrive together are written
   * together (GroupCommit).
   */
  recordSuccess(deliveryId: string, previousAttempts: number, statusCode: number | null, durationMs: number): Promise<boolean> {
    return this.successes.submit({ deliveryId, previousAttempts, statusCode, durationMs });
  }

  /** Several successes in one statement; true for each delivery that was still this worker's. */
  private async recordSuccesses(items: Success[]): Promise<boolean[]> {
    const done = await queryRows<{ id: string }>(
      this.ds,
      `WITH input AS (
         SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[]) AS t(id, previous, status_code, duration_ms)
       ), attempt AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error)
         SELECT id, previous + 1, status_code, duration_ms, NULL FROM input ON CONFLICT DO NOTHING
       )
       UPDATE deliveries d SET status = 'succeeded', attempts = i.previous + 1, locked_until = NULL, next_attempt_at = NULL, last_error = NULL, updated_at = now()
         FROM input i WHERE d.id = i.id AND d.status = 'pending' AND d.attempts = i.previous
       RETURNING d.id`,
      [items.map((i) => i.deliveryId), items.map((i) => i.previousAttempts), items.map((i) => i.statusCode), items.map((i) => i.durationMs)],
    );
    const moved = new Set(done.map((r) => String(r.id)));
    return items.map((i) => moved.has(i.deliveryId));
  }

  /**
   * Records a failed attempt: the attempt row, and the delivery moved to its next state if it is
   * still this worker's (pending again at retryInSeconds, or failed). False when it moved on meanwhile.
   */
  async recordFailure(m: EntityManager, f: FailedAttempt): Promise<boolean> {
    await m.query('INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error) VALUES ($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING', [
      f.deliveryId,
      f.previousAttempts + 1,
      f.statusCode,
      f.durationMs,
      f.error,
    ]);
    const moved = await queryRows<{ id: string }>(
      m,
      `UPDATE deliveries SET status = $2, attempts = $3, locked_until = NULL, last_error = $4, updated_at = now(),
         next_attempt_at = CASE WHEN $2 = 'pending' THEN now() + make_interval(secs => $5) ELSE NULL END,
         enqueued_at = NULL
       WHERE id = $1 AND status = 'pending' AND attempts = $6 RETURNING id`,
      [f.deliveryId, f.retryInSeconds === null ? 'failed' : 'pending', f.previousAttempts + 1, f.error, f.retryInSeconds ?? 0, f.previousAttempts],
    );
    return moved.length > 0;
  }

  /** Lets go of a delivery that moved on while this worker held it. */
  async unlock(m: Pick<EntityManager, 'query'>, deliveryId: string): Promise<void> {
    await m.query("UPDATE deliveries SET locked_until = NULL WHERE id = $1 AND status <> 'pending'", [deliveryId]);
  }

  /** Ends a delivery without sending it (its callback is gone or disabled). */
  async finishUnsent(deliveryId: string, status: 'cancelled' | 'failed' | 'skipped', reason: string): Promise<void> {
    await this.ds.query('UPDATE deliveries SET status = $2, last_error = $3, locked_until = NULL, next_attempt_at = NULL, updated_at = now() WHERE id = $1', [
      deliveryId,
      status,
      reason,
    ]);
  }

  /**
   * The callback was just disabled: nothing more goes to it. Its pending deliveries (not held by
   * another worker, but this one's own) become skipped, or failed when already tried; `recover`
   * sends them once it is enabled again. Call with the callback row locked.
   */
  async parkPendingOf(m: EntityManager, callbackId: number, ownDeliveryId: string): Promise<void> {
    await m.query(
      `UPDATE deliveries SET status = CASE WHEN attempts = 0 THEN 'skipped' ELSE 'failed' END, last_error = 'callback disabled', next_attempt_at = NULL, updated_at = now()
        WHERE callback_id = $1 AND status = 'pending' AND (locked_until IS NULL OR id = $2)`,
      [callbackId, ownDeliveryId],
    );
  }
}

interface Claim {
  deliveryId: string;
  attempt: number;
  lockSeconds: number;
  perCallbackLimit: number;
}

interface Success {
  deliveryId: string;
  previousAttempts: number;
  statusCode: number | null;
  durationMs: number;
}

/** A delivery written by fanOut. */
export interface FannedOut {
  id: string;
  callback_id: number;
  status: DeliveryStatus;
  enqueue_count: number;
}

export interface WebhookEventRow {
  id: string;
  event_type: string;
  mode: string;
  payload: unknown;
  created_at: Date;
}

export interface FailedAttempt {
  deliveryId: string;
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

const CALLBACK_DATES = ['last_triggered', 'failing_since', 'previous_secret_expires_at', 'created_at', 'updated_at', 'deleted_at'] as const;

/** Rows that travelled as JSON carry timestamps as strings: back to Dates, as pg gives them. */
function withDates<T>(json: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = { ...json };
  for (const f of fields) out[f] = typeof out[f] === 'string' ? new Date(out[f] as string) : (out[f] ?? null);
  return out as T;
}
