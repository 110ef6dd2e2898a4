import { Pool, type PoolClient, type QueryResult } from 'pg';

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

/** TypeORM's postgres `query()` gives [rows, rowCount] for two commands (UPDATE, DELETE) and rows for any other. */
function toTypeormResult(raw: QueryResult | QueryResult[] | undefined): unknown {
  if (!raw || Array.isArray(raw)) return undefined;
  return raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
}

async function run(target: Pool | PoolClient, sql: Sql, parameters: unknown[] | undefined): Promise<unknown> {
  try {
    const result = typeof sql === 'string' ? target.query(sql, parameters) : target.query({ name: sql.name, text: sql.text, values: parameters });
    return toTypeormResult((await result) as QueryResult | undefined);
  } catch (err) {
    throw new QueryFailedError(sqlText(sql), parameters, err);
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
    return (await run(this.connected(), sql, parameters)) as T;
  }

  /** Runs `fn` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T>;
  transaction<T>(level: IsolationLevel, fn: (m: EntityManager) => Promise<T>): Promise<T>;
  async transaction<T>(a: IsolationLevel | ((m: EntityManager) => Promise<T>), b?: (m: EntityManager) => Promise<T>): Promise<T> {
    const fn = typeof a === 'function' ? a : b!;
    const begin = typeof a === 'function' ? 'BEGIN' : `BEGIN ISOLATION LEVEL ${isolationLevel(a)}`;
    const client = await this.connected().connect();
    // A connection that fails mid-transaction must not go back to the pool.
    let broken: Error | undefined;
    const onError = (err: Error): void => void (broken = err);
    client.on('error', onError);
    const manager: EntityManager = { query: (sql, parameters) => run(client, sql, parameters) as Promise<never> };
    try {
      await run(client, begin, undefined);
      const result = await fn(manager);
      await run(client, 'COMMIT', undefined);
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
      return await fn({ query: (sql, parameters) => run(client, sql, parameters) as Promise<never> });
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
