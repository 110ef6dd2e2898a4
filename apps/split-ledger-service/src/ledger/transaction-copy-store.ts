import { Injectable } from '@nestjs/common';
import { type EntityManager, queryRows } from '@payments/database';
import type { LinkSplit, Mode, RefundSnapshot, RefundStatus, TransactionSnapshot, TransactionStatus } from '@payments/contracts';

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
    await m.query(
      `INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status, version, link_splits, transaction_created_at, updated_at)
       SELECT r.id, r.public_id, r.business_id, r.mode, r.amount, r.currency, r.status, r.version, COALESCE(r.link_splits, '[]'::jsonb), r.transaction_created_at, now()
         FROM jsonb_to_recordset($1::jsonb) AS r(id bigint, public_id text, business_id integer, mode text, amount bigint, currency text, status text,
                                                  version integer, link_splits jsonb, transaction_created_at timestamptz)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_at = now()
        WHERE ledger_transactions.version < EXCLUDED.version`,
      [JSON.stringify(rows)],
    );
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
