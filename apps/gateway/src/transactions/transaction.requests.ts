import type { Static } from '@payments/contracts/schemas';
import { TRANSACTION_STATUSES } from '@payments/contracts';
import {
  MOBILE_MONEY_NUMBER,
  MOBILE_MONEY_NUMBER_RULE,
  PAYMENT_METHOD_CODES,
  PAYMENT_METHOD_TYPES,
} from '@payments/domain';
import { SUPPORTED_CURRENCIES } from '@payments/money';
import { createdRangeFields, cursorFields } from '../http/cursor-query';
import { calendarDate } from '../http/dates';
import { amountRules, descriptionField, integerInRange, metadataField, redirectUrl } from '../http/request-fields';
import { crossField, isDefined, isEmail, isIn, isLength, isString, matches } from '../http/request-rules';
import { conditional, optional, required, requestBody, requestQuery } from '../http/request-schema';
import { LINK_ID } from '../links/link.requests';

/** Requests of /v1/transactions. Rules of one rank are reported in the order listed. */

const currency = () =>
  required([isIn(SUPPORTED_CURRENCIES, `currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}`)]);

/** POST /v1/transactions body (spec: initialize transaction). */
export const InitializeTransactionDto = requestBody('InitializeTransactionDto', {
  amount: required(amountRules()),
  email: required([isEmail('email must be a valid e-mail address')]),
  currency: currency(),
  payment_method_type: optional([
    isIn(PAYMENT_METHOD_TYPES, `payment_method_type must be ${PAYMENT_METHOD_TYPES.join(' or ')}`),
  ]),
  payment_method_code: optional([
    isIn(PAYMENT_METHOD_CODES, `payment_method_code must be one of ${PAYMENT_METHOD_CODES.join(', ')}`),
  ]),
  mobile_money_number: conditional(
    [
      isDefined('mobile_money_number is required for mobile_money payments'),
      matches(MOBILE_MONEY_NUMBER, `mobile_money_number ${MOBILE_MONEY_NUMBER_RULE}`),
      isString('mobile_money_number must be a string'),
    ],
    (o, v) => v !== undefined || o.payment_method_type === 'mobile_money',
    { description: 'Required when payment_method_type is mobile_money' },
  ),
  transaction_reference: optional([
    matches(/^[A-Za-z0-9._:-]+$/, 'transaction_reference may contain letters, digits and . _ : - only'),
    isLength(1, 100, 'transaction_reference must be 1 to 100 characters'),
    isString(),
  ]),
  success_url: redirectUrl('success_url'),
  failure_url: redirectUrl('failure_url'),
  requested_response: optional([isIn(['success', 'failed'], 'requested_response must be success or failed')]),
  metadata: metadataField(),
  description: descriptionField(),
});
export type InitializeTransactionDto = Static<typeof InitializeTransactionDto>;

/** GET /v1/transactions/verify query. */
export const VerifyTransactionQuery = requestQuery('VerifyTransactionQuery', {
  reference: required([isLength(1, 100, 'reference must be 1 to 100 characters'), isString('reference is required')]),
});
export type VerifyTransactionQuery = Static<typeof VerifyTransactionQuery>;

/** Largest page of GET /v1/transactions/list (docs/api.md). */
export const LIST_LIMIT_MAX = 500;

/** GET /v1/transactions/list query: the filters are ANDed; `created[…]` are parsed flat, each a field of its own. */
export const ListTransactionsQuery = requestQuery('ListTransactionsQuery', {
  start_date: optional([calendarDate()]),
  end_date: optional([
    crossField(
      'notBeforeStart',
      (v, o) => typeof v !== 'string' || typeof o.start_date !== 'string' || v >= o.start_date,
      'end_date must not be before start_date',
    ),
    calendarDate(),
  ]),
  limit: integerInRange('limit', 1, LIST_LIMIT_MAX, { fromQuery: true }),
  status: optional([
    isIn(TRANSACTION_STATUSES, `status must be one of ${TRANSACTION_STATUSES.join(', ')}`),
    isString('status must be one transaction status'),
  ]),
  reference: optional([
    isLength(1, 100, 'reference must be 1 to 100 characters'),
    isString('reference must be a string'),
  ]),
  email: optional([isLength(1, 254, 'email must be 1 to 254 characters'), isString('email must be a string')]),
  payment_link_id: optional([
    matches(LINK_ID, 'payment_link_id must be a payment link id (plink_…)'),
    isString('payment_link_id must be a string'),
  ]),
  ...cursorFields({ pattern: /^txn_[0-9A-Za-z]{1,64}$/, noun: 'a transaction id (txn_…)' }),
  ...createdRangeFields(),
});
export type ListTransactionsQuery = Static<typeof ListTransactionsQuery>;

/** GET /v1/transactions/fetch query. */
export const FetchTransactionQuery = requestQuery('FetchTransactionQuery', {
  publicId: required([isLength(1, 100, 'publicId must be 1 to 100 characters'), isString('publicId is required')]),
});
export type FetchTransactionQuery = Static<typeof FetchTransactionQuery>;

const transactionReference = () =>
  required([
    isLength(1, 100, 'transaction_reference must be 1 to 100 characters'),
    isString('transaction_reference is required'),
  ]);

/** POST /v1/transactions/refund body. */
export const RefundDto = requestBody('RefundDto', {
  transaction_reference: transactionReference(),
  /** Absent: everything that is left to refund. */
  amount: optional(amountRules()),
  /** Free text for the merchant's records, returned on every read of the refund. */
  reason: optional([isLength(1, 500, 'reason must be 1 to 500 characters'), isString('reason must be a string')]),
  metadata: metadataField(),
  description: descriptionField(),
});
export type RefundDto = Static<typeof RefundDto>;

/** Path parameter of GET /v1/transactions/refunds/{refund_id}. */
export const REFUND_ID = /^rfd_[0-9A-Za-z]{10,40}$/;

/** Largest page of GET /v1/transactions/refunds when a limit is given. */
export const REFUNDS_PAGE_MAX = 100;

/** GET /v1/transactions/refunds query: every refund, oldest first, or one cursor page in that order. */
export const ListRefundsQuery = requestQuery('ListRefundsQuery', {
  transaction_reference: transactionReference(),
  limit: integerInRange('limit', 1, REFUNDS_PAGE_MAX, { fromQuery: true }),
  ...cursorFields({ pattern: REFUND_ID, noun: 'a refund id (rfd_…)' }),
});
export type ListRefundsQuery = Static<typeof ListRefundsQuery>;
