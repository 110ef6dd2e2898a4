import { Injectable } from '@nestjs/common';
import {
  DataSource,
  type EntityManager,
  columnList,
  jsonInsert,
  keysetPage,
  queryRows,
  type PageRequest,
  type PreparedStatement,
} from '@payments/database';
import { ErrorCodes, type CallbackView, type Mode, type RpcContext } from '@payments/contracts';
import { DomainException, unknownCursor } from '@payments/platform';

type Db = Pick<EntityManager, 'query'>;

export interface CallbackRow {
  id: number;
  business_id: number;
  mode: Mode;
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

/**
 * Every column of CallbackRow, in the table's order: what each statement reads or returns, so a row is exactly
 * this type.
 */
const CALLBACK_COLUMNS = columnList<CallbackRow>({
  id: true,
  business_id: true,
  mode: true,
  url: true,
  description: true,
  events: true,
  is_active: true,
  failure_count: true,
  disabled_reason: true,
  last_triggered: true,
  secret: true,
  previous_secret: true,
  previous_secret_expires_at: true,
  created_at: true,
  updated_at: true,
  deleted_at: true,
  failing_since: true,
});

/** A new callback as its creator gives it: the columns its insert writes, named as they are. */
export type NewCallback = Pick<CallbackRow, 'business_id' | 'mode' | 'url' | 'description' | 'events' | 'secret'>;

/** The signing secret is stored as given (it signs deliveries); in a logged failure its field is redacted by name. */
const INSERT_CALLBACK = jsonInsert<NewCallback>({
  into: 'callbacks',
  fields: {
    business_id: 'integer',
    mode: 'text',
    url: 'text',
    description: 'text',
    events: 'text[]',
    secret: 'text',
  },
});

/** What an update may change; null leaves a field as it is. */
export interface CallbackChanges {
  url: string | null;
  events: string[] | null;
  description: string | null;
  /** true on a disabled callback enables it again: its failure streak and the reason it was disabled are cleared. */
  isActive: boolean | null;
}

const LIVE = 'business_id = $1 AND mode = $2 AND deleted_at IS NULL';

/** recordSuccess's statement, prepared under a name: it follows deliveries, up to once a second per callback. */
const RECORD_SUCCESS: PreparedStatement = {
  name: 'callbacks_record_success',
  text: `UPDATE callbacks SET failure_count = 0, failing_since = NULL, last_triggered = now()
    WHERE id = $1
      AND (failure_count <> 0 OR last_triggered IS NULL OR last_triggered < now() - interval '1 second')`,
};

export function toCallbackView(c: CallbackRow): CallbackView {
  return {
    id: c.id,
    url: c.url,
    description: c.description,
    events: c.events,
    is_active: c.is_active,
    failure_count: c.failure_count,
    last_triggered: c.last_triggered?.toISOString() ?? null,
    date_created: c.created_at.toISOString(),
    date_updated: c.updated_at.toISOString(),
  };
}

/**
 * Every read and write of `callbacks`. Lock order everywhere: the callback row first, then its
 * deliveries — the other order against a concurrent delete deadlocks.
 */
@Injectable()
export class CallbackStore {
  constructor(private readonly ds: DataSource) {}

  /** A live (not deleted) callback of the business and mode. */
  async owned(businessId: number, mode: Mode, id: number): Promise<CallbackRow | undefined> {
    const [row] = await queryRows<CallbackRow>(
      this.ds,
      `SELECT ${CALLBACK_COLUMNS} FROM callbacks WHERE id = $3 AND ${LIVE}`,
      [businessId, mode, id],
    );
    return row;
  }

  /** The caller's live callback, or NotFound: every merchant call on a callback (or its deliveries) starts here. */
  async ownedOrNotFound(ctx: RpcContext, id: number): Promise<CallbackRow> {
    const row = await this.owned(ctx.business_id, ctx.mode, id);
    if (!row) throw new DomainException(ErrorCodes.NotFound, `no callback ${id}`);
    return row;
  }

  /**
   * The live callbacks of a business and mode, counted under a transaction-scoped lock on that
   * business and mode: creations wait for each other, so the maximum holds under concurrency.
   */
  async countLiveLocked(m: EntityManager, businessId: number, mode: Mode): Promise<number> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`callbacks:${businessId}:${mode}`]);
    return this.countLive(m, businessId, mode);
  }

  async countLive(db: Db, businessId: number, mode: Mode): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM callbacks WHERE ${LIVE}`, [
      businessId,
      mode,
    ]);
    return n;
  }

  async insert(m: EntityManager, c: NewCallback): Promise<CallbackRow> {
    const [row] = await queryRows<CallbackRow>(
      m,
      `${INSERT_CALLBACK.text} RETURNING ${CALLBACK_COLUMNS}`,
      INSERT_CALLBACK.params(c),
    );
    return row;
  }

  /** Newest first (by cursor and/or offset), with the number of live callbacks in all. */
  async page(
    businessId: number,
    mode: Mode,
    page: PageRequest,
  ): Promise<{ rows: CallbackRow[]; hasMore: boolean; total: number }> {
    const { rows, hasMore } = await keysetPage<CallbackRow>(this.ds, {
      table: 'callbacks',
      columns: CALLBACK_COLUMNS,
      scope: [LIVE],
      params: [businessId, mode],
      cursorColumn: 'id',
      orderBy: ['id'],
      page,
      unknownCursor: unknownCursor('callback'),
    });
    return { rows, hasMore, total: await this.countLive(this.ds, businessId, mode) };
  }

  /**
   * Whether this enables the callback again is decided by the statement on the locked row, not on a
   * copy read earlier: an auto-disable committed in between is then enabled again with its failure
   * streak cleared, so that the next failure does not disable it again at once.
   */
  async update(id: number, c: CallbackChanges): Promise<CallbackRow> {
    const [row] = await queryRows<CallbackRow>(
      this.ds,
      `UPDATE callbacks SET url = COALESCE($2, url), events = COALESCE($3, events),
          description = COALESCE($4, description),
          is_active = COALESCE($5, is_active),
          failure_count = CASE WHEN $5 AND NOT is_active THEN 0 ELSE failure_count END,
          failing_since = CASE WHEN $5 AND NOT is_active THEN NULL ELSE failing_since END,
          disabled_reason = CASE WHEN $5 AND NOT is_active THEN NULL
                                 WHEN $5 = false THEN 'disabled by the merchant'
                                 ELSE disabled_reason END,
          updated_at = now()
        WHERE id = $1 RETURNING ${CALLBACK_COLUMNS}`,
      [id, c.url, c.events, c.description, c.isActive],
    );
    return row;
  }

  /** Takes it out of every read; the caller cancels its pending deliveries in the same DB transaction. */
  async softDelete(m: EntityManager, id: number): Promise<void> {
    await m.query('UPDATE callbacks SET deleted_at = now(), is_active = false, updated_at = now() WHERE id = $1', [id]);
  }

  /** A new signing secret; the old one keeps signing beside it for graceSeconds. */
  async rollSecret(id: number, secret: string, graceSeconds: number): Promise<CallbackRow> {
    const [row] = await queryRows<CallbackRow>(
      this.ds,
      `UPDATE callbacks SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $3),
                            secret = $2, updated_at = now()
        WHERE id = $1 RETURNING ${CALLBACK_COLUMNS}`,
      [id, secret, graceSeconds],
    );
    return row;
  }

  /** Locks the row for the caller's DB transaction (before any of its deliveries). */
  async lock(m: EntityManager, id: number): Promise<void> {
    await m.query('SELECT id FROM callbacks WHERE id = $1 FOR UPDATE', [id]);
  }

  /** One more failed attempt in the streak: the new count and how long the streak has lasted. */
  async recordFailure(m: EntityManager, id: number): Promise<{ failure_count: number; failing_ms: number }> {
    const [cb] = await queryRows<{ failure_count: number; failing_ms: number }>(
      m,
      `UPDATE callbacks SET failure_count = failure_count + 1, failing_since = COALESCE(failing_since, now()),
                            last_triggered = now()
        WHERE id = $1
        RETURNING failure_count, (extract(epoch FROM now() - failing_since) * 1000)::float8 AS failing_ms`,
      [id],
    );
    return cb;
  }

  async disable(m: EntityManager, id: number, reason: string): Promise<void> {
    await m.query('UPDATE callbacks SET is_active = false, disabled_reason = $2, updated_at = now() WHERE id = $1', [
      id,
      reason,
    ]);
  }

  /** After a success: clears the failure streak and notes the time, at most about once a second per callback. */
  async recordSuccess(id: number): Promise<void> {
    await this.ds.query(RECORD_SUCCESS, [id]);
  }

  /** Every callback, deleted ones too, in id order, for `ops reconcile`. */
  reconcilePage(
    after: number,
    limit: number,
  ): Promise<
    {
      id: number;
      business_id: number;
      mode: Mode;
      events: string[];
      is_active: boolean;
      deleted: boolean;
      created_at: Date;
    }[]
  > {
    return queryRows(
      this.ds,
      `SELECT id, business_id, mode, events, is_active, deleted_at IS NOT NULL AS deleted, created_at
         FROM callbacks WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, limit],
    );
  }
}
