/**
 * A failed statement, shaped as TypeORM's error of the same name: the statement, its parameters,
 * the pg error as `driverError`, and copies of its fields (`code`, `detail`, `constraint`…), which
 * callers and the log redaction rely on.
 */
export class QueryFailedError extends Error {
  override readonly name = 'QueryFailedError';
  readonly code?: string;

  constructor(
    readonly query: string,
    readonly parameters: unknown[] | undefined,
    readonly driverError: unknown,
  ) {
    super(
      String(driverError)
        .replace(/^error: /, '')
        .replace(/^Error: /, ''),
    );
    if (driverError && typeof driverError === 'object') {
      const { name: _name, message: _message, stack: _stack, ...fields } = driverError as Record<string, unknown>;
      Object.assign(this, fields);
    }
  }
}

/**
 * The connection broke after a statement that may write was sent and before its reply came: it may have committed or
 * not, so the caller must not be told to simply retry (that could apply it twice). Still matches `isConnectionError`.
 */
export class OutcomeUnknownError extends QueryFailedError {
  readonly outcomeUnknown = true;
}

/** True when a write may or may not have been committed (see OutcomeUnknownError). */
export function isOutcomeUnknown(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as { outcomeUnknown?: unknown }).outcomeUnknown === true) return true;
  const cause = (err as { cause?: unknown }).cause;
  return Boolean(cause && cause !== err && isOutcomeUnknown(cause));
}
