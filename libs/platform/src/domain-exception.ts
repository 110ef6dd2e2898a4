import { ErrorCodes, type ErrorCode, type ErrorPayload, type FieldError } from '@payments/contracts';

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
    return this.errors
      ? { code: this.code, message: this.message, errors: this.errors }
      : { code: this.code, message: this.message };
  }
}

/**
 * The error of a list cursor that names none of the caller's objects (unknown, or another
 * business's or mode's): a 400 on the field, which never tells whether the id exists elsewhere.
 */
export function unknownCursor(
  noun: string,
  plural = `${noun}s`,
): (field: 'starting_after' | 'ending_before', value: string) => DomainException {
  return (field, value) =>
    new DomainException(ErrorCodes.ValidationError, `${field} names no ${noun}: ${value}`, [
      { field, message: `must be the id of one of your ${plural}` },
    ]);
}
