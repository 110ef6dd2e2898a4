import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, GroupCommit, queryRows } from '@payments/database';
import type { LastStatement } from '@payments/messaging';
import { newEventsParameters, type NewWebhookEvent } from '../events/events-store';
import type {
  ClaimedAttempt,
  ClaimRef,
  DeliveryRow,
  FailedAttempt,
  FannedOut,
  FirstAttemptClaims,
  OverdueCursor,
  OverdueRow,
} from './delivery-rows';
import { DELIVERY_COLUMNS } from './delivery-rows';
import {
  CLAIM_MANY,
  RECORD_AND_FAN_OUT,
  RECORD_SUCCESSES,
  RENEW_CLAIM,
  type ClaimedRow,
  claimedAttempt,
} from './delivery-queries';

export type {
  ClaimedAttempt,
  ClaimRef,
  DeliveryRow,
  DeliveryStatus,
  FailedAttempt,
  FannedOut,
  FirstAttemptClaims,
  OverdueCursor,
  OverdueRow,
  WebhookEventRow,
} from './delivery-rows';

/**
 * The worker's side of `deliveries` and `delivery_attempts`: fan-out, queue hand-off, claims and
 * the outcome of each attempt (what merchants and operators do to them is in DeliveryAdminStore).
 * It reads `callbacks` and `webhook_events` only to know whom to deliver what.
 */
@Injectable()
export class DeliveryStore {
  private readonly claims = new GroupCommit<Claim, ClaimedAttempt | null>((items) => this.claimMany(items), {
    gather: true,
  });
  private readonly successes = new GroupCommit<Success, boolean>((items) => this.recordSuccesses(items), {
    gather: true,
  });

  constructor(private readonly ds: DataSource) {}

  /**
   * Records the events not recorded yet (EventsStore's insert) and, in the same statement, one delivery per subscribed
   * callback of each new event's business and mode: `pending`, or `skipped` for a disabled callback so an outage loses
   * no event. An event recorded before gets no delivery here. With `handOver`, pending ones are handed over for an
   * in-process attempt after commit, and claimed for it within their callback's limit (`claimed`); the reconciler
   * queues any this process never got to, once their claim has lapsed.
   */
  async recordAndFanOut(
    m: { query: LastStatement },
    events: NewWebhookEvent[],
    handOver: FirstAttemptClaims | false = false,
  ): Promise<FannedOut[]> {
    if (events.length === 0) return [];
    const [document, payloads] = newEventsParameters(events);
    const rows = await queryRows<ClaimedRow>(m, RECORD_AND_FAN_OUT, [
      document,
      handOver !== false,
      events.map((e) => e.id),
      handOver ? handOver.perCallbackLimit : 0,
      handOver ? handOver.lockSeconds : 0,
      handOver ? handOver.most : 0,
      payloads,
    ]);
    return rows.map((row) => ({
      id: row.id,
      callback_id: row.callback_id,
      status: row.status,
      enqueue_count: row.enqueue_count,
      claimed: row.lock_token ? claimedAttempt(row) : null,
    }));
  }

  /**
   * Hands deliveries taken for an in-process attempt, and never attempted, back to the enqueuer. One claimed in the
   * fan-out is let go too when its token is given (an attempt never made); without a token a claimed one is left to
   * its lock's lapse.
   */
  async releaseMany(rows: { id: string; lockToken: string | null }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.ds.query(
      `UPDATE deliveries d SET enqueued_at = NULL, locked_until = NULL, lock_token = NULL
         FROM unnest($1::bigint[], $2::uuid[]) AS t(id, lock_token)
        WHERE d.id = t.id AND d.status = 'pending' AND d.attempts = 0 AND d.enqueue_count = 1
          AND (d.locked_until IS NULL OR d.lock_token = t.lock_token)`,
      [rows.map((r) => r.id), rows.map((r) => r.lockToken)],
    );
  }

  /** Deliveries waiting for a queue job; marks them handed over. Called inside a transaction. */
  async claimForEnqueue(m: EntityManager, limit: number): Promise<DeliveryRow[]> {
    return queryRows<DeliveryRow>(
      m,
      `UPDATE deliveries SET enqueued_at = now(), enqueue_count = enqueue_count + 1
        WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND enqueued_at IS NULL
                      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING ${DELIVERY_COLUMNS}`,
      [limit],
    );
  }

  /**
   * Overdue pending deliveries handed to the queue a while ago that no live worker holds: candidates
   * for a lost job, which the caller checks with the queue. Keyset-paged after `after`, so a caller
   * can read past rows that are overdue but alive (waiting behind a busy callback).
   */
  async overdue(graceSeconds: number, limit: number, after: OverdueCursor | null = null): Promise<OverdueRow[]> {
    return queryRows(
      this.ds,
      `SELECT id, attempts, enqueue_count, next_attempt_at FROM deliveries
        WHERE status = 'pending' AND enqueued_at IS NOT NULL
          AND enqueued_at < now() - make_interval(secs => $1)
          AND next_attempt_at < now() - make_interval(secs => $1)
          AND (locked_until IS NULL OR locked_until < now())
          AND ($3::timestamptz IS NULL OR (next_attempt_at, id) > ($3::timestamptz, $4::bigint))
        ORDER BY next_attempt_at, id LIMIT $2`,
      [graceSeconds, limit, after?.next_attempt_at ?? null, after?.id ?? null],
    );
  }

  /**
   * Hands a delivery back to the enqueuer, unless it was queued again in the meantime or a live
   * worker claimed it since it was read as overdue (its lock is held and not expired).
   */
  async release(id: string, enqueueCount: number): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.ds,
      `UPDATE deliveries SET enqueued_at = NULL
        WHERE id = $1 AND status = 'pending' AND enqueue_count = $2 AND (locked_until IS NULL OR locked_until < now())
        RETURNING id`,
      [id, enqueueCount],
    );
    return rows.length > 0;
  }

  /**
   * Claims one attempt if the delivery is still pending at it, not held by another worker, and its callback is below
   * its limit, counted without locking the callback: a soft limit, traded for no lock contention (CallbackGate keeps
   * one process's sends within it). Each claim writes a new `lock_token` that the outcome must present.
   */
  async claimAttempt(
    deliveryId: string,
    attempt: number,
    lockSeconds: number,
    perCallbackLimit: number,
  ): Promise<ClaimedAttempt | 'busy' | null> {
    const claimed = await this.claims.submit({ deliveryId, attempt, lockSeconds, perCallbackLimit });
    if (claimed) return claimed;
    const waiting = await queryRows<{ id: string }>(
      this.ds,
      `SELECT id FROM deliveries
        WHERE id = $1 AND status = 'pending' AND attempts = $2 AND (locked_until IS NULL OR locked_until < now())`,
      [deliveryId, attempt],
    );
    return waiting.length > 0 ? 'busy' : null;
  }

  private async claimMany(items: Claim[]): Promise<(ClaimedAttempt | null)[]> {
    // One update statement changes a row once however many input rows name it, and returns it once:
    // handed to every caller that named it, each would sign and send it. Only the first claims.
    const named = new Set<string>();
    const claims = items.map((i) => {
      if (named.has(i.deliveryId)) return false;
      named.add(i.deliveryId);
      return true;
    });
    const unique = items.filter((_, n) => claims[n]);
    const params = [
      unique.map((i) => i.deliveryId),
      unique.map((i) => i.attempt),
      unique.map((i) => i.lockSeconds),
      unique.map((i) => i.perCallbackLimit),
    ];
    // Without bitmap scans (BEGIN, the SET, the claim and COMMIT in one round trip): counting a callback's claims in
    // flight with a plain index scan marks the index entries of finished claims dead as it meets them, where a bitmap
    // scan would visit every one of them again on every claim until VACUUM.
    const rows = await this.ds.transaction({ settings: { enable_bitmapscan: 'off' } }, (m) =>
      // queryRows sends CLAIM_MANY, with COMMIT.
      queryRows<ClaimedRow>({ query: (_sql, p) => m.commitWith(CLAIM_MANY, p) }, CLAIM_MANY, params),
    );
    const byId = new Map<string, ClaimedAttempt>();
    for (const row of rows) byId.set(String(row.id), claimedAttempt(row));
    return items.map((i, n) => (claims[n] ? (byId.get(i.deliveryId) ?? null) : null));
  }

  /** Renews `claim` while its token is on the row (RENEW_CLAIM): the new claim, or null when it moved on. */
  async renewClaim(claim: ClaimRef, lockSeconds: number): Promise<ClaimedAttempt | null> {
    const [row] = await queryRows<ClaimedRow>(this.ds, RENEW_CLAIM, [
      claim.id,
      claim.lock_token,
      lockSeconds,
      claim.attempts,
    ]);
    return row ? claimedAttempt(row) : null;
  }

  /**
   * Records a successful attempt only if the claim's token is still on the row at that attempt; otherwise writes
   * nothing, so a new holder's lock stands. No callback lock, so a callback DELETE cannot deadlock with it.
   */
  recordSuccess(claim: ClaimRef, statusCode: number | null, durationMs: number): Promise<boolean> {
    return this.successes.submit({
      deliveryId: claim.id,
      lockToken: claim.lock_token,
      previousAttempts: claim.attempts,
      statusCode,
      durationMs,
    });
  }

  /** Several successes in one statement; true for each delivery that was still this worker's. */
  private async recordSuccesses(items: Success[]): Promise<boolean[]> {
    const done = await queryRows<{ id: string }>(this.ds, RECORD_SUCCESSES, [
      items.map((i) => i.deliveryId),
      items.map((i) => i.lockToken),
      items.map((i) => i.previousAttempts),
      items.map((i) => i.statusCode),
      items.map((i) => i.durationMs),
    ]);
    const moved = new Set(done.map((r) => String(r.id)));
    return items.map((i) => moved.has(i.deliveryId));
  }

  /**
   * Records a failed attempt (pending again at retryInSeconds, or failed) and its attempt row,
   * under the same claim check as recordSuccess; false, writing nothing, when the claim was lost.
   */
  async recordFailure(m: EntityManager, f: FailedAttempt): Promise<boolean> {
    const moved = await queryRows<{ id: string }>(
      m,
      `WITH done AS (
         UPDATE deliveries SET status = $2, attempts = $3, locked_until = NULL, lock_token = NULL, last_error = $4,
           updated_at = now(),
           next_attempt_at = CASE WHEN $2 = 'pending' THEN now() + make_interval(secs => $5) ELSE NULL END,
           enqueued_at = NULL
         WHERE id = $1 AND lock_token = $6 AND status = 'pending' AND attempts = $7 RETURNING id
       ), attempt AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error)
         SELECT id, $3::int, $8::int, $9::int, $4::text FROM done ON CONFLICT DO NOTHING
       )
       SELECT id FROM done`,
      [
        f.deliveryId,
        f.retryInSeconds === null ? 'failed' : 'pending',
        f.previousAttempts + 1,
        f.error,
        f.retryInSeconds ?? 0,
        f.lockToken,
        f.previousAttempts,
        f.statusCode,
        f.durationMs,
      ],
    );
    return moved.length > 0;
  }

  /** Lets go of a delivery that moved on (cancelled, settled) while this worker held its claim. */
  async unlock(m: Pick<EntityManager, 'query'>, claim: ClaimRef): Promise<void> {
    await m.query(
      `UPDATE deliveries SET locked_until = NULL, lock_token = NULL
        WHERE id = $1 AND lock_token = $2 AND status <> 'pending'`,
      [claim.id, claim.lock_token],
    );
  }

  /**
   * Ends a delivery without sending it (its callback is gone or disabled), if the claim is still
   * this worker's; false when it was claimed again meanwhile.
   */
  async finishUnsent(claim: ClaimRef, status: 'cancelled' | 'failed' | 'skipped', reason: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.ds,
      `UPDATE deliveries SET status = $3, last_error = $4, locked_until = NULL, lock_token = NULL,
                             next_attempt_at = NULL, updated_at = now()
        WHERE id = $1 AND lock_token = $2 RETURNING id`,
      [claim.id, claim.lock_token, status, reason],
    );
    return rows.length > 0;
  }

  /**
   * The callback was just disabled: nothing more goes to it. Its pending deliveries (not held by
   * another worker, but this one's own) become skipped, or failed when already tried; `recover`
   * sends them once it is enabled again. Call with the callback row locked.
   */
  async parkPendingOf(m: EntityManager, callbackId: number, ownDeliveryId: string): Promise<void> {
    await m.query(
      `UPDATE deliveries SET status = CASE WHEN attempts = 0 THEN 'skipped' ELSE 'failed' END,
                             last_error = 'callback disabled', next_attempt_at = NULL, updated_at = now()
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
  lockToken: string | null;
  previousAttempts: number;
  statusCode: number | null;
  durationMs: number;
}
