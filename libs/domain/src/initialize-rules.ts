import type { FieldError, InitializeTransactionBody, Mode } from '@payments/contracts';
import { MAX_AMOUNT, SUPPORTED_CURRENCIES, isSupportedCurrency } from '@payments/money';
import { descriptionProblem, metadataProblems } from './metadata';
import { MOBILE_MONEY_NUMBER_RULE, isMobileMoneyNumber } from './mobile-number';
import { PAYMENT_METHOD_CODES, isPaymentMethodCode, typeOfCode } from './payment-methods';

/**
 * The rules of a payment request (POST /v1/transactions), every problem at once, in the API's words; both the gateway
 * and transaction-service run them. Past the request schema only cross-field rules can fail (method type, mobile money
 * without a number, requested_response outside test mode, a null the schema lets through).
 */
export function initializeProblems(body: InitializeTransactionBody, mode: Mode): FieldError[] {
  const errors: FieldError[] = [];
  if (!Number.isSafeInteger(body.amount) || body.amount <= 0)
    errors.push({ field: 'amount', message: 'must be a positive integer in minor units' });
  else if (body.amount > MAX_AMOUNT) errors.push({ field: 'amount', message: `must be at most ${MAX_AMOUNT}` });
  if (!isSupportedCurrency(body.currency))
    errors.push({ field: 'currency', message: `must be one of ${SUPPORTED_CURRENCIES.join(', ')}` });
  if (body.payment_method_code !== undefined && !isPaymentMethodCode(body.payment_method_code)) {
    errors.push({ field: 'payment_method_code', message: `must be one of ${PAYMENT_METHOD_CODES.join(', ')}` });
  }
  if (body.payment_method_code && isPaymentMethodCode(body.payment_method_code) && body.payment_method_type) {
    const expected = typeOfCode(body.payment_method_code);
    if (expected !== body.payment_method_type) {
      errors.push({
        field: 'payment_method_code',
        message: `${body.payment_method_code} is a ${expected} method, not ${body.payment_method_type}`,
      });
    }
  }
  const code = body.payment_method_code;
  const type = body.payment_method_type ?? (code && isPaymentMethodCode(code) ? typeOfCode(code) : undefined);
  if (type === 'mobile_money') {
    if (!body.mobile_money_number)
      errors.push({ field: 'mobile_money_number', message: 'is required for mobile_money payments' });
    else if (!isMobileMoneyNumber(body.mobile_money_number))
      errors.push({ field: 'mobile_money_number', message: MOBILE_MONEY_NUMBER_RULE });
  }
  if (body.requested_response !== undefined && mode === 'live') {
    errors.push({ field: 'requested_response', message: 'is only allowed in test mode' });
  }
  errors.push(...metadataProblems(body.metadata));
  const description = descriptionProblem(body.description);
  if (description) errors.push(description);
  return errors;
}
