import type { NewTransaction } from '../../apps/transaction-service/src/transactions/transaction-store';

/** A pending test-mode payment as initialize hands it to the store; `fields` say what a test varies. */
export function newTransaction(fields: Partial<NewTransaction> & Pick<NewTransaction, 'reference'>): NewTransaction {
  return {
    business_id: 1,
    mode: 'test',
    amount: 1000,
    charges: 0,
    currency: 'USD',
    email: 'payer@example.com',
    payment_method_type: null,
    payment_method_code: null,
    mobile_money_number: null,
    requested_response: null,
    message: 'Awaiting payment',
    success_url: null,
    failure_url: null,
    expires_in: 3600,
    ...fields,
  };
}
