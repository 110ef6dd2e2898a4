/** True when the error, or the driver error or cause it wraps, has a SQLSTATE in one of these two-character classes. */
function hasSqlStateClass(err: unknown, classes: readonly string[]): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && classes.includes(e.code.slice(0, 2))) return true;
  if (e.driverError && e.driverError !== err && hasSqlStateClass(e.driverError, classes)) return true;
  return Boolean(e.cause && e.cause !== err && hasSqlStateClass(e.cause, classes));
}

/**
 * True for PostgreSQL data exceptions (SQLSTATE class 22: out of range, bad date, null byte…): the caller sent a value
 * the store cannot hold, so the answer is 400 and nothing was written. A safety net for what validation missed.
 */
export function isDataError(err: unknown): boolean {
  return hasSqlStateClass(err, ['22']);
}

/**
 * True for errors one row's values cause (class 22, or 23: integrity constraints). In a many-row statement such an
 * error says nothing about the other rows; any other error (cancel, deadlock, broken connection) is the statement's.
 */
export function isRowError(err: unknown): boolean {
  return hasSqlStateClass(err, ['22', '23']);
}

/**
 * True for a statement the database rolled back because of other transactions (class 40: a
 * deadlock, a serialization failure). Nothing of it was written; a many-row statement can meet one
 * where its rows alone would not (two groups taking the same rows in opposite order).
 */
export function isRolledBackByConcurrency(err: unknown): boolean {
  return hasSqlStateClass(err, ['40']);
}
