import { ERROR_HTTP_STATUS, type ErrorCode, type FieldError } from '@payments/contracts';

/** An error answer of the public API (docs/contract.md, Errors); the filter renders it. */
export class ApiException extends Error {
  /** True when the request certainly never reached a service (safe to run again as is). */
  notExecuted = false;

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
