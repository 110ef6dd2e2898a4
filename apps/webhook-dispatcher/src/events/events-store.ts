import { Injectable } from '@nestjs/common';
import {
  DataSource,
  type ColumnType,
  type EntityManager,
  columnList,
  keysetPage,
  queryRows,
  recordDefinition,
  type Filter,
} from '@payments/database';
import {
  ErrorCodes,
  PING_EVENT,
  type EventsOfTransactionResult,
  type EventView,
  type TransactionEventView,
  type ListEventsBody,
  type ListEventsResult,
  type Mode,
  type RpcContext,
  type TransactionStatus,
  type WebhookEventBody,
  type WebhookEventType,
} from '@payments/contracts';
import { DomainException, unknownCursor } from '@payments/platform';

/**
 * A `webhook_events` row as read. Its columns are only written from NewWebhookEvent, so reads take them
 * as typed: the payload is the `data` the typed payload builders (@payments/contracts) wrote for its event type.
 */
export interface WebhookEventRow {
  id: string;
  event_type: WebhookEventType;
  mode: Mode;
  payload: WebhookEventBody['data'];
  created_at: Date;
}

/** The body a webhook delivery of this event carries; the events API answers the same object. */
export function eventView(e: WebhookEventRow): EventView {
  return {
    id: e.id,
    event: e.event_type,
    created_at: e.created_at.toISOString(),
    mode: e.mode,
    data: e.payload,
  };
}

/** Every column of WebhookEventRow, named once for the lists below. */
const EVENT_KEYS = {
  id: true,
  event_type: true,
  mode: true,
  payload: true,
  created_at: true,
} satisfies Record<keyof WebhookEventRow, true>;

/** What each statement reads of an event, so a row is exactly WebhookEventRow. */
const EVENT_COLUMNS = columnList<WebhookEventRow>(EVENT_KEYS);

/**
 * A listed event also carries `recorded_xid`: after a cursor keysetPage orders the page by the columns it read, and
 * the recorded order is (recorded_xid, id).
 */
type ListedEventRow = WebhookEventRow & { recorded_xid: string };
const LISTED_COLUMNS = columnList<ListedEventRow>({ ...EVENT_KEYS, recorded_xid: true });

/** A catalogue event to record, with the source event it came from. */
export interface NewWebhookEvent {
  id: string;
  source_event_id: string;
  business_id: number;
  mode: Mode;
  event_type: WebhookEventType;
  payload: WebhookEventBody['data'];
  created_at: string | Date;
}

/**
 * NewWebhookEvent's fields as the insert reads them from its JSON document: the one list of what it writes. `payload`
 * is the index of the event's payload in a second document (newEventsParameters).
 */
const NEW_EVENT_FIELDS = {
  id: 'text',
  source_event_id: 'text',
  business_id: 'integer',
  mode: 'text',
  event_type: 'text',
  payload: 'integer',
  created_at: 'timestamptz',
} as const satisfies { [K in keyof NewWebhookEvent]-?: ColumnType };
const NEW_EVENT_COLUMNS = Object.keys(NEW_EVENT_FIELDS);

/**
 * The insert's two documents: the events, each naming its payload by index, and the payloads, each once. The catalogue
 * events of one source event share one payload object (two or three of them a transaction event), so PostgreSQL parses
 * it once instead of once an event, and the dispatcher writes it once (docs/benchmarks.md, twenty-fourth round).
 * Payloads are told apart by identity: equal objects that are not the same one are each sent.
 */
export function newEventsParameters(rows: NewWebhookEvent[]): [events: string, payloads: string] {
  const payloads: NewWebhookEvent['payload'][] = [];
  const indexOf = new Map<NewWebhookEvent['payload'], number>();
  const events = rows.map((row) => {
    // Sent as JSON null, it would be recorded as a jsonb null, where the column's NOT NULL refused a missing payload.
    if (row.payload == null) throw new TypeError(`webhook event ${row.id} has no payload`);
    let n = indexOf.get(row.payload);
    if (n === undefined) {
      n = payloads.push(row.payload) - 1;
      indexOf.set(row.payload, n);
    }
    return { ...row, payload: n };
  });
  return [JSON.stringify(events), JSON.stringify(payloads)];
}

/**
 * Records the events of newEventsParameters' documents ($1 and `$<payloadsParameter>`) not recorded yet (by id),
 * returning `returning` of those it inserted. The payloads document is read once (a sub-select), each event's payload
 * taken from it by index.
 */
const insertNewEvents = (returning: string, payloadsParameter: number) => {
  const values = NEW_EVENT_COLUMNS.map((c) =>
    c === 'payload' ? `(SELECT $${payloadsParameter}::jsonb) -> r.payload` : c,
  );
  return `INSERT INTO webhook_events (${NEW_EVENT_COLUMNS.join(', ')})
  SELECT ${values.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${recordDefinition(NEW_EVENT_FIELDS)})
  ON CONFLICT DO NOTHING RETURNING ${returning}`;
};
const INSERT_NEW_EVENTS = insertNewEvents('id', 2);

/**
 * The events insert as a statement's first step, for DeliveryStore to fan the inserted events out in the same
 * statement (one round trip): their id, business, mode and type, and what a claimed delivery sends (payload, creation
 * time). Takes newEventsParameters' documents as $1 and `$<payloadsParameter>`.
 */
export const recordNewEvents = (payloadsParameter: number) =>
  insertNewEvents('id, business_id, mode, event_type, payload, created_at', payloadsParameter);

/**
 * Only rows whose inserting transaction is older than every running one: anything written later gets a larger id, so
 * paging forward from the newest seen misses nothing. A long-open transaction delays the newest rows, never hides them.
 */
const RECORDED_HORIZON = 'recorded_xid < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * The runbook's fix for copied rows whose recorded_xid is ahead of this cluster (see
 * recordedOrderAhead): they take the fixing transaction's id, so every later event follows them.
 */
export const RECORDED_ORDER_FIX_SQL =
  'UPDATE webhook_events SET recorded_xid = pg_current_xact_id() WHERE recorded_xid > pg_current_xact_id()';

/**
 * Every read and write of `webhook_events`. A business's events list newest first, paged by a
 * (created_at, id) cursor, or by (recorded_xid, id) in recorded order. Test pings are readable by
 * id (the delivery log names them) but never listed.
 */
@Injectable()
export class EventsStore {
  constructor(private readonly ds: DataSource) {}

  async get(ctx: RpcContext, id: string): Promise<EventView> {
    const [row] = await queryRows<WebhookEventRow>(
      this.ds,
      `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE id = $1 AND business_id = $2 AND mode = $3`,
      [id, ctx.business_id, ctx.mode],
    );
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no event ${id}`);
    return eventView(row);
  }

  async list(ctx: RpcContext, body: ListEventsBody): Promise<ListEventsResult> {
    const filters: Filter[] = [];
    if (body.type) filters.push([(n) => `event_type = ${n}`, body.type]);
    const ops = { gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;
    for (const [key, op] of Object.entries(ops)) {
      const bound = body.created[key as keyof typeof ops];
      if (bound) filters.push([(n) => `created_at ${op} ${n}::timestamptz`, bound]);
    }
    const recorded = body.order === 'recorded';
    const { rows, hasMore } = await keysetPage<ListedEventRow>(this.ds, {
      table: 'webhook_events',
      columns: LISTED_COLUMNS,
      // A cursor must be one of the caller's listable events: test pings are not.
      scope: ['business_id = $1', 'mode = $2', 'event_type <> $3', ...(recorded ? [RECORDED_HORIZON] : [])],
      params: [ctx.business_id, ctx.mode, PING_EVENT],
      filters,
      cursorColumn: 'id',
      ...(recorded ? { orderBy: ['recorded_xid', 'id'] } : {}),
      page: body,
      unknownCursor: unknownCursor('event'),
    });
    return { events: rows.map(eventView), has_more: hasMore };
  }

  /**
   * The newest recorded_xid when it is ahead of this cluster's transaction ids (the table was
   * copied from another cluster: dump/restore, logical replication), else undefined. A loose
   * index scan: two index probes per business and mode, never the whole table.
   */
  async recordedOrderAhead(): Promise<{ newest: string; next: string } | undefined> {
    const [row] = await queryRows<{ newest: string; next: string }>(
      this.ds,
      `WITH RECURSIVE scopes AS (
         (SELECT business_id, mode FROM webhook_events ORDER BY business_id, mode LIMIT 1)
         UNION ALL
         SELECT n.business_id, n.mode FROM scopes s CROSS JOIN LATERAL (
           SELECT e.business_id, e.mode FROM webhook_events e
            WHERE (e.business_id, e.mode) > (s.business_id, s.mode) ORDER BY e.business_id, e.mode LIMIT 1) n
       )
       SELECT x.newest::text AS newest, pg_snapshot_xmax(pg_current_snapshot())::text AS next
         FROM scopes s CROSS JOIN LATERAL (
           SELECT e.recorded_xid AS newest FROM webhook_events e
            WHERE e.business_id = s.business_id AND e.mode = s.mode ORDER BY e.recorded_xid DESC LIMIT 1) x
        WHERE x.newest >= pg_snapshot_xmax(pg_current_snapshot())
        ORDER BY x.newest DESC LIMIT 1`,
    );
    return row;
  }

  /** Records the events not recorded yet (by id); answers the ids it inserted. */
  async insertNew(m: EntityManager, rows: NewWebhookEvent[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await queryRows<{ id: string }>(m, INSERT_NEW_EVENTS, newEventsParameters(rows));
    return inserted.map((r) => r.id);
  }

  /** A test ping's event (its payload is the ping's data); its id is new, so a conflict is an error. */
  async insertPing(m: EntityManager, e: NewWebhookEvent): Promise<void> {
    const [inserted] = await this.insertNew(m, [e]);
    if (inserted !== e.id) throw new Error(`webhook event ${e.id} already exists`);
  }

  /**
   * Events older than retentionSeconds with no delivery still pending, oldest first, locked;
   * rows another dispatcher holds are skipped. Reads `deliveries` so that an event waiting for
   * its deliveries never blocks the batch.
   */
  async prunable(m: EntityManager, retentionSeconds: number, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      m,
      `SELECT e.id FROM webhook_events e
        WHERE e.created_at < now() - make_interval(secs => $1)
          AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
        ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [retentionSeconds, limit],
    );
    return rows.map((r) => r.id);
  }

  async delete(m: EntityManager, ids: string[]): Promise<void> {
    await m.query('DELETE FROM webhook_events WHERE id = ANY ($1::text[])', [ids]);
  }

  /** The status of the latest transaction.* event of each given transaction (by public id). */
  latestTransactionStatuses(
    transactionIds: string[],
  ): Promise<{ transaction_id: string; status: TransactionStatus }[]> {
    // Events of one transaction can share a timestamp; the status order breaks the tie. One index
    // lookup per id (LATERAL … LIMIT 1): with `= ANY(ids)` over a million events the planner chose a
    // parallel sequential scan of the whole table, a second per page of `ops reconcile`.
    return queryRows(
      this.ds,
      `SELECT t.id AS transaction_id, latest.status
         FROM unnest($1::text[]) AS t(id)
         CROSS JOIN LATERAL (
           SELECT split_part(event_type, '.', 2) AS status FROM webhook_events
            WHERE event_type LIKE 'transaction.%' AND payload->>'transaction_id' = t.id
            ORDER BY created_at DESC,
                     CASE split_part(event_type, '.', 2) WHEN 'pending' THEN 0 WHEN 'processing' THEN 1 ELSE 2 END DESC
            LIMIT 1) latest`,
      [transactionIds],
    );
  }

  /** Every event in id order after `after`, for `ops reconcile`. */
  reconcilePage(
    db: Pick<EntityManager, 'query'>,
    after: string,
    limit: number,
  ): Promise<{ event_id: string; event_type: string; business_id: number; mode: Mode; created_at: Date }[]> {
    return queryRows(
      db,
      `SELECT id AS event_id, event_type, business_id, mode, created_at FROM webhook_events
        WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, limit],
    );
  }

  /**
   * The events of one transaction and of its refunds (their data names it), oldest first, each
   * with the deliveries it caused: the timeline and webhook log of the dashboard's payment page.
   */
  async ofTransaction(ctx: RpcContext, transactionId: string): Promise<EventsOfTransactionResult> {
    const limit = 200;
    const rows = await queryRows<{
      id: string;
      event_type: string;
      created_at: Date;
      deliveries: TransactionEventView['deliveries'];
    }>(
      this.ds,
      `SELECT e.id, e.event_type, e.created_at,
              COALESCE((SELECT json_agg(json_build_object('delivery_id', d.public_id, 'callback_id', d.callback_id,
                                                          'status', d.status, 'attempts', d.attempts,
                                                          'last_error', d.last_error) ORDER BY d.id)
                          FROM deliveries d WHERE d.event_id = e.id), '[]'::json) AS deliveries
         FROM webhook_events e
        WHERE e.business_id = $1 AND e.mode = $2 AND (e.payload->>'transaction_id') = $3 AND e.event_type <> $4
        ORDER BY e.created_at, e.id LIMIT $5`,
      [ctx.business_id, ctx.mode, transactionId, PING_EVENT, limit + 1],
    );
    const events = rows.slice(0, limit).map((r) => ({
      id: r.id,
      event: r.event_type,
      created_at: r.created_at.toISOString(),
      deliveries: r.deliveries,
    }));
    return { events, has_more: rows.length > limit };
  }
}
