import { ERROR_HTTP_STATUS, ErrorCodes, type ErrorCode, type FieldError } from '@payments/contracts';
import {
  STORE_DATA_REFUSED_MESSAGE,
  STORE_OUTCOME_UNKNOWN_MESSAGE,
  STORE_UNREACHABLE_MESSAGE,
  isConnectionError,
  isDataError,
  isOutcomeUnknown,
} from '@payments/database';

/** An error answer of the public API (docs/contract.md, Errors); the filter renders it. */
export class ApiException extends Error {
  /** True when the request certainly never reached a service (safe to run again as is). */
  notExecuted = false;
  /**
   * Set when the outcome is unknown but the service is idempotent on the Idempotency-Key: from
   * this time (epoch ms) on, a retry with the same key may run again and gets the real outcome.
   */
  rerunAfter: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiException';
  }

  get status(): number {
    return ERROR_HTTP_STATUS[this.code];
  }
}

/**
 * The answer to an error of the gateway's own stores (PostgreSQL, Redis): unreachable → 503 that changed nothing,
 * connection lost mid-write → 503 outcome unknown, a value PostgreSQL refused → 400; anything else → undefined.
 */
export function storeErrorAnswer(err: unknown): ApiException | undefined {
  if (isOutcomeUnknown(err)) return new ApiException(ErrorCodes.OutcomeUnknown, STORE_OUTCOME_UNKNOWN_MESSAGE);
  if (isConnectionError(err)) {
    const unreachable = new ApiException(ErrorCodes.ServiceUnavailable, STORE_UNREACHABLE_MESSAGE);
    unreachable.notExecuted = true;
    return unreachable;
  }
  if (isDataError(err)) return new ApiException(ErrorCodes.ValidationError, STORE_DATA_REFUSED_MESSAGE);
  return undefined;
}
