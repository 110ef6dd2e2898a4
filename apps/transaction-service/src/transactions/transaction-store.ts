import { Injectable } from '@nestjs/common';
import {
  type EntityManager,
  type FollowUp,
  type PreparedStatement,
  type TransactionManager,
  queryChained,
  queryRows,
  recordDefinition,
} from '@payments/database';
import type { TransactionStatus } from '@payments/contracts';
import { outboxAppend } from '@payments/messaging';
import { publicId } from '@payments/platform';
import { canTransition } from './domain/status-machine';
import {
  ConcurrentStatusChange,
  INSERT_COLUMNS,
  ROW_COLUMNS,
  creationEvents,
  insertRecord,
  statusEvent,
  type FirstState,
  type NewTransaction,
  type NewTransactionRow,
  type PreparedInsert,
  type TransactionRow,
} from './transaction-row';

export * from './transaction-row';

const INSERTED = Object.keys(INSERT_COLUMNS).join(', ');

/**
 * Inserts transactions from one JSON document, returning them as stored; their events follow, built from those rows, in
 * the same transaction (queryChained). With `skipConflicts` a row meeting a unique constraint is skipped, and its
 * caller runs alone to get its own error.
 */
function insertStatement(name: string, skipConflicts: boolean): PreparedStatement {
  const document = `i integer, ${recordDefinition(INSERT_COLUMNS)}, expires_in double precision`;
  return {
    name,
    text: `INSERT INTO transactions (${INSERTED}, expires_at)
           SELECT ${INSERTED}, now() + make_interval(secs => expires_in)
             FROM jsonb_to_recordset($1::jsonb) AS r(${document})
            ORDER BY i
           ${skipConflicts ? 'ON CONFLICT DO NOTHING' : ''}
           RETURNING ${ROW_COLUMNS}`,
  };
}

const INSERT_ONE = insertStatement('transactions_insert', false);
const INSERT_MANY = insertStatement('transactions_insert_many', true);

/**
 * Status changes, each guarded by the status and version its caller read, so two concurrent changes cannot both win.
 * Only the changed rows come back.
 */
const CHANGE_STATUS: PreparedStatement = {
  name: 'transactions_change_status',
  text: `UPDATE transactions
            SET status = c.to_status, message = c.to_message, settle_at = c.to_settle_at, version = version + 1,
                updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS c(change_id bigint, from_status text, from_version integer,
                                                   to_status text, to_message text, to_settle_at timestamptz)
          WHERE id = c.change_id AND status = c.from_status AND version = c.from_version
         RETURNING ${ROW_COLUMNS}`,
};

/** One row's status change: from the row as its caller read (and locked) it. */
export interface StatusChange {
  row: TransactionRow;
  to: TransactionStatus;
  message: string;
  /** The row's new settle_at; unchanged when absent. */
  settleAt?: Date | null;
}

/** The follow-up writing the events of the transactions an insert stored (none: skipped by a conflict). */
function eventsOfInserted(items: PreparedInsert[]): (rows: TransactionRow[]) => FollowUp | null {
  return (rows) => {
    const stored = new Map(rows.map((r) => [r.public_id, r]));
    const inserted = items.filter((item) => stored.has(item.row.public_id));
    // Thrown before the commit, so the rows go with it: no row is ever stored without its events.
    if (inserted.length !== rows.length) throw new Error('the insert returned a row that was not asked for');
    const events = inserted.flatMap((item) => creationEvents(stored.get(item.row.public_id)!, item));
    return events.length > 0 ? outboxAppend(events) : null;
  };
}

/** The one place a transaction's row is written: every write of its status appends that status's event. */
@Injectable()
export class TransactionStore {
  /** Inserts a pending transaction; its creation event is built from the stored row and written with it. */
  async create(m: EntityManager, t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
    return this.insert(m, this.prepare(t, correlationId));
  }

  /** The row as the insert will write it, with the fields the store chooses; no I/O (see TransactionInsertBatch). */
  prepare(t: NewTransaction, correlationId: string | null): PreparedInsert {
    const { amount, charges, then, deadline_at, expires_in, checkout_attempt, idempotency_key, ...chosen } = t;
    const row: NewTransactionRow = {
      ...chosen,
      payment_link_id: chosen.payment_link_id ?? null,
      link_splits: chosen.link_splits ?? [],
      metadata: chosen.metadata ?? {},
      description: chosen.description ?? null,
      public_id: publicId('txn'),
      amount: String(amount),
      charges: String(charges),
      total: String(amount + charges),
      status: 'pending',
      checkout_id: publicId('chk'),
      settle_at: null,
      version: 1,
    };
    let firstState: FirstState | null = null;
    if (then) {
      if (!canTransition('pending', then.status))
        throw new ConcurrentStatusChange(`a new transaction cannot go to ${then.status}`);
      firstState = { status: row.status, message: row.message, settle_at: row.settle_at, version: row.version };
      Object.assign(row, { ...then, version: 2 });
    }
    return {
      row,
      insertOnly: { expires_in, checkout_attempt: checkout_attempt ?? null, idempotency_key: idempotency_key ?? null },
      firstState,
      correlationId,
      deadlineAt: deadline_at,
    };
  }

  /** Inserts prepared transactions and their events; returns the rows no unique constraint skipped. */
  insertMany(m: EntityManager, items: PreparedInsert[]): Promise<TransactionRow[]> {
    return queryChained(m, INSERT_MANY, [JSON.stringify(items.map(insertRecord))], eventsOfInserted(items));
  }

  /** Inserts one prepared transaction and its events; a unique constraint it meets is its error. */
  async insert(m: EntityManager, item: PreparedInsert): Promise<TransactionRow> {
    const [stored] = await queryChained(
      m,
      INSERT_ONE,
      [JSON.stringify([insertRecord(item, 0)])],
      eventsOfInserted([item]),
    );
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
        WHERE id = $1 AND status = 'pending' RETURNING ${ROW_COLUMNS}`,
      [row.id, type, code, mobileNumber],
    );
    if (!updated) throw new ConcurrentStatusChange(`transaction ${row.public_id} is no longer pending`);
    return updated;
  }

  /** Moves `row` to `to` unless it changed since it was read; the event is built from the row as stored. */
  async changeStatus(
    m: TransactionManager,
    row: TransactionRow,
    to: TransactionStatus,
    message: string,
    correlationId: string | null,
    extra: { settleAt?: Date | null } = {},
  ): Promise<TransactionRow> {
    const [changed] = await this.changeStatuses(m, [{ row, to, message, settleAt: extra.settleAt }], correlationId);
    return changed;
  }

  /**
   * Changes several rows in one statement, their events following in the order given. Any row changed since it was
   * read fails them all (ConcurrentStatusChange, and the caller's transaction rolls back).
   */
  async changeStatuses(
    m: TransactionManager,
    changes: StatusChange[],
    correlationId: string | null,
  ): Promise<TransactionRow[]> {
    for (const { row, to } of changes)
      if (!canTransition(row.status, to))
        throw new ConcurrentStatusChange(`transaction ${row.public_id} cannot go from ${row.status} to ${to}`);
    if (new Set(changes.map((c) => c.row.id)).size < changes.length)
      throw new Error('a transaction can change status once per statement');
    const records = changes.map(({ row, to, message, settleAt }) => ({
      change_id: row.id,
      from_status: row.status,
      from_version: row.version,
      to_status: to,
      to_message: message,
      to_settle_at: settleAt === undefined ? row.settle_at : settleAt,
    }));
    let stored = new Map<string, TransactionRow>();
    await queryChained<TransactionRow>(m, CHANGE_STATUS, [JSON.stringify(records)], (rows) => {
      stored = new Map(rows.map((r) => [r.id, r]));
      const applied = changes.filter(({ row }) => stored.has(row.id));
      if (applied.length !== rows.length) throw new Error('the status change returned a row that was not asked for');
      const events = applied.map(({ row }) => statusEvent(stored.get(row.id)!, row.status, correlationId));
      return events.length > 0 ? outboxAppend(events) : null;
    });
    return changes.map(({ row }) => {
      const changed = stored.get(row.id);
      if (!changed) throw new ConcurrentStatusChange(`transaction ${row.public_id} changed concurrently`);
      return changed;
    });
  }
}
