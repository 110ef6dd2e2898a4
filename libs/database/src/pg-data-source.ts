import { Pool, type PoolClient, type QueryResult } from 'pg';
import { isConnectionError } from './dependency-error';

/**
 * The database handle the services use: a pg Pool with just the query and transaction surface they
 * need. It replaced TypeORM at runtime (loading TypeORM cost ~11 MB per process for a query runner);
 * TypeORM is still the migration runner and is loaded only on the migrate path (see data-source.ts).
 * It keeps the TypeORM behaviour the stores were written against: see `toTypeormResult` and
 * `QueryFailedError`.
 */

export type IsolationLevel = 'READ UNCOMMITTED' | 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

const ISOLATION_LEVELS: readonly IsolationLevel[] = ['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE'];

/**
 * A hot statement run as a named prepared statement: each pooled connection parses and plans it
 * once, then only binds parameters (no Parse message, no parse/plan on the server). Its result
 * columns must be listed, not `*`: a prepared statement whose result type changes (a migration
 * adding a column while this process serves) fails with "cached plan must not change result type".
 * One name per text in the process (pg refuses a name reused for different text).
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export type Sql = string | PreparedStatement;

export const sqlText = (sql: Sql): string => (typeof sql === 'string' ? sql : sql.text);

/** What runs SQL: the pool (one statement, any connection) or one transaction's connection. */
export interface EntityManager {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the caller names the row shape, as with TypeORM
  query<T = any>(sql: Sql, parameters?: unknown[]): Promise<T>;
}

export interface PoolSettings {
  url: string;
  max: number;
  connectionTimeoutMillis: number;
  idleTimeoutMillis: number;
  statementTimeoutMillis: number;
  applicationName?: string;
}

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
    super(String(driverError).replace(/^error: /, '').replace(/^Error: /, ''));
    if (driverError && typeof driverError === 'object') {
      const { name: _name, message: _message, stack: _stack, ...fields } = driverError as Record<string, unknown>;
      Object.assign(this, fields);
    }
  }
}

/**
 * The connection broke after a statement that may write was sent and before its reply came back
 * (an autocommit statement, or a COMMIT): the server may have committed it or not. Unlike a
 * connect failure (nothing sent, nothing written), the caller must not be told to simply retry:
 * a retry could apply the change twice. It still matches `isConnectionError` (the store is gone).
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

/** TypeORM's postgres `query()` gives [rows, rowCount] for two commands (UPDATE, DELETE) and rows for any other. */
function toTypeormResult(raw: QueryResult | QueryResult[] | undefined): unknown {
  if (!raw || Array.isArray(raw)) return undefined;
  return raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
}

/**
 * Runs one statement on a checked-out connection. `commits` says whether the statement's success
 * means something was committed (autocommit, or COMMIT): if the connection breaks while such a
 * statement is in flight its outcome is unknown. Inside BEGIN … COMMIT a broken connection means
 * the server rolls the transaction back, so nothing was written.
 */
async function run(target: PoolClient, sql: Sql, parameters: unknown[] | undefined, commits: boolean): Promise<unknown> {
  try {
    const result = typeof sql === 'string' ? target.query(sql, parameters) : target.query({ name: sql.name, text: sql.text, values: parameters });
    return toTypeormResult((await result) as QueryResult | undefined);
  } catch (err) {
    if (commits && isConnectionError(err)) throw new OutcomeUnknownError(sqlText(sql), parameters, err);
    throw new QueryFailedError(sqlText(sql), parameters, err);
  }
}

/**
 * pool.query, with the connect step apart: a failure to get a connection (refused, pool timeout,
 * server not accepting) is raised as is — nothing was sent — while a connection lost during the
 * statement is an OutcomeUnknownError. Like pool.query, a connection whose statement failed is
 * closed rather than pooled.
 */
async function runOnPool(pool: Pool, sql: Sql, parameters: unknown[] | undefined): Promise<unknown> {
  const client = await pool.connect();
  // A socket error while the statement is in flight also rejects the statement; this listener only
  // keeps the event from crashing the process and marks the connection as not reusable.
  let broken: Error | undefined;
  const onError = (err: Error): void => void (broken = err);
  client.on('error', onError);
  try {
    return await run(client, sql, parameters, true);
  } catch (err) {
    broken ??= err as Error;
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

function isolationLevel(level: string): IsolationLevel {
  const found = ISOLATION_LEVELS.find((l) => l === level.toUpperCase());
  if (!found) throw new Error(`unknown transaction isolation level: ${level}`);
  return found;
}

export class DataSource implements EntityManager {
  private pool: Pool | undefined;
  /** Statements on any pooled connection, outside a transaction (TypeORM's `ds.manager`). */
  readonly manager: EntityManager = { query: (sql, parameters) => this.query(sql, parameters) };

  constructor(
    readonly settings: PoolSettings,
    /** The app's migration classes: run by the migrate path, compared by the readiness check. */
    readonly migrations: Function[] = [],
    private readonly onPoolError: (err: Error) => void = () => undefined,
  ) {}

  get isInitialized(): boolean {
    return this.pool !== undefined;
  }

  /** Creates the pool and checks out one connection, so a wrong URL or missing database fails here. */
  async initialize(): Promise<this> {
    const s = this.settings;
    const pool = new Pool({
      connectionString: s.url,
      max: s.max,
      connectionTimeoutMillis: s.connectionTimeoutMillis,
      idleTimeoutMillis: s.idleTimeoutMillis,
      statement_timeout: s.statementTimeoutMillis,
      application_name: s.applicationName,
    });
    // Without a listener, an idle connection dropped by the server would crash the process.
    pool.on('error', this.onPoolError);
    try {
      const client = await pool.connect();
      client.release();
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    this.pool = pool;
    return this;
  }

  async destroy(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see EntityManager
  async query<T = any>(sql: Sql, parameters?: unknown[]): Promise<T> {
    return (await runOnPool(this.connected(), sql, parameters)) as T;
  }

  /** Runs `fn` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T>;
  transaction<T>(level: IsolationLevel, fn: (m: EntityManager) => Promise<T>): Promise<T>;
  async transaction<T>(a: IsolationLevel | ((m: EntityManager) => Promise<T>), b?: (m: EntityManager) => Promise<T>): Promise<T> {
    const fn = typeof a === 'function' ? a : b!;
    const begin = typeof a === 'function' ? 'BEGIN' : `BEGIN ISOLATION LEVEL ${isolationLevel(a)}`;
    return this.inTransaction(begin, (_, m) => fn(m));
  }

  /**
   * A transaction whose BEGIN travels with its first statement, in one round trip instead of two
   * (the simple query protocol, so that statement takes no parameters: build it from constants
   * only). For a loop that runs one short transaction many times a second: the outbox relay.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see EntityManager
  async transactionFrom<R = any, T = unknown>(first: string, fn: (rows: R[], m: EntityManager) => Promise<T>): Promise<T> {
    return this.inTransaction(`BEGIN; ${first}`, (raw, m) => fn(((Array.isArray(raw) ? raw[1]?.rows : undefined) ?? []) as R[], m));
  }

  private async inTransaction<T>(begin: string, fn: (raw: unknown, m: EntityManager) => Promise<T>): Promise<T> {
    const client = await this.connected().connect();
    // A connection that fails mid-transaction must not go back to the pool.
    let broken: Error | undefined;
    const onError = (err: Error): void => void (broken = err);
    client.on('error', onError);
    const manager: EntityManager = { query: (sql, parameters) => run(client, sql, parameters, false) as Promise<never> };
    try {
      let raw: unknown;
      try {
        raw = await client.query(begin);
      } catch (err) {
        throw new QueryFailedError(begin, undefined, err);
      }
      const result = await fn(raw, manager);
      await run(client, 'COMMIT', undefined, true);
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => void (broken ??= rollbackErr));
      throw err;
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** Runs `fn` on one connection outside a transaction: for session state such as advisory locks. */
  async withConnection<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    const client = await this.connected().connect();
    try {
      // Each statement here is its own transaction (no BEGIN), so each one's outcome is unknown if the connection breaks.
      return await fn({ query: (sql, parameters) => run(client, sql, parameters, true) as Promise<never> });
    } finally {
      // Closed rather than pooled: whatever session state is left (a lock an unlock failed to free) ends with it.
      client.release(true);
    }
  }

  private connected(): Pool {
    if (!this.pool) throw new Error('the database connection is not open (DataSource not initialized or already destroyed)');
    return this.pool;
  }
}
