import { Injectable } from '@nestjs/common';
import {
  type EntityManager,
  type PreparedStatement,
  type TransactionManager,
  jsonInsert,
  keysetPage,
  qualify,
  queryRows,
} from '@payments/database';
import { Topics, type RefundStatus, type RefundStatusChangedData, type Mode } from '@payments/contracts';
import { appendToOutbox } from '@payments/messaging';
import { publicId, unknownCursor } from '@payments/platform';
import { ConcurrentStatusChange, PRODUCER } from '../transactions/transaction-store';
import { canRefundTransition } from '../transactions/domain/status-machine';
import { REFUND_COLUMNS, toRefundSnapshot, type NewRefund, type RefundOwnRow, type RefundRow } from './refund-row';

export * from './refund-row';

/** Shared by the claim and the scheduler's look, so they cannot drift; `r` is the refunds row. */
const REFUND_SETTLEMENT_WAITING = "r.status = 'pending' AND r.mode = 'test' AND r.settle_at IS NOT NULL";
/** The scheduler's look at refunds, on every tick of a busy scheduler: prepared under a name. */
const REFUND_SETTLEMENT_DUE_IN: PreparedStatement = {
  name: 'refunds_settlement_due_in',
  text: `SELECT (SELECT date_part('epoch', r.settle_at - now()) * 1000 FROM refunds r
                WHERE ${REFUND_SETTLEMENT_WAITING} ORDER BY r.settle_at LIMIT 1) AS due_in_ms`,
};
const REFUND_SETTLEMENT_DUE_WHERE = `${REFUND_SETTLEMENT_WAITING} AND r.settle_at <= now()`;

/** RefundRow's columns over refunds `r` joined with transactions `t`. */
const REFUND_ROW_COLUMNS = `${qualify(REFUND_COLUMNS, 'r')},
  t.public_id AS txn_public_id, t.reference AS txn_reference, t.amount AS txn_amount`;

/** Selects RefundRows; append a WHERE clause. Reads only. */
const REFUND_SELECT = `SELECT ${REFUND_ROW_COLUMNS}
  FROM refunds r JOIN transactions t ON t.id = r.transaction_id`;

/** A statement writing refunds and returning their rows (`RETURNING REFUND_COLUMNS`), as RefundRows. */
const asRefundRows = (write: string) =>
  `WITH written AS (${write})
   SELECT ${REFUND_ROW_COLUMNS} FROM written r JOIN transactions t ON t.id = r.transaction_id`;

const INSERT_REFUND = jsonInsert<Required<NewRefund> & Pick<RefundOwnRow, 'public_id' | 'status'>>({
  into: 'refunds',
  fields: {
    public_id: 'text',
    transaction_id: 'bigint',
    business_id: 'integer',
    mode: 'text',
    amount: 'bigint',
    currency: 'text',
    status: 'text',
    message: 'text',
    reason: 'text',
    metadata: 'jsonb',
    description: 'text',
    idempotency_key: 'text',
    settle_in: 'double precision',
  },
  computed: { settle_at: 'now() + make_interval(secs => settle_in)' },
  inputs: ['settle_in'],
});

/** The one place a refund's status changes, with its `refund.status_changed` outbox event. */
@Injectable()
export class RefundStore {
  async load(m: EntityManager, id: string): Promise<RefundRow> {
    const rows = await queryRows<RefundRow>(m, `${REFUND_SELECT} WHERE r.id = $1`, [id]);
    return rows[0];
  }

  /** What is still refundable counts every refund that has not failed: pending ones are promised. */
  async committed(m: EntityManager, transactionId: string): Promise<number> {
    const [{ refunded }] = await queryRows<{ refunded: string }>(
      m,
      "SELECT COALESCE(sum(amount), 0) AS refunded FROM refunds WHERE transaction_id = $1 AND status <> 'failed'",
      [transactionId],
    );
    return Number(refunded);
  }

  /** `amount_refunded` of each given transaction: the sum of its successful refunds (absent: 0). */
  async refundedByTransaction(
    db: Pick<EntityManager, 'query'>,
    transactionIds: string[],
  ): Promise<Map<string, number>> {
    if (transactionIds.length === 0) return new Map();
    const rows = await queryRows<{ transaction_id: string; refunded: string }>(
      db,
      `SELECT transaction_id, sum(amount) AS refunded FROM refunds
        WHERE transaction_id = ANY($1::bigint[]) AND status = 'success' GROUP BY transaction_id`,
      [transactionIds],
    );
    return new Map(rows.map((r) => [String(r.transaction_id), Number(r.refunded)]));
  }

  /** The refunds of each given transaction, oldest first, as `ops reconcile` compares them. */
  async forReconcile(
    db: Pick<EntityManager, 'query'>,
    transactionIds: string[],
  ): Promise<Map<string, { id: string; amount: number; status: RefundStatus }[]>> {
    const byTransaction = new Map<string, { id: string; amount: number; status: RefundStatus }[]>();
    if (transactionIds.length === 0) return byTransaction;
    const rows = await queryRows<{ transaction_id: string; id: string; amount: string; status: RefundStatus }>(
      db,
      `SELECT transaction_id::text AS transaction_id, id::text AS id, amount::text AS amount, status FROM refunds
        WHERE transaction_id = ANY($1::bigint[]) ORDER BY id`,
      [transactionIds],
    );
    for (const r of rows) {
      const list = byTransaction.get(r.transaction_id) ?? [];
      list.push({ id: r.id, amount: Number(r.amount), status: r.status });
      byTransaction.set(r.transaction_id, list);
    }
    return byTransaction;
  }

  /** In how many ms the earliest test-mode refund settlement is due (<= 0: now), or null when none waits. */
  async sandboxSettlementDueIn(db: Pick<EntityManager, 'query'>): Promise<number | null> {
    const [row] = await queryRows<{ due_in_ms: string | null }>(db, REFUND_SETTLEMENT_DUE_IN);
    return row.due_in_ms === null ? null : Number(row.due_in_ms);
  }

  /** Test-mode refunds whose settlement is due, locked; rows another replica holds are skipped. */
  claimDueSandbox(m: EntityManager, batch: number): Promise<RefundRow[]> {
    return queryRows<RefundRow>(
      m,
      `${REFUND_SELECT} WHERE ${REFUND_SETTLEMENT_DUE_WHERE}
        ORDER BY r.settle_at LIMIT $1 FOR UPDATE OF r SKIP LOCKED`,
      [batch],
    );
  }

  async insert(m: EntityManager, r: NewRefund): Promise<RefundRow> {
    const [row] = await queryRows<RefundRow>(
      m,
      asRefundRows(`${INSERT_REFUND.text} RETURNING ${REFUND_COLUMNS}`),
      INSERT_REFUND.params({
        ...r,
        public_id: publicId('rfd'),
        status: 'pending',
        message: r.message ?? 'Refund is being processed',
      }),
    );
    return row;
  }

  /** A refund by its public id in any business, locked (an operator's action names it). */
  async byPublicIdForUpdate(m: EntityManager, refundId: string): Promise<RefundRow | undefined> {
    const [row] = await queryRows<RefundRow>(m, `${REFUND_SELECT} WHERE r.public_id = $1 FOR UPDATE OF r`, [refundId]);
    return row;
  }

  /** The refund a request with this Idempotency-Key (ctx.idempotency_key) created, if any. */
  async byIdempotencyKey(
    db: Pick<EntityManager, 'query'>,
    businessId: number,
    mode: Mode,
    key: string,
  ): Promise<RefundRow | undefined> {
    const [row] = await queryRows<RefundRow>(
      db,
      `${REFUND_SELECT} WHERE r.business_id = $1 AND r.mode = $2 AND r.idempotency_key = $3`,
      [businessId, mode, key],
    );
    return row;
  }

  async byPublicId(
    db: Pick<EntityManager, 'query'>,
    businessId: number,
    mode: Mode,
    refundId: string,
  ): Promise<RefundRow | undefined> {
    const [row] = await queryRows<RefundRow>(
      db,
      `${REFUND_SELECT} WHERE r.public_id = $1 AND r.business_id = $2 AND r.mode = $3`,
      [refundId, businessId, mode],
    );
    return row;
  }

  /** Oldest first, the order they were asked for; with a limit, one cursor page in that order (cursors: refund ids). */
  async forTransaction(
    db: Pick<EntityManager, 'query'>,
    txn: { id: string; public_id: string; reference: string; amount: string },
    page: { limit?: number; starting_after?: string; ending_before?: string },
  ): Promise<{ rows: RefundRow[]; hasMore: boolean }> {
    if (page.limit === undefined && !page.starting_after && !page.ending_before) {
      return {
        rows: await queryRows<RefundRow>(
          db,
          `${REFUND_SELECT} WHERE r.transaction_id = $1 ORDER BY r.created_at, r.id`,
          [txn.id],
        ),
        hasMore: false,
      };
    }
    const { rows, hasMore } = await keysetPage<RefundOwnRow>(db, {
      table: 'refunds',
      columns: REFUND_COLUMNS,
      scope: ['transaction_id = $1'],
      params: [txn.id],
      cursorColumn: 'public_id',
      oldestFirst: true,
      page: { ...page, limit: page.limit ?? 100 },
      unknownCursor: unknownCursor('refund of this transaction', 'refunds of this transaction'),
    });
    // Every refund of the page refunds the same transaction, which the caller already holds.
    return {
      rows: rows.map((r) => ({
        ...r,
        txn_public_id: txn.public_id,
        txn_reference: txn.reference,
        txn_amount: txn.amount,
      })),
      hasMore,
    };
  }

  async recordCreated(m: TransactionManager, row: RefundRow, correlationId: string | null): Promise<void> {
    await this.emit(m, row, null, correlationId);
  }

  async changeStatus(
    m: TransactionManager,
    row: RefundRow,
    to: RefundStatus,
    message: string,
    correlationId: string | null,
  ): Promise<RefundRow> {
    if (!canRefundTransition(row.status, to))
      throw new ConcurrentStatusChange(`refund ${row.public_id} cannot go from ${row.status} to ${to}`);
    const [current] = await queryRows<RefundRow>(
      m,
      asRefundRows(`UPDATE refunds
                       SET status = $3, message = $4, settle_at = NULL, version = version + 1, updated_at = now()
                     WHERE id = $1 AND status = $2 RETURNING ${REFUND_COLUMNS}`),
      [row.id, row.status, to, message],
    );
    if (!current) throw new ConcurrentStatusChange(`refund ${row.public_id} changed concurrently`);
    await this.emit(m, current, row.status, correlationId);
    return current;
  }

  private async emit(
    m: TransactionManager,
    row: RefundRow,
    previous: RefundStatus | null,
    correlationId: string | null,
  ) {
    const data: RefundStatusChangedData = {
      refund: toRefundSnapshot(row),
      previous_status: previous,
      status: row.status,
    };
    // Keyed by the transaction, so a transaction's refunds and status changes share a partition.
    await appendToOutbox(m, {
      topic: Topics.RefundStatusChanged,
      type: Topics.RefundStatusChanged,
      key: row.txn_public_id,
      producer: PRODUCER,
      mode: row.mode,
      businessId: row.business_id,
      correlationId,
      data,
    });
  }
}
