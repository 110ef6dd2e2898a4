/** Error codes of the public API (docs/contract.md, Errors), with the HTTP status each maps to. */
export const ErrorCodes = {
  ValidationError: 'validation_error',
  InvalidApiKey: 'invalid_api_key',
  SecretKeyRequired: 'secret_key_required',
  NotFound: 'not_found',
  DuplicateReference: 'duplicate_reference',
  IdempotencyInProgress: 'idempotency_in_progress',
  IdempotencyKeyReused: 'idempotency_key_reused',
  RefundExceedsAmount: 'refund_exceeds_amount',
  TransactionNotRefundable: 'transaction_not_refundable',
  PaymentMethodUnavailable: 'payment_method_unavailable',
  LinkInactive: 'link_inactive',
  PayloadTooLarge: 'payload_too_large',
  RateLimited: 'rate_limited',
  InternalError: 'internal_error',
  ServiceUnavailable: 'service_unavailable',
  OutcomeUnknown: 'outcome_unknown',
  PaymentDeclined: 'payment_declined',
  ProviderError: 'provider_error',
  ProviderUnavailable: 'provider_unavailable',
  // The merchant dashboard's API (/dashboard/api, docs/dashboard.md).
  NotSignedIn: 'not_signed_in',
  InvalidCredentials: 'invalid_credentials',
  Forbidden: 'forbidden',
  CsrfTokenInvalid: 'csrf_token_invalid',
  EmailTaken: 'email_taken',
  ModeMismatch: 'mode_mismatch',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_api_key: 401,
  secret_key_required: 403,
  not_found: 404,
  duplicate_reference: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  refund_exceeds_amount: 422,
  transaction_not_refundable: 422,
  payment_method_unavailable: 422,
  link_inactive: 422,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  // The gateway waited for an answer it did not get (a deadline, a connection lost after sending):
  // the request may have been applied or not. Retry with the same Idempotency-Key (docs/api.md).
  outcome_unknown: 504,
  // The provider refused the payment at once (its reason in the message): the payment failed, nothing was charged.
  payment_declined: 402,
  // The provider's answer could not be read or verified, or came too late: the payment stays
  // pending and is checked at the provider until its outcome is known (never guessed).
  provider_error: 502,
  // The provider could not be reached at all: nothing was sent, the payment failed, nothing was charged.
  provider_unavailable: 503,
  // Dashboard: no session (or it ended), a wrong e-mail or password (the same answer for both),
  // a role that may not take the action, a state-changing request without the session's CSRF
  // token, an e-mail that already has a dashboard account.
  not_signed_in: 401,
  invalid_credentials: 401,
  forbidden: 403,
  csrf_token_invalid: 403,
  email_taken: 409,
  // Dashboard: the request names a mode the session has switched away from (another tab).
  mode_mismatch: 409,
};

export interface FieldError {
  field: string;
  message: string;
}

/** What crosses the RPC boundary when a use case refuses a request. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
  /**
   * Internal (service → gateway only, never in a public body): the request certainly changed
   * nothing, so the gateway's idempotency layer releases the key instead of keeping this answer.
   */
  not_executed?: boolean;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_HTTP_STATUS;
}
