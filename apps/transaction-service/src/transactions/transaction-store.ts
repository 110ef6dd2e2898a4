import { Injectable } from '@nestjs/common';
import { type EntityManager, type PreparedStatement, type TransactionManager, queryRows } from '@payments/database';
import type { Metadata, TransactionSnapshot, TransactionStatus, Mode } from '@payments/contracts';
import { OUTBOX_INSERT_COLUMNS, buildEnvelope, outboxRecord, outboxValues } from '@payments/messaging';
import { publicId } from '@payments/platform';
import { canTransition } from './domain/status-machine';
import {
  ConcurrentStatusChange,
  INSERT_COLUMNS,
  ROW_COLUMNS,
  insertRecord,
  iso,
  statusEvent,
  type PreparedInsert,
  type TransactionRow,
} from './transaction-row';

export * from './transaction-row';

/**
 * The outbox row of an event `e` of the inserted row `t`: its payload gets the three values only the
 * insert knows (id, created_at, updated_at), formatted as toSnapshot formats them.
 */
const EVENT_FROM_ROW = `SELECT e.event_id, e.topic, e.message_key,
                jsonb_set(jsonb_set(jsonb_set(e.payload, '{data,transaction,id}', to_jsonb(t.id)),
                  '{data,transaction,date_created}', ${iso('t.created_at')}),
                  '{data,transaction,date_updated}', ${iso('t.updated_at')}),
                e.headers`;
/** The shape of a prepared insert's outbox records (PreparedInsert.outbox) read back from JSON. */
const EVENT_RECORD = 'e(n integer, event_id uuid, topic text, message_key text, payload jsonb, headers jsonb)';

const INSERTED = Object.keys(INSERT_COLUMNS).join(', ');

/**
 * Transactions and their events in one prepared statement: atomic without a transaction block, one round trip (a second
 * statement cost 1 ms of CPU per initialize, docs/benchmarks.md). With `skipConflicts` a row meeting a unique
 * constraint is skipped, and its caller runs alone to get its own error.
 */
function insertStatement(name: string, skipConflicts: boolean): PreparedStatement {
  const recordset = Object.entries(INSERT_COLUMNS)
    .map(([column, type]) => `${column} ${type}`)
    .join(', ');
  return {
    name,
    text: `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb)
                  AS r(i integer, ${recordset}, expires_in double precision, events jsonb)
       ), t AS (
         INSERT INTO transactions (${INSERTED}, expires_at)
         SELECT ${INSERTED}, now() + make_interval(secs => expires_in) FROM input ORDER BY i
         ${skipConflicts ? 'ON CONFLICT DO NOTHING' : ''}
         RETURNING ${ROW_COLUMNS}
       ), event AS (
         INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         ${EVENT_FROM_ROW}
           FROM t JOIN input r ON r.public_id = t.public_id,
                jsonb_to_recordset(r.events) AS ${EVENT_RECORD}
          ORDER BY r.i, e.n
       )
       SELECT * FROM t`,
  };
}

const INSERT_ONE = insertStatement('transactions_create', false);
const INSERT_MANY = insertStatement('transactions_create_many', true);

export interface NewTransaction {
  businessId: number;
  mode: Mode;
  reference: string;
  amount: number;
  charges: number;
  currency: string;
  email: string;
  paymentMethodType: string | null;
  paymentMethodCode: string | null;
  mobileMoneyNumber: string | null;
  requestedResponse: string | null;
  message: string;
  successUrl: string | null;
  failureUrl: string | null;
  expiresInSeconds: number;
  paymentLinkId?: string | null;
  linkSplits?: TransactionSnapshot['link_splits'];
  metadata?: Metadata;
  description?: string | null;
  checkoutAttempt?: string | null;
  /** ctx.idempotency_key of the creating request: a second insert with it meets transactions_idempotency_key. */
  idempotencyKey?: string | null;
  /** When the caller stops waiting (ctx.deadline_at): not written after it (TransactionInsertBatch). */
  deadlineAt?: number;
  /**
   * A status the transaction moves to at once (the sandbox's handset prompt): the row is inserted
   * in it, after the creation event the event of that change — as if changeStatus had run
   * right after the insert, in one statement.
   */
  then?: { status: TransactionStatus; message: string; settleAt: Date | null };
}

/**
 * The one place a transaction's status changes: a conditional UPDATE (so two concurrent changes
 * cannot both win) and its outbox event, in the caller's DB transaction.
 */
@Injectable()
export class TransactionStore {
  /**
   * Inserts a pending transaction and its creation event in one statement; the values only the insert knows (id,
   * created_at, updated_at) are set into the event by that statement, formatted as toSnapshot formats them.
   */
  async create(m: EntityManager, t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
    return this.insert(m, this.prepare(t, correlationId));
  }

  /** The row as the insert will store it and its events; no I/O (a batch prepares many, see TransactionInsertBatch). */
  prepare(t: NewTransaction, correlationId: string | null): PreparedInsert {
    const draft: TransactionRow = {
      id: '0',
      public_id: publicId('txn'),
      business_id: t.businessId,
      mode: t.mode,
      reference: t.reference,
      amount: String(t.amount),
      charges: String(t.charges),
      total: String(t.amount + t.charges),
      currency: t.currency,
      email: t.email,
      payment_method_type: t.paymentMethodType,
      payment_method_code: t.paymentMethodCode,
      mobile_money_number: t.mobileMoneyNumber,
      requested_response: t.requestedResponse,
      status: 'pending',
      message: t.message,
      checkout_id: publicId('chk'),
      success_url: t.successUrl,
      failure_url: t.failureUrl,
      payment_link_id: t.paymentLinkId ?? null,
      link_splits: t.linkSplits ?? [],
      metadata: t.metadata ?? {},
      description: t.description ?? null,
      settle_at: null,
      expires_at: new Date(0),
      version: 1,
      created_at: new Date(0),
      updated_at: new Date(0),
    };
    const events = [statusEvent(draft, null, correlationId)];
    let row = draft;
    if (t.then) {
      if (!canTransition('pending', t.then.status))
        throw new ConcurrentStatusChange(`a new transaction cannot go to ${t.then.status}`);
      row = {
        ...draft,
        status: t.then.status,
        message: t.then.message,
        settle_at: t.then.settleAt,
        version: draft.version + 1,
      };
      events.push(statusEvent(row, 'pending', correlationId));
    }
    // Every event is of this row: the statement sets id and timestamps (the same now() for all).
    const outbox = events.map((event, n) => ({ n, ...outboxRecord(event, buildEnvelope(event)) }));
    return {
      row,
      outbox,
      expiresInSeconds: t.expiresInSeconds,
      checkoutAttempt: t.checkoutAttempt ?? null,
      idempotencyKey: t.idempotencyKey ?? null,
      deadlineAt: t.deadlineAt,
    };
  }

  /** Inserts prepared transactions and their events in one statement; returns the rows no unique constraint skipped. */
  insertMany(m: EntityManager, items: PreparedInsert[]): Promise<TransactionRow[]> {
    return queryRows<TransactionRow>(m, INSERT_MANY, [JSON.stringify(items.map(insertRecord))]);
  }

  /** Inserts one prepared transaction and its events in one statement; a unique constraint it meets is its error. */
  async insert(m: EntityManager, item: PreparedInsert): Promise<TransactionRow> {
    const [stored] = await queryRows<TransactionRow>(m, INSERT_ONE, [JSON.stringify([insertRecord(item, 0)])]);
    return stored;
  }

  /**
   * Records the method a customer chose on the checkout page (only while pending). It bumps the
   * version like every change of the row: a status change built from a row read before it then
   * fails its version guard instead of publishing a snapshot without the method.
   */
  async setMethod(
    m: EntityManager,
    row: TransactionRow,
    type: string,
    code: string,
    mobileNumber: string | null,
  ): Promise<TransactionRow> {
    const [updated] = await queryRows<TransactionRow>(
      m,
      `UPDATE transactions SET payment_method_type = $2, payment_method_code = $3,
              mobile_money_number = COALESCE($4, mobile_money_number), version = version + 1, updated_at = now()
        WHERE id = $1 AND status = 'pending' RETURNING *`,
      [row.id, type, code, mobileNumber],
    );
    if (!updated) throw new ConcurrentStatusChange(`transaction ${row.public_id} is no longer pending`);
    return updated;
  }

  async changeStatus(
    m: TransactionManager,
    row: TransactionRow,
    to: TransactionStatus,
    message: string,
    correlationId: string | null,
    extra: { settleAt?: Date | null } = {},
  ): Promise<TransactionRow> {
    if (!canTransition(row.status, to))
      throw new ConcurrentStatusChange(`transaction ${row.public_id} cannot go from ${row.status} to ${to}`);
    // One statement for the change and its event (as create() does): the event is built from the
    // row as it will be, which the version guard makes exact (every caller holds the row locked or
    // just wrote it); only date_updated comes from the statement.
    const settleAt = extra.settleAt === undefined ? row.settle_at : extra.settleAt;
    const next: TransactionRow = { ...row, status: to, message, settle_at: settleAt, version: row.version + 1 };
    const event = statusEvent(next, row.status, correlationId);
    const rows = await queryRows<TransactionRow>(
      m,
      `WITH t AS (
         UPDATE transactions SET status = $3, message = $4, settle_at = $5, version = version + 1, updated_at = now()
          WHERE id = $1 AND status = $2 AND version = $6 RETURNING *
       ), event AS (
         INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         SELECT $7, $8, $9, jsonb_set($10::jsonb, '{data,transaction,date_updated}', ${iso('t.updated_at')}), $11::jsonb
           FROM t
       )
       SELECT * FROM t`,
      [row.id, row.status, to, message, settleAt, row.version, ...outboxValues(event, buildEnvelope(event))],
    );
    if (rows.length === 0) throw new ConcurrentStatusChange(`transaction ${row.public_id} changed concurrently`);
    return rows[0];
  }
}
