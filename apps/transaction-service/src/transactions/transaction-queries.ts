import { Injectable } from '@nestjs/common';
import { type EntityManager, keysetPage, type PreparedStatement, queryRows, type Filter } from '@payments/database';
import type { ListTransactionsBody, Mode } from '@payments/contracts';
import { unknownCursor } from '@payments/platform';
import { ROW_COLUMNS, type TransactionRow } from './transaction-row';

type Db = Pick<EntityManager, 'query'>;

const CREATED_OPS = { gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;

// Each condition is shared by a claim query and the scheduler's "when is the next one due" look,
// so the look can never miss a row the claim would find (or the reverse).
const SANDBOX_SETTLEMENT_WAITING = "status = 'processing' AND mode = 'test' AND settle_at IS NOT NULL";
const SANDBOX_SETTLEMENT_DUE_WHERE = `${SANDBOX_SETTLEMENT_WAITING} AND settle_at <= now()`;
/**
 * A live payment sent to its provider does not expire here unless the provider has given its
 * final answer: the customer may still pay there, so only the provider's answer (the status
 * poller) or an operator ends it, 'unresolved' ones included (docs/going-live.md).
 */
const EXPIRY_WAITING = `status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM provider_payments p WHERE p.transaction_id = transactions.id AND p.state <> 'final')`;
const EXPIRY_DUE_WHERE = `${EXPIRY_WAITING} AND expires_at <= now()`;

/**
 * The scheduler's look: in how many ms the earliest settlement and expiry are due (<= 0: now), two indexed looks. It
 * and the settlement's claim run on every tick of a busy scheduler, so they are prepared under a name.
 */
const DUE: PreparedStatement = {
  name: 'transactions_due',
  text: `SELECT
  (SELECT date_part('epoch', settle_at - now()) * 1000 FROM transactions
    WHERE ${SANDBOX_SETTLEMENT_WAITING} ORDER BY settle_at LIMIT 1) AS settle_in_ms,
  (SELECT date_part('epoch', expires_at - now()) * 1000 FROM transactions
    WHERE ${EXPIRY_WAITING} ORDER BY expires_at LIMIT 1) AS expire_in_ms`,
};
const CLAIM_DUE_SANDBOX: PreparedStatement = {
  name: 'transactions_claim_due_sandbox',
  text: `SELECT ${ROW_COLUMNS} FROM transactions WHERE ${SANDBOX_SETTLEMENT_DUE_WHERE}
        ORDER BY settle_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
};

/** Milliseconds until something is due (<= 0: it is), or null when nothing waits. */
export type DueIn = number | null;
const dueIn = (v: string | null): DueIn => (v === null ? null : Number(v));

/** A transaction as `ops reconcile` compares it (ids and amounts as text: bigint). */
export interface ReconcileTransactionRow {
  id: string;
  transaction_id: string;
  business_id: number;
  mode: Mode;
  amount: string;
  status: string;
  updated_at: Date;
}

/**
 * Every read of the `transactions` table; its writes are in TransactionStore. Reads that lock
 * (FOR UPDATE) take the caller's EntityManager, so the lock lives in the caller's DB transaction.
 */
@Injectable()
export class TransactionQueries {
  /** A merchant's transaction by its reference (unique per business and mode). */
  async byReference(
    db: Db,
    businessId: number,
    mode: Mode,
    reference: string,
    lock = false,
  ): Promise<TransactionRow | undefined> {
    const [row] = await queryRows<TransactionRow>(
      db,
      `SELECT ${ROW_COLUMNS} FROM transactions
        WHERE business_id = $1 AND mode = $2 AND reference = $3${lock ? ' FOR UPDATE' : ''}`,
      [businessId, mode, reference],
    );
    return row;
  }

  /** The transaction a request with this Idempotency-Key (ctx.idempotency_key) created, if any. */
  async byIdempotencyKey(db: Db, businessId: number, mode: Mode, key: string): Promise<TransactionRow | undefined> {
    const [row] = await queryRows<TransactionRow>(
      db,
      `SELECT ${ROW_COLUMNS} FROM transactions WHERE business_id = $1 AND mode = $2 AND idempotency_key = $3`,
      [businessId, mode, key],
    );
    return row;
  }

  /** A transaction by its internal id, locked (FOR UPDATE) in the caller's transaction when `lock`. */
  async byId(db: Db, id: string, lock = false): Promise<TransactionRow | undefined> {
    const [row] = await queryRows<TransactionRow>(
      db,
      `SELECT ${ROW_COLUMNS} FROM transactions WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return row;
  }

  /** A transaction by public id in any business (a provider's notification names it); the caller checks the rest. */
  async byPublicIdAnyBusiness(db: Db, publicId: string): Promise<TransactionRow | undefined> {
    const [row] = await queryRows<TransactionRow>(db, `SELECT ${ROW_COLUMNS} FROM transactions WHERE public_id = $1`, [
      publicId,
    ]);
    return row;
  }

  async byPublicId(db: Db, businessId: number, mode: Mode, publicId: string): Promise<TransactionRow | undefined> {
    const [row] = await queryRows<TransactionRow>(
      db,
      `SELECT ${ROW_COLUMNS} FROM transactions WHERE business_id = $1 AND mode = $2 AND public_id = $3`,
      [businessId, mode, publicId],
    );
    return row;
  }

  /** The hosted checkout page's transaction (chk_…); not scoped to a business: the id is the customer's capability. */
  async byCheckoutId(db: Db, checkoutId: string, lock = false): Promise<TransactionRow | undefined> {
    const [row] = await queryRows<TransactionRow>(
      db,
      `SELECT ${ROW_COLUMNS} FROM transactions WHERE checkout_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [checkoutId],
    );
    return row;
  }

  /**
   * The transaction an earlier submit of the same payment-link page created, locked. Two submits
   * of one page wait for each other first (a transaction-scoped advisory lock on the attempt), so
   * the second finds the first's transaction instead of creating another.
   */
  async byLinkAttempt(m: EntityManager, paymentLinkId: string, attempt: string): Promise<TransactionRow | undefined> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${paymentLinkId}:${attempt}`]);
    const [row] = await queryRows<TransactionRow>(
      m,
      `SELECT ${ROW_COLUMNS} FROM transactions WHERE payment_link_id = $1 AND checkout_attempt = $2 FOR UPDATE`,
      [paymentLinkId, attempt],
    );
    return row;
  }

  /**
   * A merchant's transactions, newest first, one cursor page: filtered by the given fields (start
   * and end dates are whole UTC days, both included). A cursor names one of the merchant's
   * transactions in this mode, whatever the filters.
   */
  list(
    db: Db,
    businessId: number,
    mode: Mode,
    body: ListTransactionsBody,
  ): Promise<{ rows: TransactionRow[]; hasMore: boolean }> {
    const filters: Filter[] = [];
    const add = (condition: (n: string) => string, value: unknown) => filters.push([condition, value]);
    if (body.start_date) add((n) => `created_at >= ${n}::date::timestamp AT TIME ZONE 'UTC'`, body.start_date);
    if (body.end_date) add((n) => `created_at < (${n}::date + 1)::timestamp AT TIME ZONE 'UTC'`, body.end_date);
    if (body.status) add((n) => `status = ${n}`, body.status);
    if (body.reference) add((n) => `reference = ${n}`, body.reference);
    if (body.email) add((n) => `lower(email) = lower(${n})`, body.email);
    if (body.payment_link_id) add((n) => `payment_link_id = ${n}`, body.payment_link_id);
    if (body.payment_method_code) add((n) => `payment_method_code = ${n}`, body.payment_method_code);
    for (const [op, sql] of Object.entries(CREATED_OPS)) {
      const bound = body.created?.[op as keyof typeof CREATED_OPS];
      // Compared at the millisecond the API shows: `created[gt]` of an object's own date_created excludes it.
      if (bound) add((n) => `date_trunc('milliseconds', created_at) ${sql} ${n}::timestamptz`, bound);
    }
    return keysetPage<TransactionRow>(db, {
      table: 'transactions',
      columns: ROW_COLUMNS,
      scope: ['business_id = $1', 'mode = $2'],
      params: [businessId, mode],
      filters,
      cursorColumn: 'public_id',
      page: body,
      unknownCursor: unknownCursor('transaction'),
    });
  }

  /** When the earliest sandbox settlement (`settle`) and expiry (`expire`) are due. */
  async due(db: Db): Promise<{ settle: DueIn; expire: DueIn }> {
    const [row] = await queryRows<{ settle_in_ms: string | null; expire_in_ms: string | null }>(db, DUE);
    return { settle: dueIn(row.settle_in_ms), expire: dueIn(row.expire_in_ms) };
  }

  /** Test-mode payments whose sandbox settlement is due, locked; rows another replica holds are skipped. */
  claimDueSandbox(m: EntityManager, batch: number): Promise<TransactionRow[]> {
    return queryRows<TransactionRow>(m, CLAIM_DUE_SANDBOX, [batch]);
  }

  /** Pending payments past their expiry, locked; rows another replica holds are skipped. */
  claimExpired(m: EntityManager, batch: number): Promise<TransactionRow[]> {
    return queryRows<TransactionRow>(
      m,
      `SELECT ${ROW_COLUMNS} FROM transactions WHERE ${EXPIRY_DUE_WHERE}
        ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batch],
    );
  }

  /** One page of every transaction by internal id, for `ops reconcile`. */
  reconcilePage(db: Db, after: string, limit: number): Promise<ReconcileTransactionRow[]> {
    return queryRows<ReconcileTransactionRow>(
      db,
      `SELECT id::text AS id, public_id AS transaction_id, business_id, mode, amount::text AS amount, status, updated_at
         FROM transactions WHERE id > $1::bigint ORDER BY id LIMIT $2`,
      [after, limit],
    );
  }
}
