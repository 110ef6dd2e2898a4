import { Injectable } from '@nestjs/common';
import { type DataSource, type EntityManager, type PreparedStatement, columnList, queryRows } from '@payments/database';
import type {
  DailyTotal,
  LinkSplit,
  Mode,
  RefundSnapshot,
  RefundStatus,
  TransactionSnapshot,
  TransactionStatus,
} from '@payments/contracts';

/** A ledger_transactions row: the ledger's copy of a transaction, as its events described it. */
export interface TransactionCopyRow {
  id: string;
  public_id: string;
  business_id: number;
  mode: Mode;
  amount: string;
  currency: string;
  status: TransactionStatus;
  link_splits: LinkSplit[];
  transaction_created_at: Date;
}

/**
 * Every column of TransactionCopyRow: what each statement reads, so a row is exactly this type. The table's
 * `version` and `updated_at` are only the upsert's concern: no reader of a copy needs them.
 */
const COPY_COLUMNS = columnList<TransactionCopyRow>({
  id: true,
  public_id: true,
  business_id: true,
  mode: true,
  amount: true,
  currency: true,
  status: true,
  link_splits: true,
  transaction_created_at: true,
});

/**
 * Upserts copies from a JSON array of rows, a copy moving only to a higher version. Run on every transaction event the
 * ledger consumes, so prepared under a name: parsed and planned once per connection.
 */
const SAVE_TRANSACTIONS: PreparedStatement = {
  name: 'ledger_transactions_save',
  text: `INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status, version,
                                   link_splits, transaction_created_at, updated_at)
  SELECT r.id, r.public_id, r.business_id, r.mode, r.amount, r.currency, r.status, r.version,
         COALESCE(r.link_splits, '[]'::jsonb), r.transaction_created_at, now()
    FROM jsonb_to_recordset($1::jsonb)
         AS r(id bigint, public_id text, business_id integer, mode text, amount bigint, currency text, status text,
              version integer, link_splits jsonb, transaction_created_at timestamptz)
  ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
   WHERE ledger_transactions.version < EXCLUDED.version`,
};

export interface RefundCopy {
  id: string;
  transaction_id: string;
  amount: string;
  status: RefundStatus;
}

/**
 * The ledger's copies of transaction-service's transactions and refunds (`ledger_transactions`,
 * `ledger_refunds`): what splits and reversals are computed from. A copy only moves to a higher
 * version, so an event arriving late changes nothing.
 */
@Injectable()
export class TransactionCopyStore {
  /** Upserts the copies of the given snapshots (at most one per transaction). */
  async saveTransactions(m: EntityManager, snapshots: TransactionSnapshot[]): Promise<void> {
    if (snapshots.length === 0) return;
    const rows = snapshots.map((t) => ({
      id: t.id,
      public_id: t.transaction_id,
      business_id: t.business_id,
      mode: t.mode,
      amount: t.amount,
      currency: t.currency,
      status: t.status,
      version: t.version,
      link_splits: t.link_splits,
      transaction_created_at: t.date_created,
    }));
    await m.query(SAVE_TRANSACTIONS, [JSON.stringify(rows)]);
  }

  /**
   * One business's totals in one mode, by day then currency, for the days from..to (UTC, both
   * included): the compacted totals plus the changes not compacted yet, read in one snapshot.
   */
  dailyTotals(ds: DataSource, businessId: number, mode: Mode, from: string, to: string): Promise<DailyTotal[]> {
    return queryRows<DailyTotal & { succeeded_amount: string }>(
      ds,
      `SELECT to_char(day, 'YYYY-MM-DD') AS date, currency, sum(payments)::int AS payments,
              sum(succeeded)::int AS succeeded, sum(succeeded_amount)::text AS succeeded_amount
         FROM (SELECT day, currency, payments, succeeded, succeeded_amount FROM ledger_daily_totals
                WHERE business_id = $1 AND mode = $2 AND day BETWEEN $3::date AND $4::date
               UNION ALL
               SELECT day, currency, payments, succeeded, succeeded_amount FROM ledger_daily_totals_changes
                WHERE business_id = $1 AND mode = $2 AND day BETWEEN $3::date AND $4::date) AS parts
        GROUP BY day, currency ORDER BY day, currency`,
      [businessId, mode, from, to],
    ).then((rows) => rows.map((r) => ({ ...r, succeeded_amount: Number(r.succeeded_amount) })));
  }

  /**
   * Folds up to `limit` of the oldest changes into the totals: one statement, so a reader sees them
   * on one side or the other. Replicas take different changes (SKIP LOCKED) and add to the totals
   * in key order. Returns how many changes it folded.
   */
  async compactDailyTotals(ds: DataSource, limit: number): Promise<number> {
    const [row] = await queryRows<{ folded: number }>(
      ds,
      `WITH picked AS (SELECT id FROM ledger_daily_totals_changes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED),
       folded AS (DELETE FROM ledger_daily_totals_changes c USING picked WHERE c.id = picked.id
                  RETURNING c.business_id, c.mode, c.day, c.currency, c.payments, c.succeeded, c.succeeded_amount),
       added AS (
         INSERT INTO ledger_daily_totals (business_id, mode, day, currency, payments, succeeded, succeeded_amount)
         SELECT business_id, mode, day, currency, sum(payments), sum(succeeded), sum(succeeded_amount)
           FROM folded GROUP BY business_id, mode, day, currency ORDER BY business_id, mode, day, currency
         ON CONFLICT (business_id, mode, day, currency) DO UPDATE
            SET payments = ledger_daily_totals.payments + EXCLUDED.payments,
                succeeded = ledger_daily_totals.succeeded + EXCLUDED.succeeded,
                succeeded_amount = ledger_daily_totals.succeeded_amount + EXCLUDED.succeeded_amount)
       SELECT count(*)::int AS folded FROM folded`,
      [limit],
    );
    return row.folded;
  }

  async saveRefund(m: EntityManager, r: RefundSnapshot): Promise<void> {
    await m.query(
      `INSERT INTO ledger_refunds (id, public_id, transaction_id, amount, status, version, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6, now())
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
        WHERE ledger_refunds.version < EXCLUDED.version`,
      [r.id, r.refund_id, r.transaction.id, r.amount, r.status, r.version],
    );
  }

  async transaction(m: EntityManager, id: number): Promise<TransactionCopyRow | undefined> {
    const [row] = await queryRows<TransactionCopyRow>(
      m,
      `SELECT ${COPY_COLUMNS} FROM ledger_transactions WHERE id = $1`,
      [id],
    );
    return row;
  }

  transactions(m: EntityManager, ids: string[]): Promise<TransactionCopyRow[]> {
    return queryRows<TransactionCopyRow>(
      m,
      `SELECT ${COPY_COLUMNS} FROM ledger_transactions WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    );
  }

  /** The refunds of the given transactions, oldest first; only successful ones when asked. */
  refunds(m: EntityManager, transactionIds: (string | number)[], onlySuccessful = false): Promise<RefundCopy[]> {
    return queryRows<RefundCopy>(
      m,
      `SELECT id::text, transaction_id::text, amount::text, status FROM ledger_refunds
        WHERE transaction_id = ANY($1::bigint[])${onlySuccessful ? " AND status = 'success'" : ''} ORDER BY id`,
      [transactionIds.map(String)],
    );
  }
}
