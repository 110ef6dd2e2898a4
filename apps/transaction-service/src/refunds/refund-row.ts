import type { Metadata, Mode, RefundSnapshot, RefundStatus, RefundView } from '@payments/contracts';
import { columnList } from '@payments/database';

/** A refunds row as PostgreSQL returns it (bigint columns arrive as strings). */
export interface RefundOwnRow {
  id: string;
  public_id: string;
  transaction_id: string;
  business_id: number;
  mode: Mode;
  amount: string;
  currency: string;
  status: RefundStatus;
  message: string;
  reason: string | null;
  metadata: Metadata;
  description: string | null;
  settle_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export const REFUND_COLUMNS = columnList<RefundOwnRow>({
  id: true,
  public_id: true,
  transaction_id: true,
  business_id: true,
  mode: true,
  amount: true,
  currency: true,
  status: true,
  message: true,
  reason: true,
  metadata: true,
  description: true,
  settle_at: true,
  version: true,
  created_at: true,
  updated_at: true,
});

/** A refund with the public fields of the transaction it refunds: how a refund is shown and published. */
export interface RefundRow extends RefundOwnRow {
  txn_public_id: string;
  txn_reference: string;
  txn_amount: string;
}

/** A new refund as its creator gives it: the columns its insert writes, named as they are. */
export interface NewRefund {
  transaction_id: string;
  business_id: number;
  mode: Mode;
  amount: number;
  currency: string;
  reason: string | null;
  metadata: Metadata;
  description: string | null;
  /** In how many seconds the sandbox settles it; null: it waits for an operator (a provider without a refund API). */
  settle_in: number | null;
  /** Its first message (default "Refund is being processed"). */
  message?: string;
  /** ctx.idempotency_key of the creating request (unique per business and mode). */
  idempotency_key: string | null;
}

/** What a refund's view and its event's snapshot both show, in the order both list them. */
function refundFields(r: RefundRow) {
  return {
    amount: Number(r.amount),
    currency: r.currency.trim(),
    status: r.status,
    message: r.message,
    reason: r.reason,
    metadata: r.metadata ?? {},
    description: r.description ?? null,
  };
}

export function toRefundView(r: RefundRow): RefundView {
  return {
    refund_id: r.public_id,
    transaction_id: r.txn_public_id,
    transaction_reference: r.txn_reference,
    ...refundFields(r),
    date_created: r.created_at.toISOString(),
    date_updated: r.updated_at.toISOString(),
  };
}

export function toRefundSnapshot(r: RefundRow): RefundSnapshot {
  return {
    id: Number(r.id),
    refund_id: r.public_id,
    business_id: r.business_id,
    mode: r.mode,
    ...refundFields(r),
    transaction: {
      id: Number(r.transaction_id),
      transaction_id: r.txn_public_id,
      transaction_reference: r.txn_reference,
      amount: Number(r.txn_amount),
    },
    version: r.version,
    date_created: r.created_at.toISOString(),
    date_updated: r.updated_at.toISOString(),
  };
}
