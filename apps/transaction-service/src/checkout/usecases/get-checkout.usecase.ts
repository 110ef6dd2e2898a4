import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import { ErrorCodes, type CheckoutGetBody, type CheckoutRpcRequest, type CheckoutView } from '@payments/contracts';
import { DomainException } from '@payments/platform';
import { LinkStore } from '../../links/link-store';
import { PROVIDER_NAMES } from '../../connectors/connector';
import { ProviderPaymentStore } from '../../connectors/provider-payment-store';
import { TransactionQueries } from '../../transactions/transaction-queries';

export const checkoutNotFound = () => new DomainException(ErrorCodes.NotFound, 'this checkout does not exist');

/** What the hosted checkout page shows for a transaction (chk_…) or a payment link (plink_…). */
@Injectable()
export class GetCheckoutUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly transactions: TransactionQueries,
    private readonly links: LinkStore,
    private readonly attempts: ProviderPaymentStore,
  ) {}

  async execute({ body }: CheckoutRpcRequest<CheckoutGetBody>): Promise<CheckoutView> {
    const id = body.checkout_id;
    if (id.startsWith('plink_')) {
      const link = await this.links.byPublicId(this.ds, id);
      if (!link) throw checkoutNotFound();
      return {
        kind: 'link',
        checkout_id: link.public_id,
        business_id: link.business_id,
        mode: link.mode,
        amount: Number(link.amount),
        charges: Number(link.charges),
        total: Number(link.amount) + Number(link.charges),
        currency: link.currency.trim(),
        description: link.description,
        status: link.active ? 'open' : 'inactive',
        message: link.active ? 'Enter your details to pay' : 'This payment link is no longer active',
        payment_method_code: null,
        email: null,
        transaction_reference: null,
        success_url: link.success_url,
        failure_url: link.failure_url,
      };
    }
    const t = await this.transactions.byCheckoutId(this.ds, id);
    if (!t) throw checkoutNotFound();
    // A payment made through a link shows the link's description.
    const paidLink = t.payment_link_id ? await this.links.byPublicId(this.ds, t.payment_link_id) : undefined;
    const attempt = await this.attempts.get(this.ds, t.id);
    return {
      ...(attempt && {
        provider: {
          name: PROVIDER_NAMES[attempt.provider],
          authorization_url: attempt.authorization_url,
          authorization_code: attempt.authorization_code,
          instructions: attempt.instructions,
        },
      }),
      kind: 'transaction',
      checkout_id: t.checkout_id,
      business_id: t.business_id,
      mode: t.mode,
      amount: Number(t.amount),
      charges: Number(t.charges),
      total: Number(t.total),
      currency: t.currency.trim(),
      // The transaction's own description (shown to the customer, as Stripe's is), else its link's.
      description: t.description ?? paidLink?.description ?? null,
      status: t.status,
      message: t.message,
      payment_method_code: t.payment_method_code,
      email: t.email,
      transaction_reference: t.reference,
      success_url: t.success_url,
      failure_url: t.failure_url,
    };
  }
}
