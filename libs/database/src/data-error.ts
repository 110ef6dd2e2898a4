/**
 * True for PostgreSQL "data exception" errors (SQLSTATE class 22: a value out of range, an
 * impossible date, a null byte or bad encoding in text…). The caller sent a value the store cannot
 * hold, so the right answer is 400 and nothing was written; the API validates inputs before they
 * get here, so this is the safety net for what validation missed.
 */
export function isDataError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  if (e.driverError && e.driverError !== err && isDataError(e.driverError)) return true;
  return Boolean(e.cause && e.cause !== err && isDataError(e.cause));
}
