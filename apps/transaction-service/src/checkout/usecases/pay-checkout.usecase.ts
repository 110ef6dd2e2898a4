import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type TransactionManager } from '@payments/database';
import {
  ErrorCodes,
  type CheckoutPayBody,
  type CheckoutPayResult,
  type CheckoutRpcRequest,
  type FieldError,
  type RpcContext,
} from '@payments/contracts';
import { DomainException, publicId } from '@payments/platform';
import { OutboxNotifier } from '@payments/messaging';
import { TransactionServiceConfig, durationMs } from '../../config/transaction.config';
import {
  MOBILE_MONEY_NUMBER_RULE,
  isMobileMoneyNumber,
  isPaymentMethodCode,
  normalizeMobileMoneyNumber,
  typeOfCode,
  type PaymentMethodCode,
} from '@payments/domain';
import { LinkStore } from '../../links/link-store';
import { LivePayments, type Route } from '../../connectors/live-payments';
import { ProviderPaymentStore } from '../../connectors/provider-payment-store';
import { SandboxProvider } from '../../transactions/sandbox/sandbox-provider';
import { TransactionQueries } from '../../transactions/transaction-queries';
import { TransactionStore, type TransactionRow } from '../../transactions/transaction-store';

import { checkoutNotFound } from './get-checkout.usecase';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function invalid(errors: FieldError[]): DomainException {
  return new DomainException(ErrorCodes.ValidationError, `${errors[0].field} ${errors[0].message}`, errors);
}

/**
 * The customer's answer on the hosted page: paying hands the transaction to its provider or to the
 * sandbox (a link first creates its transaction), declining fails it. A transaction no longer
 * pending, or already sent to a provider, is left as it is (a second click).
 */
@Injectable()
export class PayCheckoutUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    private readonly transactions: TransactionQueries,
    private readonly links: LinkStore,
    private readonly sandbox: SandboxProvider,
    private readonly outbox: OutboxNotifier,
    @Inject(TransactionServiceConfig) private readonly config: TransactionServiceConfig,
    private readonly attempts: ProviderPaymentStore,
    private readonly live: LivePayments,
  ) {}

  async execute({ ctx, body }: CheckoutRpcRequest<CheckoutPayBody>): Promise<CheckoutPayResult> {
    let route: Route | null = null;
    const row = await this.ds.transaction(async (m) => {
      let txn: TransactionRow | undefined;
      if (body.checkout_id.startsWith('plink_')) {
        txn = await this.createFromLink(m, body, ctx.request_id);
      } else {
        txn = await this.transactions.byCheckoutId(m, body.checkout_id, true);
        if (!txn) throw checkoutNotFound();
      }
      if (txn.status !== 'pending') return txn;
      // Sent to a provider: only the provider's answer ends it (the customer pays, or not, there).
      // The page cannot decline it, nor have the sandbox pay it.
      if (await this.attempts.get(m, txn.id)) return txn;
      if (body.action === 'decline')
        return this.store.changeStatus(m, txn, 'failed', 'Declined by the customer', ctx.request_id);
      if (!txn.payment_method_code) {
        const { code, number } = this.chosenMethod(body);
        txn = await this.store.setMethod(m, txn, typeOfCode(code), code, number);
      } else if (typeOfCode(txn.payment_method_code as never) === 'mobile_money' && !txn.mobile_money_number) {
        const { number } = this.chosenMethod({ ...body, payment_method_code: txn.payment_method_code });
        txn = await this.store.setMethod(m, txn, 'mobile_money', txn.payment_method_code, number);
      }
      // Its provider with the business's credentials (a live method not connected: 422, nothing kept).
      route = await this.live.route(txn.business_id, txn.mode, txn.payment_method_code);
      return route ? txn : this.sandbox.start(m, txn, ctx.request_id);
    });
    this.outbox.notify();
    if (!route || row.status !== 'pending')
      return { checkout_id: row.checkout_id, transaction_id: row.public_id, status: row.status };
    // Committed with its method, then to the provider as an initialize does; the page shows a
    // decline (402) or, for an unreadable answer, waiting.
    const rpcCtx = { ...ctx, business_id: row.business_id, mode: row.mode, key_type: 'public' } as RpcContext;
    const started = await this.live.start(route, row, rpcCtx).catch((err: unknown) => {
      if (err instanceof DomainException && err.code === ErrorCodes.ProviderError) return { row };
      throw err;
    });
    return { checkout_id: row.checkout_id, transaction_id: row.public_id, status: started.row.status };
  }

  private chosenMethod(body: CheckoutPayBody): { code: PaymentMethodCode; number: string | null } {
    const code = body.payment_method_code;
    if (!code || !isPaymentMethodCode(code))
      throw invalid([{ field: 'payment_method_code', message: 'choose a payment method' }]);
    if (typeOfCode(code) !== 'mobile_money') return { code, number: null };
    const number = normalizeMobileMoneyNumber(body.mobile_money_number ?? '');
    if (!isMobileMoneyNumber(number))
      throw invalid([{ field: 'mobile_money_number', message: MOBILE_MONEY_NUMBER_RULE }]);
    return { code, number };
  }

  private async createFromLink(
    m: TransactionManager,
    body: CheckoutPayBody,
    correlationId: string,
  ): Promise<TransactionRow> {
    const link = await this.links.byPublicId(m, body.checkout_id, { forPayment: true });
    if (!link) throw checkoutNotFound();
    const token = body.attempt_token && /^[A-Za-z0-9_-]{16,64}$/.test(body.attempt_token) ? body.attempt_token : null;
    if (token) {
      // Two submits of the same page wait for each other here; the second finds the first's transaction.
      const existing = await this.transactions.byLinkAttempt(m, link.public_id, token);
      if (existing) return existing;
    }
    // Checked after the replay above: a page submitted before the deactivation still finds its payment.
    if (!link.active) throw new DomainException(ErrorCodes.LinkInactive, 'this payment link is no longer active');
    const email = body.email?.trim() ?? '';
    if (!EMAIL.test(email) || email.length > 254)
      throw invalid([{ field: 'email', message: 'must be a valid e-mail address' }]);
    const method = body.action === 'pay' ? this.chosenMethod(body) : null;
    return this.store.create(
      m,
      {
        business_id: link.business_id,
        mode: link.mode,
        reference: publicId('ref', 20),
        amount: Number(link.amount),
        charges: Number(link.charges),
        currency: link.currency.trim(),
        email,
        payment_method_type: method ? typeOfCode(method.code) : null,
        payment_method_code: method?.code ?? null,
        mobile_money_number: method?.number ?? null,
        requested_response: null,
        message: 'Awaiting payment',
        success_url: link.success_url,
        failure_url: link.failure_url,
        expires_in: durationMs(this.config.TRANSACTION_EXPIRY) / 1000,
        payment_link_id: link.public_id,
        link_splits: link.splits,
        checkout_attempt: token,
      },
      correlationId,
    );
  }
}
