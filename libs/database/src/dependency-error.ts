/**
 * Raised when a backing store (PostgreSQL, Redis, Kafka) cannot be reached. Boot turns it into a
 * clear message naming the dependency; request paths turn it into 503 service_unavailable.
 */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    readonly target: string,
    readonly reason: string,
    readonly hint?: string,
  ) {
    super(`${dependency} at ${target} is unreachable: ${reason}${hint ? `. ${hint}` : ''}`);
    this.name = 'DependencyUnavailableError';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
  '53300', // too_many_connections
]);

/** What a caller is told when a store could not be reached and nothing was sent to it. */
export const STORE_UNREACHABLE_MESSAGE = 'a data store is unreachable; try again shortly';

/**
 * What a caller is told when PostgreSQL refused a value validation let through (SQLSTATE 22xxx):
 * the statement failed, nothing changed.
 */
export const STORE_DATA_REFUSED_MESSAGE =
  'a value in the request is outside what can be stored (out of range, impossible date or invalid text)';

/**
 * What a caller is told when the connection broke while a write was in flight (see
 * OutcomeUnknownError): it may have been applied, so a blind retry could apply it twice.
 */
export const STORE_OUTCOME_UNKNOWN_MESSAGE =
  'the connection to a data store broke while the request was being applied; it may have taken effect: ' +
  'retry with the same Idempotency-Key, or check the outcome (for a payment, verify it by transaction_reference) ' +
  'before trying with a new key';

/** Messages of driver errors that carry no code but mean the connection is gone. */
const CONNECTION_MESSAGES = new RegExp(
  [
    'Connection terminated',
    'connect ECONNREFUSED',
    'timeout exceeded when trying to connect',
    'Connection is closed',
    'the database system is (starting up|shutting down)',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
  ].join('|'),
  'i',
);

/** True for errors that mean "the store is not there right now" rather than "the query is wrong". */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if (err instanceof DependencyUnavailableError) return true;
  const e = err as { code?: string; message?: string; driverError?: unknown; cause?: unknown };
  if (e.code && CONNECTION_CODES.has(e.code)) return true;
  if (e.driverError && isConnectionError(e.driverError)) return true;
  if (e.cause && e.cause !== err && isConnectionError(e.cause)) return true;
  const msg = e.message ?? '';
  // pg refuses a statement on a connection that already failed or was closed ("… is not queryable",
  // no code): a transaction whose connection the server dropped between two of its statements (a
  // restart, an administrator's terminate) gets this on the next one, not the error of the drop.
  return CONNECTION_MESSAGES.test(msg);
}

/** Host:port of a URL without credentials, for messages. */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    const defaultPort = u.protocol.startsWith('postgres') ? '5432' : u.protocol.startsWith('redis') ? '6379' : '';
    return `${u.hostname}:${u.port || defaultPort}`;
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * The caller of a piece of work had given up (its RPC deadline passed) before the work was sent to
 * the database, or its statement was cancelled at the deadline plus the margin: nothing was
 * written. Answered like an unreachable store (not executed); the caller is no longer waiting.
 */
export class DeadlineExceededError extends Error {
  readonly deadlineExceeded = true;
  constructor(message = "the caller's deadline passed before the work was done; nothing was written") {
    super(message);
    this.name = 'DeadlineExceededError';
  }
}

/** SQLSTATE query_canceled: statement_timeout, or a cancel at the caller's deadline; the transaction rolled back. */
const QUERY_CANCELED = '57014';

/**
 * True when work was not done because its time was up (DeadlineExceededError, or a statement
 * cancelled for time): nothing was written.
 */
export function isDeadlineExceeded(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as { deadlineExceeded?: unknown }).deadlineExceeded === true) return true;
  return (err as { code?: unknown }).code === QUERY_CANCELED;
}
