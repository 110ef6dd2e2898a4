import type { ErrorCode, ErrorPayload, FieldError } from '@payments/contracts';

/**
 * A refusal the caller can act on (validation, not found, conflict…). Use cases throw it; the RPC
 * reply interceptor turns it into `{ ok: false, error }` and the gateway into the error body.
 */
export class DomainException extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'DomainException';
  }

  toPayload(): ErrorPayload {
    return this.errors ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}
