import { Injectable } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { ReconcileAdminRpcPatterns, type ReconcilePageBody, type ReconcileTransaction, type ReconcileTransactionsResult } from '@payments/contracts';
import { queryRows } from '@payments/database';
import { RpcController } from '@payments/platform';

/** What transaction-service recorded, for `ops reconcile`: read-only, one page of transactions at a time. */
@Injectable()
export class ReconcileTransactionsUseCase {
  constructor(private readonly ds: DataSource) {}

  async execute(body: ReconcilePageBody): Promise<ReconcileTransactionsResult> {
    const limit = Math.min(Math.max(1, Math.trunc(body.limit) || 1), 1_000);
    const after = body.after !== null && /^\d{1,18}$/.test(body.after) ? body.after : '0';
    const rows = await queryRows<Omit<ReconcileTransaction, 'amount' | 'updated_at'> & { amount: string; updated_at: Date }>(
      this.ds,
      `SELECT t.id::text AS id, t.public_id AS transaction_id, t.business_id, t.mode, t.amount::text AS amount, t.status, t.updated_at,
              COALESCE((SELECT json_agg(json_build_object('id', r.id::text, 'amount', r.amount, 'status', r.status) ORDER BY r.id)
                          FROM refunds r WHERE r.transaction_id = t.id), '[]') AS refunds
         FROM transactions t WHERE t.id > $1::bigint ORDER BY t.id LIMIT $2`,
      [after, limit],
    );
    return {
      transactions: rows.map((r) => ({ ...r, amount: Number(r.amount), updated_at: r.updated_at.toISOString(), refunds: r.refunds.map((x) => ({ ...x, amount: Number(x.amount) })) })),
      next: rows.length === limit ? rows[rows.length - 1].id : null,
    };
  }
}

/** Operator patterns (`admin.*`): reached only through the gateway's admin API. */
@RpcController()
export class ReconcileRpcController {
  constructor(private readonly transactions: ReconcileTransactionsUseCase) {}

  @MessagePattern(ReconcileAdminRpcPatterns.Transactions)
  onTransactions(@Payload() req: { body: ReconcilePageBody }) {
    return this.transactions.execute(req.body);
  }
}
