import { Injectable } from '@nestjs/common';
import { type DataSource, type EntityManager, queryRows } from '@payments/database';
import type { DailyTotal, LinkSplit, Mode, RefundSnapshot, RefundStatus, TransactionSnapshot, TransactionStatus } from '@payments/contracts';
import { sumDailyTotals, type DailyTotalsChange } from './daily-totals';

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
  /**
   * Upserts the copies of the given snapshots (at most one per transaction), and says what each
   * change adds to the daily totals: a new copy is one more payment, a copy reaching success one
   * more success. A new copy is told by `xmax = 0` (inserted, not updated). The status before is
   * read in the same statement; a success's ledger lock, taken before, keeps it from moving.
   */
  async saveTransactions(m: EntityManager, snapshots: TransactionSnapshot[]): Promise<DailyTotalsChange[]> {
    if (snapshots.length === 0) return [];
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
    return queryRows<DailyTotalsChange>(
      m,
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, public_id text, business_id integer, mode text, amount bigint, currency text,
                                                         status text, version integer, link_splits jsonb, transaction_created_at timestamptz)),
       before AS (SELECT t.id, t.status FROM ledger_transactions t JOIN input r ON r.id = t.id),
       saved AS (
         INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status, version, link_splits, transaction_created_at, updated_at)
         SELECT r.id, r.public_id, r.business_id, r.mode, r.amount, r.currency, r.status, r.version, COALESCE(r.link_splits, '[]'::jsonb), r.transaction_created_at, now()
           FROM input r
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
          WHERE ledger_transactions.version < EXCLUDED.version
         RETURNING id, business_id, mode, currency, amount, status, transaction_created_at, (xmax = 0) AS inserted)
       SELECT s.business_id, s.mode, to_char(s.transaction_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, s.currency,
              s.inserted AS created, (s.status = 'success' AND (s.inserted OR b.status IS DISTINCT FROM 'success')) AS succeeded, s.amount::text AS amount
         FROM saved s LEFT JOIN before b ON b.id = s.id
        WHERE s.inserted OR (s.status = 'success' AND b.status IS DISTINCT FROM 'success')`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Adds the changes to `ledger_daily_totals`, one statement, rows in key order so that two
   * transactions adding to the same days cannot deadlock. Called last in the inbox transaction, so
   * the rows stay locked only until its commit.
   */
  async addDailyTotals(m: EntityManager, changes: DailyTotalsChange[]): Promise<void> {
    const totals = sumDailyTotals(changes);
    if (totals.length === 0) return;
    await m.query(
      `INSERT INTO ledger_daily_totals (business_id, mode, day, currency, payments, succeeded, succeeded_amount)
       SELECT r.business_id, r.mode, r.date::date, r.currency, r.payments, r.succeeded, r.succeeded_amount
         FROM jsonb_to_recordset($1::jsonb) AS r(business_id integer, mode text, date text, currency text, payments bigint, succeeded bigint, succeeded_amount bigint)
        ORDER BY r.business_id, r.mode, r.date, r.currency
       ON CONFLICT (business_id, mode, day, currency) DO UPDATE
          SET payments = ledger_daily_totals.payments + EXCLUDED.payments,
              succeeded = ledger_daily_totals.succeeded + EXCLUDED.succeeded,
              succeeded_amount = ledger_daily_totals.succeeded_amount + EXCLUDED.succeeded_amount`,
      [JSON.stringify(totals)],
    );
  }

  /** One business's totals in one mode, by day then currency, for the days from..to (UTC, both included). */
  dailyTotals(ds: DataSource, businessId: number, mode: Mode, from: string, to: string): Promise<DailyTotal[]> {
    return queryRows<DailyTotal>(
      ds,
      `SELECT to_char(day, 'YYYY-MM-DD') AS date, currency, payments::int, succeeded::int, succeeded_amount::bigint::text AS succeeded_amount
         FROM ledger_daily_totals WHERE business_id = $1 AND mode = $2 AND day BETWEEN $3::date AND $4::date ORDER BY day, currency`,
      [businessId, mode, from, to],
    ).then((rows) => rows.map((r) => ({ ...r, succeeded_amount: Number(r.succeeded_amount) })));
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
    const [row] = await queryRows<TransactionCopyRow>(m, 'SELECT * FROM ledger_transactions WHERE id = $1', [id]);
    return row;
  }

  transactions(m: EntityManager, ids: string[]): Promise<TransactionCopyRow[]> {
    return queryRows<TransactionCopyRow>(m, 'SELECT * FROM ledger_transactions WHERE id = ANY($1::bigint[]) ORDER BY id', [ids]);
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
