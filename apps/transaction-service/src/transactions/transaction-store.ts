import { Injectable } from '@nestjs/common';
import { type EntityManager, type PreparedStatement, type TransactionManager, queryRows } from '@payments/database';
import type { Metadata, TransactionSnapshot, TransactionStatus, Mode } from '@payments/contracts';
import { appendEventsToOutbox, appendToOutbox } from '@payments/messaging';
import { publicId } from '@payments/platform';
import { canTransition } from './domain/status-machine';
import {
  ConcurrentStatusChange,
  INSERT_COLUMNS,
  ROW_COLUMNS,
  insertRecord,
  insertedEvents,
  statusEvent,
  type NewTransactionRow,
  type PreparedInsert,
  type TransactionRow,
} from './transaction-row';

export * from './transaction-row';

const INSERTED = Object.keys(INSERT_COLUMNS).join(', ');

/**
 * The insert of one or more transactions. The rows come as one JSON document (insertRecord), so
 * the text (and its plan) does not depend on how many; prepared, as the service's hottest statement.
 *
 * `skipConflicts` (the batch, TransactionInsertBatch): a row that meets a unique constraint is
 * skipped, not an error for the others; its caller's insert runs alone to get its own error.
 */
function insertStatement(name: string, skipConflicts: boolean): PreparedStatement {
  const recordset = Object.entries(INSERT_COLUMNS)
    .map(([column, type]) => `${column} ${type}`)
    .join(', ');
  return {
    name,
    text: `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb)
                AS r(i integer, ${recordset}, expires_in double precision)
       )
       INSERT INTO transactions (${INSERTED}, expires_at)
       SELECT ${INSERTED}, now() + make_interval(secs => expires_in) FROM input ORDER BY i
       ${skipConflicts ? 'ON CONFLICT DO NOTHING' : ''}
       RETURNING ${ROW_COLUMNS}`,
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
   * A status the transaction moves to at once (the sandbox's handset prompt): the row is inserted in
   * it, with the creation event and then that change's event, as if changeStatus had run at once.
   */
  then?: { status: TransactionStatus; message: string; settleAt: Date | null };
}

/**
 * Every write of the `transactions` table. A status change is a conditional UPDATE (two concurrent
 * changes cannot both win); each write and its events go in the caller's DB transaction.
 */
@Injectable()
export class TransactionStore {
  /** Inserts a pending transaction and its creation event (previous_status null) */
  async create(m: TransactionManager, t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
    return this.insert(m, this.prepare(t, correlationId));
  }

  /** The row as the insert will store it; no I/O (a batch prepares many, see TransactionInsertBatch). */
  prepare(t: NewTransaction, correlationId: string | null): PreparedInsert {
    let row: NewTransactionRow = {
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
      version: 1,
    };
    if (t.then) {
      if (!canTransition('pending', t.then.status))
        throw new ConcurrentStatusChange(`a new transaction cannot go to ${t.then.status}`);
      row = { ...row, status: t.then.status, message: t.then.message, settle_at: t.then.settleAt, version: 2 };
    }
    return {
      row,
      createdWith: t.then ? t.message : null,
      correlationId,
      expiresInSeconds: t.expiresInSeconds,
      checkoutAttempt: t.checkoutAttempt ?? null,
      idempotencyKey: t.idempotencyKey ?? null,
      deadlineAt: t.deadlineAt,
    };
  }

  /**
   * Inserts prepared transactions and their events ; returns the rows
   * inserted, without those a unique constraint skipped.
   */
  async insertMany(m: TransactionManager, items: PreparedInsert[]): Promise<TransactionRow[]> {
    const rows = await queryRows<TransactionRow>(m, INSERT_MANY, [JSON.stringify(items.map(insertRecord))]);
    const byId = new Map(rows.map((r) => [r.public_id, r]));
    const events = items.flatMap((item) => {
      const stored = byId.get(item.row.public_id);
      return stored ? insertedEvents(stored, item) : [];
    });
    await appendEventsToOutbox(m, events);
    return rows;
  }

  /** Inserts one prepared transaction and its events ; a unique constraint is its error. */
  async insert(m: TransactionManager, item: PreparedInsert): Promise<TransactionRow> {
    const [stored] = await queryRows<TransactionRow>(m, INSERT_ONE, [JSON.stringify([insertRecord(item, 0)])]);
    await appendEventsToOutbox(m, insertedEvents(stored, item));
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

  /** Moves the row to `to` and appends the event built from the updated row . */
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
    const settleAt = extra.settleAt === undefined ? row.settle_at : extra.settleAt;
    const [updated] = await queryRows<TransactionRow>(
      m,
      `UPDATE transactions SET status = $3, message = $4, settle_at = $5, version = version + 1, updated_at = now()
        WHERE id = $1 AND status = $2 AND version = $6 RETURNING ${ROW_COLUMNS}`,
      [row.id, row.status, to, message, settleAt, row.version],
    );
    if (!updated) throw new ConcurrentStatusChange(`transaction ${row.public_id} changed concurrently`);
    await appendToOutbox(m, statusEvent(updated, row.status, correlationId));
    return updated;
  }
}
