import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ErrorCodes, type Mode, type RpcContext } from '@payments/contracts';
import { DataSource } from '@payments/database';
import { OutboxNotifier } from '@payments/messaging';
import { DomainException, ROOT_LOGGER } from '@payments/platform';
import { TransactionServiceConfig } from '../config/transaction.config';
import { TransactionQueries } from '../transactions/transaction-queries';
import type { TransactionRow } from '../transactions/transaction-store';
import { PROVIDER_NAMES, type Connector, type InitiateOutcome, type ProviderName } from './connector';
import { ConnectorRegistry } from './connector-registry';
import { ProviderCredentials } from './provider-credentials';
import { ProviderPaymentStore, type ProviderPaymentRow } from './provider-payment-store';
import { ProviderStatements } from './provider-statements';

export type { ApplyResult } from './provider-statements';

/** A payment method's provider, its connector and the business's credentials for it in one mode. */
export interface Route {
  provider: ProviderName;
  connector: Connector<unknown>;
  credentials: unknown;
}

/** What the initialize answer adds for a payment sent to a provider. */
export interface ProviderAnswer {
  authorization_url?: string;
  authorization_code?: string;
  authorization_expires?: string;
  instructions?: string;
}

/** Left of the caller's deadline after the provider call, for writing its answer. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * Live payments (and test payments with a test-mode connection) through their provider. The transaction and its
 * provider attempt are committed before the provider is called, so a crash leaves something the poller can find; an
 * unreadable answer leaves the payment for the poller too (docs/going-live.md).
 */
@Injectable()
export class LivePayments {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: TransactionQueries,
    private readonly attempts: ProviderPaymentStore,
    private readonly statements: ProviderStatements,
    private readonly connections: ProviderCredentials,
    private readonly registry: ConnectorRegistry,
    private readonly outbox: OutboxNotifier,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Where a payment with this method goes, or null when the sandbox takes it (test mode without a
   * connection) or no method is chosen yet (the hosted checkout routes the choice). Throws 422 for
   * a live payment that cannot go anywhere.
   */
  async route(businessId: number, mode: Mode, code: string | null): Promise<Route | null> {
    if (code === null) {
      // No method yet: the customer chooses on the hosted checkout page, which routes that choice.
      // A live payment needs at least one connected provider to choose from.
      if (mode === 'test' || (await this.connections.anyConnected(businessId, mode))) return null;
      throw new DomainException(
        ErrorCodes.PaymentMethodUnavailable,
        'no payment provider is connected for live payments: PUT /v1/connections/{provider} first',
      );
    }
    const found = this.registry.forMethod(code);
    if (!found) {
      if (mode === 'test') return null;
      throw new DomainException(
        ErrorCodes.PaymentMethodUnavailable,
        `payment method ${code} is not available for live payments yet`,
      );
    }
    const stored = await this.connections.cached(businessId, mode, found.provider);
    const parsed = stored ? found.connector.parseCredentials(stored) : undefined;
    if (parsed && !parsed.ok)
      this.logger.error(
        { business_id: businessId, mode, provider: found.provider, field: parsed.field },
        'stored provider credentials are not valid; connect the provider again',
      );
    if (!parsed || !parsed.ok) {
      if (mode === 'test') return null;
      throw new DomainException(
        ErrorCodes.PaymentMethodUnavailable,
        `payment method ${code} needs a connected ${PROVIDER_NAMES[found.provider]} account for live payments: ` +
          `PUT /v1/connections/${found.provider}`,
      );
    }
    return { ...found, credentials: parsed.value };
  }

  /**
   * Sends the committed pending transaction to its provider and applies the answer: accepted → processing (or pending);
   * declined → failed, 402; not reached → failed, 503; unreadable → pending for the poller, 502.
   */
  async start(
    route: Route,
    row: TransactionRow,
    ctx: RpcContext,
  ): Promise<{ row: TransactionRow; answer: ProviderAnswer }> {
    const name = PROVIDER_NAMES[route.provider];
    try {
      return await this.send(route, row, ctx, name);
    } catch (err) {
      if (err instanceof DomainException) throw err;
      // Committed and possibly at the provider, so never "nothing was applied": the poller finds it
      // by our id, and a retry with the same Idempotency-Key answers it as it is by then.
      this.logger.error(
        { err, transaction_id: row.public_id, provider: route.provider },
        'sending the payment to its provider failed midway; the poller checks it',
      );
      throw new DomainException(
        ErrorCodes.ProviderError,
        `the payment ${row.reference} was stored but sending it to ${name} did not finish; ` +
          `it is checked at ${name} until its status is known: ` +
          'retry with the same Idempotency-Key or verify it by reference',
      );
    }
  }

  /** A retry's answer for a payment already sent; sent now if the first attempt died before recording it. */
  async resume(
    route: Route,
    row: TransactionRow,
    ctx: RpcContext,
  ): Promise<{ row: TransactionRow; answer: ProviderAnswer }> {
    const attempt = await this.attempts.get(this.ds, row.id);
    if (attempt) return { row, answer: answerOf(attempt) };
    if (row.status !== 'pending') return { row, answer: {} };
    return this.start(route, row, ctx);
  }

  private async send(
    route: Route,
    row: TransactionRow,
    ctx: RpcContext,
    name: string,
  ): Promise<{ row: TransactionRow; answer: ProviderAnswer }> {
    const left = (ctx.deadline_at ?? Number.POSITIVE_INFINITY) - Date.now() - ANSWER_MARGIN_MS;
    const timeoutMs = Math.max(1_000, Math.min(this.config.PROVIDER_TIMEOUT_MS, left));
    // Recorded first: if this process dies while the provider answers, the poller finds the payment by our id.
    await this.attempts.begin(
      this.ds,
      row.id,
      route.provider,
      new Date(Date.now() + timeoutMs + this.config.PROVIDER_POLL_INTERVAL_MS),
    );
    const outcome = await route.connector.initiate(
      route.credentials,
      {
        transactionId: row.public_id,
        reference: row.reference,
        amountMinor: Number(row.total),
        currency: row.currency.trim(),
        method: row.payment_method_code ?? '',
        phone: row.mobile_money_number,
        email: row.email,
        description: row.description,
        resultUrl: `${this.publicBase}/v1/provider-notifications/${route.provider}/${row.public_id}`,
        returnUrl: `${this.publicBase}/v1/provider-returns/${route.provider}/${row.public_id}`,
        test: row.mode === 'test',
      },
      { timeoutMs },
    );
    return this.initiated(route, row, outcome, name, ctx.request_id);
  }

  private async initiated(
    route: Route,
    row: TransactionRow,
    outcome: InitiateOutcome,
    name: string,
    correlationId: string,
  ): Promise<{ row: TransactionRow; answer: ProviderAnswer }> {
    if (outcome.kind === 'accepted') {
      const next = new Date(Date.now() + this.config.PROVIDER_POLL_INTERVAL_MS);
      const message =
        outcome.status === 'processing'
          ? `Payment request sent to the customer by ${name}`
          : `Awaiting the customer at ${name}`;
      const { moved, attempt } = await this.ds.transaction(async (m) => {
        const current = (await this.queries.byId(m, row.id, true))!;
        const saved = await this.attempts.accepted(m, row.id, outcome, next);
        // A status update may have arrived first and moved it further: only forward moves apply.
        return {
          moved: await this.statements.moveTo(m, current, outcome.status, message, correlationId),
          attempt: saved,
        };
      });
      this.outbox.notify();
      return { row: moved, answer: answerOf(attempt) };
    }
    if (outcome.kind === 'declined' || !outcome.sent) {
      // Nothing exists at the provider: the payment fails here, nothing was charged.
      const why =
        outcome.kind === 'declined'
          ? `${name} refused the payment: ${outcome.reason}`
          : `${name} could not be reached; nothing was charged`;
      await this.ds.transaction(async (m) => {
        const current = (await this.queries.byId(m, row.id, true))!;
        await this.statements.moveTo(m, current, 'failed', why, correlationId);
        await this.attempts.finish(m, row.id, outcome.reason);
      });
      this.outbox.notify();
      this.logger.warn(
        { transaction_id: row.public_id, provider: route.provider, reason: outcome.reason },
        'provider did not take the payment',
      );
      if (outcome.kind === 'declined') throw new DomainException(ErrorCodes.PaymentDeclined, why);
      throw new DomainException(
        ErrorCodes.ProviderUnavailable,
        `${why}; try again later with a new Idempotency-Key and a new transaction_reference`,
      );
    }
    // It may exist at the provider: the poller asks (by our id) until the provider says.
    await this.attempts.retryLater(
      this.ds,
      row.id,
      outcome.reason,
      new Date(Date.now() + Math.min(this.config.PROVIDER_POLL_INTERVAL_MS, 5_000)),
    );
    this.logger.error(
      { transaction_id: row.public_id, provider: route.provider, reason: outcome.reason },
      'provider answer unknown; the payment stays pending until the provider confirms its status',
    );
    throw new DomainException(
      ErrorCodes.ProviderError,
      `${name}'s answer could not be read (${outcome.reason}); ` +
        `the payment ${row.reference} stays pending until ${name} confirms its status: ` +
        'retry with the same Idempotency-Key or verify it by reference',
    );
  }

  private get publicBase(): string {
    return this.config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  }
}

function answerOf(a: ProviderPaymentRow): ProviderAnswer {
  const answer: ProviderAnswer = {};
  if (a.authorization_url) answer.authorization_url = a.authorization_url;
  if (a.authorization_code) answer.authorization_code = a.authorization_code;
  if (a.authorization_expires) answer.authorization_expires = a.authorization_expires;
  if (a.instructions) answer.instructions = a.instructions;
  return answer;
}
