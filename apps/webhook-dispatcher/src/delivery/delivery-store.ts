import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, GroupCommit, type PreparedStatement, queryRows } from '@payments/database';
import type { LastStatement } from '@payments/messaging';
import type { CallbackRow } from '../callbacks/callback-store';
import { RECORD_NEW_EVENTS, type NewWebhookEvent } from '../events/events-store';
import type {
  ClaimedAttempt,
  ClaimRef,
  DeliveryRow,
  FailedAttempt,
  FannedOut,
  OverdueCursor,
  OverdueRow,
  WebhookEventRow,
} from './delivery-rows';
import { DELIVERY_COLUMNS, DELIVERY_COLUMNS_D } from './delivery-rows';

export type {
  ClaimedAttempt,
  ClaimRef,
  DeliveryRow,
  DeliveryStatus,
  FailedAttempt,
  FannedOut,
  OverdueCursor,
  OverdueRow,
  WebhookEventRow,
} from './delivery-rows';

/**
 * The three statements every webhook runs (events and fan-out, claim, success), prepared under a name. Their arrays are
 * read through a sub-select, so no plan sees their values: a custom plan then costs what the generic one does before
 * PostgreSQL's charge for planning, so after five custom plans it keeps the generic one, planning again only when it
 * invalidates the plan (an ANALYZE of a table they read, say). Given an array it could see, it would plan every call
 * afresh, which cost it as much as running them. The generic plan assumes a few ids and looks each one up by index, on
 * any table past a few thousand rows (docs/benchmarks.md, eighteenth round). The record-and-fan-out reads its events
 * from JSON, which every plan estimates at 100 rows whatever it holds; with 20,000 callbacks its generic plan still
 * joins them by index (`callbacks_business`), and a small table is scanned (nineteenth round).
 */
const RECORD_AND_FAN_OUT: PreparedStatement = {
  name: 'deliveries_record_and_fan_out',
  text: `WITH recorded AS (${RECORD_NEW_EVENTS})
   INSERT INTO deliveries
          (public_id, event_id, callback_id, status, next_attempt_at, last_error, enqueued_at, enqueue_count)
   SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), e.id, c.id,
          CASE WHEN c.is_active THEN 'pending' ELSE 'skipped' END,
          CASE WHEN c.is_active THEN now() END,
          CASE WHEN c.is_active THEN NULL ELSE 'callback disabled' END,
          CASE WHEN c.is_active AND $2 THEN now() END,
          CASE WHEN c.is_active AND $2 THEN 1 ELSE 0 END
     FROM recorded e
     JOIN callbacks c ON c.business_id = e.business_id AND c.mode = e.mode AND c.deleted_at IS NULL
                     AND e.event_type = ANY (c.events)
    ORDER BY array_position((SELECT $3::text[]), e.id), c.id
   ON CONFLICT (event_id, callback_id) DO NOTHING
   RETURNING id, callback_id, status, enqueue_count`,
};

/**
 * The claim finds its rows by id: `status` is compared with a sub-select, which no partial index's predicate matches,
 * so no plan reads every pending delivery (`deliveries_pending`) and hash-joins them with the few it claims, which
 * the generic plan did whenever the statistics put few deliveries pending (a backlog makes that a scan of all of
 * them). The count of a callback's claims in flight stops at its limit (LIMIT), which is all the comparison needs.
 * Run it only through claimMany's transaction, with bitmap scans off: a connection's cached plan does not follow
 * planner settings, so one run outside it could leave a bitmap plan that later runs reuse.
 */
const CLAIM_MANY: PreparedStatement = {
  name: 'deliveries_claim_many',
  text: `WITH input AS (
     SELECT * FROM unnest((SELECT $1::bigint[]), (SELECT $2::int[]), (SELECT $3::int[]), (SELECT $4::int[]))
                AS t(id, attempt, lock_seconds, max_in_flight)
   ),
   ranked AS ( -- the count below predates this statement: ranked, one callback's claims stay within its limit
     SELECT t.*, row_number() OVER (PARTITION BY x.callback_id ORDER BY t.id) AS rank
       FROM input t JOIN deliveries x ON x.id = t.id
   )
   UPDATE deliveries d SET locked_until = now() + make_interval(secs => i.lock_seconds),
                           lock_token = gen_random_uuid(), updated_at = now()
     FROM ranked i
    WHERE d.id = i.id AND d.status = (SELECT 'pending'::text) AND d.attempts = i.attempt
      AND (d.locked_until IS NULL OR d.locked_until < now())
      AND (SELECT count(*) FROM (SELECT FROM deliveries x
            WHERE x.callback_id = d.callback_id AND x.locked_until IS NOT NULL AND x.locked_until > now()
            LIMIT i.max_in_flight) in_flight)
          + i.rank <= i.max_in_flight
    RETURNING ${DELIVERY_COLUMNS_D},
      (SELECT row_to_json(c) FROM callbacks c WHERE c.id = d.callback_id) AS callback_json,
      (SELECT json_build_object('id', e.id, 'event_type', e.event_type, 'mode', e.mode,
                                'payload', e.payload, 'created_at', e.created_at)
         FROM webhook_events e WHERE e.id = d.event_id) AS event_json`,
};

const RECORD_SUCCESSES: PreparedStatement = {
  name: 'deliveries_record_successes',
  text: `WITH input AS (
     SELECT * FROM unnest((SELECT $1::bigint[]), (SELECT $2::uuid[]), (SELECT $3::int[]),
                         (SELECT $4::int[]), (SELECT $5::int[]))
                AS t(id, lock_token, previous, status_code, duration_ms)
   ), done AS (
     UPDATE deliveries d SET status = 'succeeded', attempts = i.previous + 1,
                             locked_until = NULL, lock_token = NULL,
                             next_attempt_at = NULL, last_error = NULL, updated_at = now()
       FROM input i
      WHERE d.id = i.id AND d.lock_token = i.lock_token AND d.status = 'pending' AND d.attempts = i.previous
     RETURNING d.id, i.previous, i.status_code, i.duration_ms
   ), attempt AS (
     INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error)
     SELECT id, previous + 1, status_code, duration_ms, NULL FROM done ON CONFLICT DO NOTHING
   )
   SELECT id FROM done`,
};

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
   * in-process attempt after commit; the reconciler queues any this process never got to.
   */
  async recordAndFanOut(
    m: { query: LastStatement },
    events: NewWebhookEvent[],
    handOver = false,
  ): Promise<FannedOut[]> {
    if (events.length === 0) return [];
    return queryRows<FannedOut>(m, RECORD_AND_FAN_OUT, [JSON.stringify(events), handOver, events.map((e) => e.id)]);
  }

  /** Hands deliveries taken for an in-process attempt, and never attempted, back to the enqueuer. */
  async releaseMany(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ds.query(
      `UPDATE deliveries SET enqueued_at = NULL
        WHERE id = ANY($1::bigint[]) AND status = 'pending' AND attempts = 0 AND enqueue_count = 1
          AND locked_until IS NULL`,
      [ids],
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
   * one process within it). Each claim writes a new `lock_token` that the outcome must present.
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
    const rows = await this.ds.transaction(
      { settings: { enable_bitmapscan: 'off' } },
      (m) =>
        queryRows<
          DeliveryRow & { callback_json: Record<string, unknown> | null; event_json: Record<string, unknown> | null }
        >({ query: (_sql, p) => m.commitWith(CLAIM_MANY, p) }, CLAIM_MANY, params), // queryRows sends CLAIM_MANY
    );
    const byId = new Map<string, ClaimedAttempt>();
    for (const { callback_json, event_json, ...delivery } of rows) {
      byId.set(String(delivery.id), {
        delivery,
        callback: callback_json ? withDates<CallbackRow>(callback_json, CALLBACK_DATES) : null,
        event: withDates<WebhookEventRow>(event_json!, ['created_at']),
      });
    }
    return items.map((i, n) => (claims[n] ? (byId.get(i.deliveryId) ?? null) : null));
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

const CALLBACK_DATES = [
  'last_triggered',
  'failing_since',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

/** Rows that travelled as JSON carry timestamps as strings: back to Dates, as pg gives them. */
function withDates<T>(json: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = { ...json };
  for (const f of fields) out[f] = typeof out[f] === 'string' ? new Date(out[f] as string) : (out[f] ?? null);
  return out as T;
}
