/** True when the error, or the driver error or cause it wraps, has a SQLSTATE in one of these two-character classes. */
function hasSqlStateClass(err: unknown, classes: readonly string[]): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && classes.includes(e.code.slice(0, 2))) return true;
  if (e.driverError && e.driverError !== err && hasSqlStateClass(e.driverError, classes)) return true;
  return Boolean(e.cause && e.cause !== err && hasSqlStateClass(e.cause, classes));
}

/**
 * True for PostgreSQL "data exception" errors (SQLSTATE class 22: a value out of range, an
 * impossible date, a null byte or bad encoding in text…). The caller sent a value the store cannot
 * hold, so the right answer is 400 and nothing was written; the API validates inputs before they
 * get here, so this is the safety net for what validation missed.
 */
export function isDataError(err: unknown): boolean {
  return hasSqlStateClass(err, ['22']);
}

/**
 * True for errors one row's values cause: a data exception (class 22) or an integrity constraint
 * violation (class 23: unique, check, foreign key, not null). Such an error in a many-row statement
 * says nothing about the other rows, which would have succeeded alone; any other error (a
 * cancelled statement, a deadlock, a lock not available, a broken connection) is the statement's.
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
