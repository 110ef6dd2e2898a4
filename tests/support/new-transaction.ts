import type { NewTransaction } from '../../apps/transaction-service/src/transactions/transaction-store';

/** A pending test-mode payment as initialize hands it to the store; `fields` say what a test varies. */
export function newTransaction(fields: Partial<NewTransaction> & Pick<NewTransaction, 'reference'>): NewTransaction {
  return {
    businessId: 1,
    mode: 'test',
    amount: 1000,
    charges: 0,
    currency: 'USD',
    email: 'payer@example.com',
    paymentMethodType: null,
    paymentMethodCode: null,
    mobileMoneyNumber: null,
    requestedResponse: null,
    message: 'Awaiting payment',
    successUrl: null,
    failureUrl: null,
    expiresInSeconds: 3600,
    ...fields,
  };
}
