import { Injectable } from '@nestjs/common';
import {
  DataSource,
  type EntityManager,
  columnList,
  keysetPage,
  queryRows,
  type Filter,
  type PageRequest,
} from '@payments/database';
import {
  PING_EVENT,
  type DeliveryView,
  type EventDeliveriesResult,
  type EventDeliveryView,
  type Mode,
  type RecoverableDeliveryView,
  type RpcContext,
} from '@payments/contracts';
import { unknownCursor } from '@payments/platform';

/** Whose failed and skipped deliveries to recover: one callback, or every callback of a business and mode. */
export type RecoverScope = { callbackId: number } | { businessId: number; mode: Mode };

/** A delivery as the callback's delivery log lists it, with its attempts. */
export interface DeliveryLogRow {
  public_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryView['status'];
  next_attempt_at: Date | null;
  created_at: Date;
  attempts: DeliveryView['attempts'] | null;
}

/** A deliveries row as the delivery log pages it: what a log entry shows, and the id its details are joined by. */
interface DeliveryLogPageRow {
  id: string;
  public_id: string;
  event_id: string;
  status: DeliveryView['status'];
  next_attempt_at: Date | null;
  created_at: Date;
}

/** Every column of DeliveryLogPageRow, so a paged row is exactly this type; with the page's order, created_at, id. */
const DELIVERY_LOG_COLUMNS = columnList<DeliveryLogPageRow>({
  id: true,
  public_id: true,
  event_id: true,
  status: true,
  next_attempt_at: true,
  created_at: true,
});

export interface PingDelivery {
  publicId: string;
  eventId: string;
  callbackId: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * What merchants and operators do to `deliveries` and `delivery_attempts` (the delivery log,
 * resend, recover, cancel, test pings) and their retention; the worker's side is DeliveryStore.
 */
@Injectable()
export class DeliveryAdminStore {
  constructor(private readonly ds: DataSource) {}

  /** Newest first (by cursor and/or offset), each with its event type and attempts, and how many match in all. */
  async page(
    callbackId: number,
    status: string | null,
    page: PageRequest,
  ): Promise<{ rows: DeliveryLogRow[]; hasMore: boolean; total: number }> {
    const filters: Filter[] = status ? [[(n) => `status = ${n}`, status]] : [];
    const { rows, hasMore } = await keysetPage<DeliveryLogPageRow>(this.ds, {
      table: 'deliveries',
      columns: DELIVERY_LOG_COLUMNS,
      scope: ['callback_id = $1'],
      params: [callbackId],
      filters,
      cursorColumn: 'public_id',
      page,
      unknownCursor: unknownCursor('delivery of this callback', 'deliveries to this callback'),
    });
    const [details, [{ total }]] = await Promise.all([
      queryRows<{ id: string; event_type: string; attempts: DeliveryView['attempts'] | null }>(
        this.ds,
        `SELECT d.id::text AS id, e.event_type,
                (SELECT json_agg(json_build_object('attempt', a.attempt, 'status_code', a.status_code,
                                                   'duration_ms', a.duration_ms, 'error', a.error,
                                                   'date_created', a.created_at) ORDER BY a.attempt)
                   FROM delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
           FROM deliveries d JOIN webhook_events e ON e.id = d.event_id
          WHERE d.id = ANY($1::bigint[])`,
        [rows.map((r) => String(r.id))],
      ),
      queryRows<{ total: number }>(
        this.ds,
        'SELECT count(*)::int AS total FROM deliveries WHERE callback_id = $1 AND ($2::text IS NULL OR status = $2)',
        [callbackId, status],
      ),
    ]);
    const byId = new Map(details.map((d) => [d.id, d]));
    return {
      rows: rows.map((r) => {
        const detail = byId.get(String(r.id));
        return { ...r, event_type: detail?.event_type ?? '', attempts: detail?.attempts ?? null };
      }),
      hasMore,
      total,
    };
  }

  /** Queues one delivery again (a fresh retry cycle) unless a worker holds it; false when there is none such. */
  async resend(callbackId: number, publicId: string): Promise<boolean> {
    const rows = await queryRows<{ status: string }>(
      this.ds,
      `UPDATE deliveries SET status = 'pending', cycle_start = attempts, next_attempt_at = now(), enqueued_at = NULL,
                             last_error = NULL, updated_at = now()
        WHERE callback_id = $1 AND public_id = $2 AND (locked_until IS NULL OR locked_until < now()) RETURNING status`,
      [callbackId, publicId],
    );
    return rows.length > 0;
  }

  /** Cancels a deleted callback's pending deliveries. Call with the callback row locked (or just updated). */
  async cancelPendingOf(m: EntityManager, callbackId: number): Promise<void> {
    await m.query(
      `UPDATE deliveries SET status = 'cancelled', last_error = 'callback deleted', next_attempt_at = NULL,
                             updated_at = now()
        WHERE callback_id = $1 AND status = 'pending'`,
      [callbackId],
    );
  }

  /** How many deliveries recover() would pick up in all (a business and mode's active callbacks). */
  async countRecoverable(businessId: number, mode: Mode, since: string): Promise<number> {
    const [{ total }] = await queryRows<{ total: number }>(
      this.ds,
      `SELECT count(*)::int AS total FROM deliveries d JOIN callbacks c ON c.id = d.callback_id
        WHERE c.business_id = $1 AND c.mode = $2 AND c.is_active AND c.deleted_at IS NULL
          AND d.status IN ('failed', 'skipped') AND d.created_at >= $3`,
      [businessId, mode, since],
    );
    return total;
  }

  /**
   * Failed and skipped deliveries created since `since` of active callbacks in `scope`, in id
   * order after the cursor `after`: queued again (a fresh retry cycle), or only listed on a dry run.
   * Test pings are never recovered: each was a one-off check.
   */
  async recover(
    scope: RecoverScope,
    since: string,
    opts: { dryRun: boolean; after: string | null; limit: number | null },
  ): Promise<(RecoverableDeliveryView & { id: string })[]> {
    const byCallback = 'callbackId' in scope;
    const params: unknown[] = [
      byCallback ? scope.callbackId : scope.businessId,
      byCallback ? null : scope.mode,
      since,
      opts.after ?? '0',
      opts.limit,
    ];
    const owner = byCallback ? 'c.id = $1 AND $2::text IS NULL' : 'c.business_id = $1 AND c.mode = $2';
    const page = `SELECT d.id FROM deliveries d JOIN callbacks c ON c.id = d.callback_id
        WHERE ${owner} AND c.is_active AND c.deleted_at IS NULL
          AND d.status IN ('failed', 'skipped') AND d.created_at >= $3 AND d.id > $4::bigint
          AND NOT EXISTS (SELECT 1 FROM webhook_events p WHERE p.id = d.event_id AND p.event_type = '${PING_EVENT}')
        ORDER BY d.id LIMIT $5`;
    const picked = opts.dryRun
      ? `SELECT d.id, d.status FROM deliveries d WHERE d.id IN (${page})`
      : `UPDATE deliveries d SET status = 'pending', cycle_start = d.attempts, next_attempt_at = now(),
                                 enqueued_at = NULL, last_error = NULL, updated_at = now()
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

  /** A test ping's delivery and its one attempt, already made: never retried. */
  async recordPing(m: EntityManager, p: PingDelivery): Promise<void> {
    const [delivery] = await queryRows<{ id: string }>(
      m,
      `INSERT INTO deliveries (public_id, event_id, callback_id, status, attempts, last_error)
       VALUES ($1, $2, $3, $4, 1, $5) RETURNING id`,
      [p.publicId, p.eventId, p.callbackId, p.error === null ? 'succeeded' : 'failed', p.error],
    );
    await m.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error)
       VALUES ($1, 1, $2, $3, $4)`,
      [delivery.id, p.statusCode, p.durationMs, p.error],
    );
  }

  /** The callbacks each given event has a delivery for, in id order. */
  async deliveredTo(db: Pick<EntityManager, 'query'>, eventIds: string[]): Promise<Map<string, number[]>> {
    const rows = await queryRows<{ event_id: string; callback_id: number }>(
      db,
      'SELECT event_id, callback_id FROM deliveries WHERE event_id = ANY($1::text[]) ORDER BY event_id, callback_id',
      [eventIds],
    );
    const out = new Map<string, number[]>();
    for (const r of rows) out.set(r.event_id, [...(out.get(r.event_id) ?? []), r.callback_id]);
    return out;
  }

  /** Locks the deliveries of the given events; answers the events that have one still pending. */
  async lockPendingEvents(m: EntityManager, eventIds: string[]): Promise<Set<string>> {
    const locked = await queryRows<{ event_id: string; status: string }>(
      m,
      'SELECT event_id, status FROM deliveries WHERE event_id = ANY ($1::text[]) FOR UPDATE',
      [eventIds],
    );
    return new Set(locked.filter((d) => d.status === 'pending').map((d) => d.event_id));
  }

  /** Deletes the deliveries of the given events with their attempts (retention). */
  async deleteOfEvents(m: EntityManager, eventIds: string[]): Promise<void> {
    await m.query(
      `DELETE FROM delivery_attempts
        WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_id = ANY ($1::text[]))`,
      [eventIds],
    );
    await m.query('DELETE FROM deliveries WHERE event_id = ANY ($1::text[])', [eventIds]);
  }

  /**
   * The deliveries one of the caller's events caused, oldest first, with endpoint URL and latest
   * HTTP status; none for another business's or mode's event. LIMIT 100 cuts nothing: one delivery
   * per endpoint, and a business has at most WEBHOOK_MAX_CALLBACKS of those.
   */
  async deliveriesOf(ctx: RpcContext, eventId: string): Promise<EventDeliveriesResult> {
    const rows = await queryRows<{
      public_id: string;
      callback_id: number;
      url: string;
      status: EventDeliveryView['status'];
      attempts: number;
      last_error: string | null;
      last_status_code: number | null;
      created_at: Date;
    }>(
      this.ds,
      `SELECT d.public_id, d.callback_id, c.url, d.status, d.attempts, d.last_error, d.created_at,
              (SELECT a.status_code FROM delivery_attempts a
                WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1) AS last_status_code
         FROM deliveries d
         JOIN webhook_events e ON e.id = d.event_id
         JOIN callbacks c ON c.id = d.callback_id
        WHERE d.event_id = $1 AND e.business_id = $2 AND e.mode = $3
        ORDER BY d.id LIMIT 100`,
      [eventId, ctx.business_id, ctx.mode],
    );
    return {
      deliveries: rows.map((r) => ({
        delivery_id: r.public_id,
        callback_id: r.callback_id,
        callback_url: r.url,
        status: r.status,
        attempts: r.attempts,
        last_error: r.last_error,
        last_status_code: r.last_status_code,
        date_created: r.created_at.toISOString(),
      })),
    };
  }
}
