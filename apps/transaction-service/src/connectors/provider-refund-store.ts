import { Injectable } from '@nestjs/common';
import { type EntityManager, columnList, qualify, queryRows } from '@payments/database';
import type { ProviderName } from './connector';
import type { Mode } from '@payments/contracts';

/**
 * A refund's life at a provider with a refund API. Only a 'queued' row is ever claimed for sending,
 * so a refund is sent at most once; 'unresolved' means its answer is unknown and an operator
 * checks.
 */
export type ProviderRefundState = 'queued' | 'sending' | 'pending' | 'final' | 'unresolved';

export interface ProviderRefundRow {
  refund_id: string;
  provider: ProviderName;
  state: ProviderRefundState;
  provider_refund_id: string | null;
  provider_status: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Every column of ProviderRefundRow: what each statement reads or returns, so a row is exactly this type. */
const REFUND_COLUMNS = columnList<ProviderRefundRow>({
  refund_id: true,
  provider: true,
  state: true,
  provider_refund_id: true,
  provider_status: true,
  last_error: true,
  created_at: true,
  updated_at: true,
});

/** The same list over the alias `pr`. */
const REFUND_COLUMNS_PR = qualify(REFUND_COLUMNS, 'pr');

/** A refund to send, with what the provider call needs of it and of its payment. */
export interface RefundToSend extends ProviderRefundRow {
  public_id: string;
  business_id: number;
  mode: Mode;
  amount: string;
  currency: string;
  reason: string | null;
  txn_public_id: string;
  provider_reference: string | null;
}

/** Every statement on `provider_refunds` (owned by transaction-service). */
@Injectable()
export class ProviderRefundStore {
  /** Written in the refund's own transaction: the refund is then sent exactly once, by whoever claims it. */
  async queue(m: EntityManager, refundId: string, provider: ProviderName): Promise<void> {
    await m.query("INSERT INTO provider_refunds (refund_id, provider, state) VALUES ($1, $2, 'queued')", [
      refundId,
      provider,
    ]);
  }

  /**
   * Takes a queued refund for sending (committed before the provider is called), with what the call
   * needs. Undefined when it is not queued any more (another process took it).
   */
  async claim(m: EntityManager, refundId: string): Promise<RefundToSend | undefined> {
    const [row] = await queryRows<RefundToSend>(
      m,
      `UPDATE provider_refunds pr SET state = 'sending', updated_at = now()
         FROM refunds r JOIN transactions t ON t.id = r.transaction_id
         LEFT JOIN provider_payments pp ON pp.transaction_id = t.id
        WHERE pr.refund_id = $1 AND pr.state = 'queued' AND r.id = pr.refund_id
       RETURNING ${REFUND_COLUMNS_PR},
                 r.public_id, r.business_id, r.mode, r.amount::text AS amount, r.currency, r.reason,
                 t.public_id AS txn_public_id, pp.provider_reference`,
      [refundId],
    );
    return row;
  }

  /**
   * Refunds whose sender died: queued for longer than `queuedMs` (never sent: safe to send now),
   * and 'sending' for longer than `sendingMs` (it may have reached the provider: left to an
   * operator). Returns the queued ones' ids; the stale 'sending' ones are marked unresolved here.
   */
  async sweep(
    m: EntityManager,
    queuedMs: number,
    sendingMs: number,
    batch: number,
  ): Promise<{ queued: string[]; abandoned: string[] }> {
    const queued = await queryRows<{ refund_id: string }>(
      m,
      `SELECT refund_id::text AS refund_id FROM provider_refunds
        WHERE state = 'queued' AND updated_at < now() - make_interval(secs => $1 / 1000.0)
        ORDER BY updated_at LIMIT $2`,
      [queuedMs, batch],
    );
    const abandoned = await queryRows<{ refund_id: string }>(
      m,
      `UPDATE provider_refunds SET state = 'unresolved',
              last_error = 'the process sending it stopped before the provider answered', updated_at = now()
        WHERE refund_id IN (SELECT refund_id FROM provider_refunds
                             WHERE state = 'sending' AND updated_at < now() - make_interval(secs => $1 / 1000.0)
                             ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING refund_id::text AS refund_id`,
      [sendingMs, batch],
    );
    return { queued: queued.map((r) => r.refund_id), abandoned: abandoned.map((r) => r.refund_id) };
  }

  /** What the provider answered, or that its answer is unknown (`error` is safe to store). Final stays final. */
  async record(
    m: EntityManager,
    refundId: string,
    o: {
      state: ProviderRefundState;
      providerRefundId?: string | null;
      providerStatus?: string | null;
      error?: string | null;
    },
  ): Promise<void> {
    await m.query(
      `UPDATE provider_refunds SET state = CASE WHEN state = 'final' THEN state ELSE $2 END,
              provider_refund_id = COALESCE($3, provider_refund_id), provider_status = COALESCE($4, provider_status),
              last_error = $5, updated_at = now()
        WHERE refund_id = $1`,
      [refundId, o.state, o.providerRefundId ?? null, o.providerStatus ?? null, o.error?.slice(0, 500) ?? null],
    );
  }

  /** The provider's id of the payment a refund refunds (what its refund notifications must name). */
  async paymentReference(m: Pick<EntityManager, 'query'>, refundId: string): Promise<string | null> {
    const [row] = await queryRows<{ provider_reference: string | null }>(
      m,
      `SELECT pp.provider_reference FROM refunds r JOIN provider_payments pp ON pp.transaction_id = r.transaction_id
        WHERE r.id = $1`,
      [refundId],
    );
    return row?.provider_reference ?? null;
  }

  /** Whether the provider's refund id is already another refund's: a notification of that one, posted to this URL. */
  async refundIdTaken(m: Pick<EntityManager, 'query'>, providerRefundId: string, refundId: string): Promise<boolean> {
    const rows = await queryRows(
      m,
      'SELECT 1 FROM provider_refunds WHERE provider_refund_id = $1 AND refund_id <> $2 LIMIT 1',
      [providerRefundId, refundId],
    );
    return rows.length > 0;
  }

  async lock(m: EntityManager, refundId: string): Promise<ProviderRefundRow | undefined> {
    const [row] = await queryRows<ProviderRefundRow>(
      m,
      `SELECT ${REFUND_COLUMNS} FROM provider_refunds WHERE refund_id = $1 FOR UPDATE`,
      [refundId],
    );
    return row;
  }
}
