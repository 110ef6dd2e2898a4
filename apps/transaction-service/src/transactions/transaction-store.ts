import { Injectable } from '@nestjs/common';
import { type EntityManager, type PreparedStatement, queryRows } from '@payments/database';
import { Topics, type Metadata, type TransactionSnapshot, type TransactionStatus, type TransactionStatusChangedData } from '@payments/contracts';
import { OUTBOX_INSERT_COLUMNS, buildEnvelope, outboxRecord, outboxValues, type NewEvent } from '@payments/messaging';
import { publicId } from '@payments/platform';
import { canTransition } from './domain/status-machine';

/** A transactions row as PostgreSQL returns it (bigint columns arrive as strings). */
export interface TransactionRow {
  id: string;
  public_id: string;
  business_id: number;
  mode: 'test' | 'live';
  reference: string;
  amount: string;
  charges: string;
  total: string;
  currency: string;
  email: string;
  payment_method_type: string | null;
  payment_method_code: string | null;
  mobile_money_number: string | null;
  requested_response: string | null;
  status: TransactionStatus;
  message: string;
  checkout_id: string;
  success_url: string | null;
  failure_url: string | null;
  payment_link_id: string | null;
  link_splits: TransactionSnapshot['link_splits'];
  metadata: Metadata;
  description: string | null;
  settle_at: Date | null;
  expires_at: Date;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** Every column of TransactionRow, for statements that must list them (prepared statements: see PreparedStatement). */
const ROW_KEYS = {
  id: 1, public_id: 1, business_id: 1, mode: 1, reference: 1, amount: 1, charges: 1, total: 1, currency: 1, email: 1,
  payment_method_type: 1, payment_method_code: 1, mobile_money_number: 1, requested_response: 1, status: 1, message: 1,
  checkout_id: 1, success_url: 1, failure_url: 1, payment_link_id: 1, link_splits: 1, metadata: 1, description: 1,
  settle_at: 1, expires_at: 1, version: 1, created_at: 1, updated_at: 1,
} satisfies Record<keyof TransactionRow, 1>;
const ROW_COLUMNS = Object.keys(ROW_KEYS).join(', ');

export const PRODUCER = 'transaction-service';

/**
 * Metadata and description travel to SQL as one JSON parameter, read there with
 * `($n::jsonb)->'metadata'` and `($n::jsonb)->>'description'`: a logged database error's
 * parameters then name them, and log redaction removes them by name.
 */
export function annotationsParam(metadata: Metadata, description: string | null): string {
  return JSON.stringify({ metadata, description });
}

export function toSnapshot(row: TransactionRow): TransactionSnapshot {
  return {
    id: Number(row.id),
    transaction_id: row.public_id,
    transaction_reference: row.reference,
    business_id: row.business_id,
    mode: row.mode,
    amount: Number(row.amount),
    charges: Number(row.charges),
    total: Number(row.total),
    currency: row.currency.trim(),
    status: row.status,
    message: row.message,
    email: row.email,
    payment_method_type: row.payment_method_type,
    payment_method_code: row.payment_method_code,
    checkout_id: row.checkout_id,
    payment_link_id: row.payment_link_id,
    link_splits: row.link_splits ?? [],
    metadata: row.metadata ?? {},
    description: row.description ?? null,
    version: row.version,
    date_created: row.created_at.toISOString(),
    date_updated: row.updated_at.toISOString(),
  };
}

export class ConcurrentStatusChange extends Error {}

/** A timestamp column as a JSON string formatted as toSnapshot formats it (ISO-8601 UTC, milliseconds truncated like a Date). */
const iso = (column: string) => `to_jsonb(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * A transaction and its events in one statement, so atomic without a transaction block (one round
 * trip when run on the pool). Prepared: it is the service's hottest statement.
 */
const CREATE_STATEMENT: PreparedStatement = {
  name: 'transactions_create',
  text: `WITH t AS (
         INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
           payment_method_type, payment_method_code, mobile_money_number, requested_response, status, message,
           checkout_id, success_url, failure_url, payment_link_id, link_splits, expires_at, checkout_attempt, version, settle_at,
           metadata, description)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20, now() + make_interval(secs => $21), $22, $23, $25, ($26::jsonb)->'metadata', ($26::jsonb)->>'description')
         RETURNING ${ROW_COLUMNS}
       ), event AS (
         INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         SELECT e.event_id, e.topic, e.message_key,
                jsonb_set(jsonb_set(jsonb_set(e.payload, '{data,transaction,id}', to_jsonb(t.id)),
                  '{data,transaction,date_created}', ${iso('t.created_at')}), '{data,transaction,date_updated}', ${iso('t.updated_at')}),
                e.headers
           FROM t, jsonb_to_recordset($24::jsonb) AS e(n integer, event_id uuid, topic text, message_key text, payload jsonb, headers jsonb)
          ORDER BY e.n
       )
       SELECT * FROM t`,
};

export interface NewTransaction {
  businessId: number;
  mode: 'test' | 'live';
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
   * Inserts a pending transaction and its creation event (previous_status null) in one statement.
   * The event is built here from the row as it will be; the three values only the insert knows
   * (id, created_at, updated_at) are set into it by the same statement, formatted as toSnapshot
   * formats them (ISO-8601 UTC, milliseconds truncated like a JavaScript Date).
   */
  async create(m: EntityManager, t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
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
    const events = [this.statusEvent(draft, null, correlationId)];
    let row = draft;
    if (t.then) {
      if (!canTransition('pending', t.then.status)) throw new ConcurrentStatusChange(`a new transaction cannot go to ${t.then.status}`);
      row = { ...draft, status: t.then.status, message: t.then.message, settle_at: t.then.settleAt, version: draft.version + 1 };
      events.push(this.statusEvent(row, 'pending', correlationId));
    }
    // Every event is of this row: the statement sets id and timestamps (the same now() for all).
    const outbox = events.map((event, n) => ({ n, ...outboxRecord(event, buildEnvelope(event)) }));
    const [stored] = await queryRows<TransactionRow>(
      m,
      CREATE_STATEMENT,
      [
        draft.public_id,
        draft.business_id,
        draft.mode,
        draft.reference,
        draft.amount,
        draft.charges,
        draft.total,
        draft.currency,
        draft.email,
        draft.payment_method_type,
        draft.payment_method_code,
        draft.mobile_money_number,
        draft.requested_response,
        row.status,
        row.message,
        draft.checkout_id,
        draft.success_url,
        draft.failure_url,
        draft.payment_link_id,
        JSON.stringify(draft.link_splits),
        t.expiresInSeconds,
        t.checkoutAttempt ?? null,
        row.version,
        JSON.stringify(outbox),
        row.settle_at,
        annotationsParam(draft.metadata, draft.description),
      ],
    );
    return stored;
  }

  /**
   * Records the method a customer chose on the checkout page (only while pending). It bumps the
   * version like every change of the row: a status change built from a row read before it then
   * fails its version guard instead of publishing a snapshot without the method.
   */
  async setMethod(m: EntityManager, row: TransactionRow, type: string, code: string, mobileNumber: string | null): Promise<TransactionRow> {
    const [updated] = await queryRows<TransactionRow>(
      m,
      `UPDATE transactions SET payment_method_type = $2, payment_method_code = $3, mobile_money_number = COALESCE($4, mobile_money_number),
              version = version + 1, updated_at = now()
        WHERE id = $1 AND status = 'pending' RETURNING *`,
      [row.id, type, code, mobileNumber],
    );
    if (!updated) throw new ConcurrentStatusChange(`transaction ${row.public_id} is no longer pending`);
    return updated;
  }

  async changeStatus(
    m: EntityManager,
    row: TransactionRow,
    to: TransactionStatus,
    message: string,
    correlationId: string | null,
    extra: { settleAt?: Date | null } = {},
  ): Promise<TransactionRow> {
    if (!canTransition(row.status, to)) throw new ConcurrentStatusChange(`transaction ${row.public_id} cannot go from ${row.status} to ${to}`);
    // One statement for the change and its event (as create() does): the event is built from the
    // row as it will be, which the version guard makes exact (every caller holds the row locked or
    // just wrote it); only date_updated comes from the statement.
    const settleAt = extra.settleAt === undefined ? row.settle_at : extra.settleAt;
    const next: TransactionRow = { ...row, status: to, message, settle_at: settleAt, version: row.version + 1 };
    const event = this.statusEvent(next, row.status, correlationId);
    const rows = await queryRows<TransactionRow>(
      m,
      `WITH t AS (
         UPDATE transactions SET status = $3, message = $4, settle_at = $5, version = version + 1, updated_at = now()
          WHERE id = $1 AND status = $2 AND version = $6 RETURNING *
       ), event AS (
         INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         SELECT $7, $8, $9, jsonb_set($10::jsonb, '{data,transaction,date_updated}', ${iso('t.updated_at')}), $11::jsonb FROM t
       )
       SELECT * FROM t`,
      [row.id, row.status, to, message, settleAt, row.version, ...outboxValues(event, buildEnvelope(event))],
    );
    if (rows.length === 0) throw new ConcurrentStatusChange(`transaction ${row.public_id} changed concurrently`);
    return rows[0];
  }

  private statusEvent(row: TransactionRow, previous: TransactionStatus | null, correlationId: string | null): NewEvent<TransactionStatusChangedData> {
    return {
      topic: Topics.TransactionStatusChanged,
      type: Topics.TransactionStatusChanged,
      key: row.public_id,
      producer: PRODUCER,
      mode: row.mode,
      businessId: row.business_id,
      correlationId,
      data: { transaction: toSnapshot(row), previous_status: previous, status: row.status },
    };
  }
}
