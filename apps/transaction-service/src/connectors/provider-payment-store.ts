import { Injectable } from '@nestjs/common';
import { type EntityManager, columnList, qualify, queryRows } from '@payments/database';
import type { InitiateOutcome, ProviderName } from './connector';
import type { Mode } from '@payments/contracts';

/**
 * A live payment's life at its provider: written before the provider is called ('initiating'),
 * 'sent' once it accepted, 'final' once it said success or failed, 'unresolved' when the poller
 * gave up after PROVIDER_POLL_MAX_AGE without an answer (an operator decides: docs/going-live.md).
 */
export type ProviderPaymentState = 'initiating' | 'sent' | 'final' | 'unresolved';

export interface ProviderPaymentRow {
  transaction_id: string;
  provider: ProviderName;
  state: ProviderPaymentState;
  provider_reference: string | null;
  poll_url: string | null;
  provider_status: string | null;
  authorization_url: string | null;
  authorization_code: string | null;
  authorization_expires: string | null;
  instructions: string | null;
  next_check_at: Date | null;
  checks: number;
  /** Consecutive checks the provider answered "no such payment" (reset by any other answer). */
  not_found_checks: number;
  last_error: string | null;
  created_at: Date;
}

/**
 * Every column of ProviderPaymentRow: what each statement reads or returns, so a row is exactly this type. The
 * table's `updated_at` is written by every change and read by none.
 */
const PAYMENT_COLUMNS = columnList<ProviderPaymentRow>({
  transaction_id: true,
  provider: true,
  state: true,
  provider_reference: true,
  poll_url: true,
  provider_status: true,
  authorization_url: true,
  authorization_code: true,
  authorization_expires: true,
  instructions: true,
  next_check_at: true,
  checks: true,
  not_found_checks: true,
  last_error: true,
  created_at: true,
});

/** The same list over the alias `p`. */
const PAYMENT_COLUMNS_P = qualify(PAYMENT_COLUMNS, 'p');

/** A due row as the poller claims it, with what it needs of its transaction. */
export interface DueProviderPayment extends ProviderPaymentRow {
  public_id: string;
  business_id: number;
  mode: Mode;
}

/** Every statement on `provider_payments` (owned by transaction-service). */
@Injectable()
export class ProviderPaymentStore {
  /** Recorded before the provider is called: a lost answer is then found by the poller (trace by our id). */
  async begin(m: EntityManager, transactionId: string, provider: ProviderName, firstCheckAt: Date): Promise<void> {
    await m.query(
      'INSERT INTO provider_payments (transaction_id, provider, state, next_check_at) VALUES ($1, $2, $3, $4)',
      [transactionId, provider, 'initiating', firstCheckAt],
    );
  }

  /** The provider accepted the payment: what it answered, and when to check it next. */
  async accepted(
    m: EntityManager,
    transactionId: string,
    a: Extract<InitiateOutcome, { kind: 'accepted' }>,
    nextCheckAt: Date,
  ): Promise<ProviderPaymentRow> {
    const [row] = await queryRows<ProviderPaymentRow>(
      m,
      `UPDATE provider_payments SET state = CASE WHEN state = 'final' THEN state ELSE 'sent' END,
              provider_reference = $2, poll_url = $3, authorization_url = $4, authorization_code = $5,
              authorization_expires = $6, instructions = $7, next_check_at = $8, last_error = NULL, updated_at = now()
        WHERE transaction_id = $1 RETURNING ${PAYMENT_COLUMNS}`,
      [
        transactionId,
        a.providerReference,
        a.pollUrl,
        a.redirectUrl,
        a.authorizationCode,
        a.authorizationExpires,
        a.instructions,
        nextCheckAt,
      ],
    );
    return row;
  }

  /** What the provider said last (and its poll URL, if it gave a new one); `final` stops the poller. */
  async observed(
    m: EntityManager,
    transactionId: string,
    o: {
      providerStatus: string;
      providerReference: string | null;
      pollUrl: string | null;
      final: boolean;
      nextCheckAt: Date | null;
    },
  ): Promise<void> {
    await m.query(
      `UPDATE provider_payments SET provider_status = $2, provider_reference = COALESCE($3, provider_reference),
              poll_url = COALESCE($4, poll_url),
              state = CASE WHEN $5::boolean THEN 'final' WHEN state = 'initiating' THEN 'sent' ELSE state END,
              next_check_at = CASE WHEN $5::boolean THEN NULL ELSE $6::timestamptz END,
              last_error = NULL, not_found_checks = 0, updated_at = now()
        WHERE transaction_id = $1 AND state IN ('initiating', 'sent')`,
      [transactionId, o.providerStatus, o.providerReference, o.pollUrl, o.final, o.nextCheckAt],
    );
  }

  /** No answer this time (`error` is safe to store: no secret, no phone): check again at `nextCheckAt`. */
  async retryLater(
    m: EntityManager,
    transactionId: string,
    error: string,
    nextCheckAt: Date,
    notFound = false,
  ): Promise<void> {
    await m.query(
      `UPDATE provider_payments SET last_error = $2, next_check_at = $3, updated_at = now(),
              not_found_checks = CASE WHEN $4::boolean THEN not_found_checks + 1 ELSE 0 END
        WHERE transaction_id = $1 AND state IN ('initiating', 'sent')`,
      [transactionId, error.slice(0, 500), nextCheckAt, notFound],
    );
  }

  /** The row locked, for a decision that depends on its state (the poller's "never reached the provider"). */
  async lock(m: EntityManager, transactionId: string): Promise<ProviderPaymentRow | undefined> {
    const [row] = await queryRows<ProviderPaymentRow>(
      m,
      `SELECT ${PAYMENT_COLUMNS} FROM provider_payments WHERE transaction_id = $1 FOR UPDATE`,
      [transactionId],
    );
    return row;
  }

  /** The payment ended without the provider (refused before it was created, or found never to exist there). */
  async finish(m: EntityManager, transactionId: string, error: string | null): Promise<void> {
    await m.query(
      `UPDATE provider_payments SET state = 'final', next_check_at = NULL, last_error = $2, updated_at = now()
        WHERE transaction_id = $1 AND state IN ('initiating', 'sent')`,
      [transactionId, error?.slice(0, 500) ?? null],
    );
  }

  /** The poller stops: nobody could learn the outcome in time. */
  async unresolved(m: EntityManager, transactionId: string, error: string): Promise<void> {
    await m.query(
      `UPDATE provider_payments SET state = 'unresolved', next_check_at = NULL, last_error = $2, updated_at = now()
        WHERE transaction_id = $1 AND state <> 'unresolved'`,
      [transactionId, error.slice(0, 500)],
    );
  }

  /** The poller gives up on a payment still open (a final answer that raced it is kept). */
  async giveUp(m: EntityManager, transactionId: string, error: string): Promise<void> {
    await m.query(
      `UPDATE provider_payments SET state = 'unresolved', next_check_at = NULL, last_error = $2, updated_at = now()
        WHERE transaction_id = $1 AND state IN ('initiating', 'sent')`,
      [transactionId, error.slice(0, 500)],
    );
  }

  async get(m: Pick<EntityManager, 'query'>, transactionId: string): Promise<ProviderPaymentRow | undefined> {
    const [row] = await queryRows<ProviderPaymentRow>(
      m,
      `SELECT ${PAYMENT_COLUMNS} FROM provider_payments WHERE transaction_id = $1`,
      [transactionId],
    );
    return row;
  }

  /**
   * Due checks, taken by moving their next_check_at `leaseMs` ahead and counting the check, so
   * another replica (or this one, if it dies mid-check) takes a row again only after the lease.
   */
  claimDue(m: EntityManager, batch: number, leaseMs: number): Promise<DueProviderPayment[]> {
    return queryRows<DueProviderPayment>(
      m,
      `UPDATE provider_payments p SET next_check_at = now() + make_interval(secs => $2 / 1000.0), checks = p.checks + 1
         FROM transactions t
        WHERE t.id = p.transaction_id
          AND p.transaction_id IN (SELECT transaction_id FROM provider_payments
                                    WHERE state IN ('initiating', 'sent') AND next_check_at <= now()
                                    ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${PAYMENT_COLUMNS_P}, t.public_id, t.business_id, t.mode`,
      [batch, leaseMs],
    );
  }
}
