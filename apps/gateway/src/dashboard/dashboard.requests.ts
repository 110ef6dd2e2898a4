import type { Static } from '@payments/contracts/schemas';
import { DELIVERY_STATUSES, MODES } from '@payments/contracts';
import { MAX_AMOUNT } from '@payments/money';
import { PAYMENT_METHOD_CODES } from '@payments/domain';
import { isIn, isInt, isLength, matches, max, maxLength, min } from '../http/request-rules';
import { optional, required, requestBody, requestQuery } from '../http/request-schema';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords';
import { ROLES } from './roles';

/**
 * The dashboard API's requests, in the gateway's one request-schema language (ADR 0016): checked
 * by the same compiled validator as /v1 and answered with the same error body.
 */

/** A plain address: something@domain.tld, no spaces, at most 254 characters (compared lower-cased). */
const EMAIL_MESSAGE = 'email must be an e-mail address (at most 254 characters)';
const email = () => [matches(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, EMAIL_MESSAGE), maxLength(254, EMAIL_MESSAGE)] as const;

export const LoginDto = requestBody('DashboardLoginDto', {
  email: required([isLength(1, 254, 'email must be text of 1 to 254 characters')]),
  password: required([isLength(1, PASSWORD_MAX, `password must be text of 1 to ${PASSWORD_MAX} characters`)]),
});
export type LoginDto = Static<typeof LoginDto>;

export const NewUserDto = requestBody('DashboardNewUserDto', {
  email: required(email()),
  password: required(
    [isLength(PASSWORD_MIN, PASSWORD_MAX, `password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`)],
    {
      description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
    },
  ),
  role: required([isIn(ROLES, `role must be one of ${ROLES.join(', ')}`)]),
});
export type NewUserDto = Static<typeof NewUserDto>;

export const ModeDto = requestBody('DashboardModeDto', {
  mode: required([isIn(MODES, 'mode must be test or live')]),
});
export type ModeDto = Static<typeof ModeDto>;

const AMOUNT_MESSAGE = 'amount must be an integer amount in minor units from 1 to 10^12';
export const RefundDto = requestBody('DashboardRefundDto', {
  amount: optional([isInt(AMOUNT_MESSAGE), min(1, AMOUNT_MESSAGE), max(MAX_AMOUNT, AMOUNT_MESSAGE)]),
  reason: optional([isLength(1, 500, 'reason must be text of 1 to 500 characters')]),
});
export type RefundDto = Static<typeof RefundDto>;

const MAX_GRACE_SECONDS = 7 * 24 * 3600;
/** The mode is the one the page showed; the API refuses it (409) when the session has switched since. */
export const RollKeyDto = requestBody('DashboardRollKeyDto', {
  mode: required([isIn(MODES, 'mode must be test or live')]),
  type: required([isIn(['secret', 'public'], 'type must be secret or public')]),
  grace_seconds: optional([
    isInt(`grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`),
    min(0, `grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`),
    max(MAX_GRACE_SECONDS, `grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`),
  ]),
});
export type RollKeyDto = Static<typeof RollKeyDto>;

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TXN = /^txn_[0-9A-Za-z]{1,64}$/;

/** The payments list's filters, as the query string carries them (all text). */
export const PaymentsQuery = requestQuery('DashboardPaymentsQuery', {
  status: optional([
    isIn(['pending', 'processing', 'success', 'failed'], 'status must be pending, processing, success or failed'),
  ]),
  method: optional([isIn(PAYMENT_METHOD_CODES, `method must be one of ${PAYMENT_METHOD_CODES.join(', ')}`)]),
  from: optional([matches(DAY, 'from must be a date, YYYY-MM-DD')]),
  to: optional([matches(DAY, 'to must be a date, YYYY-MM-DD')]),
  /** A reference (exact), or an e-mail address (any case) when it holds an @. */
  q: optional([isLength(1, 254, 'q must be a reference or an e-mail address')]),
  limit: optional([matches(/^([1-9]|[1-9]\d|100)$/, 'limit must be an integer from 1 to 100')]),
  starting_after: optional([matches(TXN, 'starting_after must be a transaction id (txn_…)')]),
  ending_before: optional([matches(TXN, 'ending_before must be a transaction id (txn_…)')]),
});
export type PaymentsQuery = Static<typeof PaymentsQuery>;

export const DeliveriesQuery = requestQuery('DashboardDeliveriesQuery', {
  status: optional([isIn(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(', ')}`)]),
  starting_after: optional([matches(/^dlv_[0-9a-f]{32}$/, 'starting_after must be a delivery id (dlv_…)')]),
});
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const RecoverDto = requestBody('DashboardRecoverDto', {
  since: required([
    matches(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/,
      'since must be an ISO 8601 time with a zone',
    ),
  ]),
});
export type RecoverDto = Static<typeof RecoverDto>;
