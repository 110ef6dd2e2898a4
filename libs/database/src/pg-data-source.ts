import { Client, Pool, type PoolClient, type QueryResult } from 'pg';
import { DeadlineExceededError, isConnectionError } from './dependency-error';
import { OutcomeUnknownError, QueryFailedError } from './query-failed';
import { ChainedQuery, ChainedStatements } from './chained-statements';
import { type Piped, runPipelined } from './pipelined-statements';
import { type IsolationLevel, type TransactionOptions, openingStatements } from './transaction-options';

/**
 * The database handle the services use: a pg Pool with just the query and transaction surface they
 * need. TypeORM costs ~11 MB per process, so it is loaded only to run migrations (data-source.ts);
 * its behaviour the stores rely on is kept: see `toTypeormResult` and `QueryFailedError`.
 */

/**
 * A hot statement prepared under a name, parsed once per connection. List its result columns, not `*`: a
 * migration changing the result type would fail it ("cached plan must not change result type"). One name per text.
 * PostgreSQL still plans every call while a custom plan, which sees the parameters, looks cheaper than the generic one
 * (an array's length, say). Read such a parameter through a sub-select, `unnest((SELECT $1::bigint[]))`, to keep one
 * generic plan; for `= ANY` cast it, `ANY ((SELECT $1::text[])::text[])`, or it is read as `ANY (subquery)` (the
 * dispatcher's delivery statements; docs/benchmarks.md, eighteenth round).
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

export type Sql = string | PreparedStatement | ChainedStatements<never>;

export const sqlText = (sql: Sql): string => (typeof sql === 'string' ? sql : sql.text);

/** The parameters a failed statement is reported with: a chain's are its first statement's. */
const paramsOf = (sql: Sql, parameters: unknown[] | undefined) =>
  sql instanceof ChainedStatements ? sql.params : parameters;

/** What runs SQL: the pool (one statement, any connection) or one transaction's connection. */
export interface EntityManager {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the caller names the row shape, as with TypeORM
  query<T = any>(sql: Sql, parameters?: unknown[]): Promise<T>;
}

/**
 * A manager inside one transaction (DataSource.transaction, transactionUntil): its
 * statements commit together or not at all. Writes that must be atomic with their events take it.
 */
export interface TransactionManager extends EntityManager {
  readonly transactional: true;
  /**
   * Runs a last statement and the COMMIT in one round trip; the transaction ends with it, so nothing may follow. If
   * the statement fails, the COMMIT is skipped and nothing commits. A connection lost meanwhile leaves the outcome
   * unknown (OutcomeUnknownError), as it does for a COMMIT sent alone.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see EntityManager
  commitWith<T = any>(sql: string | PreparedStatement, parameters?: unknown[]): Promise<T>;
}

export interface PoolSettings {
  url: string;
  max: number;
  connectionTimeoutMillis: number;
  idleTimeoutMillis: number;
  statementTimeoutMillis: number;
  applicationName?: string;
}

/** TypeORM's postgres `query()` gives [rows, rowCount] for two commands (UPDATE, DELETE) and rows for any other. */
function toTypeormResult(raw: QueryResult | QueryResult[] | undefined): unknown {
  if (!raw || Array.isArray(raw)) return undefined;
  return raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
}

/**
 * Runs one statement on a checked-out connection. `commits` says whether success means something was committed
 * (autocommit, or COMMIT): a connection breaking during such a statement leaves its outcome unknown, whereas inside
 * BEGIN … COMMIT the server rolls back and nothing was written.
 */
async function run(
  target: PoolClient,
  sql: Sql,
  parameters: unknown[] | undefined,
  commits: boolean,
): Promise<unknown> {
  let chained: ChainedQuery<never> | undefined;
  try {
    let result: Promise<unknown>;
    if (typeof sql === 'string') result = target.query(sql, parameters);
    else if (sql instanceof ChainedStatements) {
      chained = new ChainedQuery(sql);
      target.query(chained as never);
      result = chained.done;
    } else result = target.query({ name: sql.name, text: sql.text, values: parameters });
    return toTypeormResult((await result) as QueryResult | undefined);
  } catch (err) {
    const params = paramsOf(sql, parameters);
    const mayHaveCommitted = commits && !chained?.rolledBack;
    if (mayHaveCommitted && isConnectionError(err)) throw new OutcomeUnknownError(sqlText(sql), params, err);
    throw new QueryFailedError(sqlText(sql), params, err);
  }
}

/** Statements in one round trip (runPipelined): the one at `resultOf` gives its rows as `run` does. */
const runPipeline = async (target: PoolClient, statements: Piped[], resultOf: number, commits: boolean) =>
  toTypeormResult(await runPipelined(target, statements, resultOf, commits));

/**
 * pool.query with the connect step apart: failing to get a connection is raised as is (nothing was sent), while a
 * connection lost during the statement is an OutcomeUnknownError. A connection whose statement failed is not pooled.
 */
async function runOnPool(
  pool: Pool,
  sql: Sql,
  parameters: unknown[] | undefined,
  deadline?: Deadline,
): Promise<unknown> {
  const client = await pool.connect();
  // A socket error while the statement is in flight also rejects the statement; this listener only
  // keeps the event from crashing the process and marks the connection as not reusable.
  let broken: Error | undefined;
  const onError = (err: Error): void => void (broken = err);
  client.on('error', onError);
  let timer: NodeJS.Timeout | undefined;
  try {
    if (deadline) {
      const left = deadline.cancelAt - Date.now();
      // The caller gave up while this waited for a connection: not sent, nothing written.
      if (left <= 0) throw new DeadlineExceededError();
      timer = setTimeout(() => {
        // A cancel may land after the statement ended: the connection is then closed, never
        // pooled, so it cannot cancel the next statement run on it.
        broken ??= new DeadlineExceededError(CANCELLED_AT_DEADLINE);
        deadline.cancel(client);
      }, left);
    }
    return await run(client, sql, parameters, true);
  } catch (err) {
    broken ??= err as Error;
    throw err;
  } finally {
    clearTimeout(timer);
    client.removeListener('error', onError);
    client.release(broken);
  }
}

const CANCELLED_AT_DEADLINE = 'statement cancelled at its deadline';

/** When a statement on the pool is cancelled (epoch ms), and how. */
interface Deadline {
  cancelAt: number;
  cancel: (client: PoolClient) => void;
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

  /**
   * Statements on the pool bounded by a caller's deadline: not sent after `cancelAt` (epoch ms), and cancelled (rolled
   * back) if still running then, so anything that commits does so before `cancelAt` plus the cancel's travel time.
   */
  until(cancelAt: number): EntityManager {
    const deadline: Deadline = { cancelAt, cancel: (client) => this.cancel(client) };
    return {
      query: async (sql, parameters) => (await runOnPool(this.connected(), sql, parameters, deadline)) as never,
    };
  }

  /** Sends PostgreSQL's cancel request for the statement running on `client` (on a connection of its own). */
  private cancel(client: PoolClient): void {
    const canceller = new Client({ connectionString: this.settings.url });
    // pg's Client.cancel(client, query) cancels `query` if it is the one running on `client`.
    const active = (client as unknown as { activeQuery?: unknown }).activeQuery;
    if (!active) return;
    (canceller as unknown as { connection: { on(e: string, f: () => void): void } }).connection.on(
      'error',
      () => undefined,
    );
    (canceller as unknown as { cancel(c: PoolClient, q: unknown): void }).cancel(client, active);
    // The cancel stops a running statement. A chain whose Sync is not written yet is closed as well: between its two
    // statements the server ignores a cancel (it waits for the next message), and the second would then commit.
    if (active instanceof ChainedQuery) active.cancelBeforeSync(new DeadlineExceededError(CANCELLED_AT_DEADLINE));
  }

  /**
   * Runs `fn` in one transaction on one connection: committed if it resolves, rolled back if it throws. BEGIN (with the
   * options' settings) travels with the first statement (one round trip for both), and a transaction that sends no
   * statement costs none.
   */
  transaction<T>(fn: (m: TransactionManager) => Promise<T>): Promise<T>;
  transaction<T>(options: IsolationLevel | TransactionOptions, fn: (m: TransactionManager) => Promise<T>): Promise<T>;
  async transaction<T>(
    a: IsolationLevel | TransactionOptions | ((m: TransactionManager) => Promise<T>),
    b?: (m: TransactionManager) => Promise<T>,
  ): Promise<T> {
    const fn = typeof a === 'function' ? a : b!;
    const options = typeof a === 'function' ? {} : typeof a === 'string' ? { isolation: a } : a;
    return this.inTransaction({ opening: openingStatements(options), withFirstStatement: true }, fn);
  }

  /**
   * A transaction bounded by a caller's deadline: no statement (COMMIT included) is sent once
   * `cancelAt` (epoch ms) has passed, and the one running then is cancelled, which rolls the
   * whole transaction back (DeadlineExceededError / SQLSTATE 57014, see isDeadlineExceeded).
   */
  transactionUntil<T>(cancelAt: number, fn: (m: TransactionManager) => Promise<T>): Promise<T> {
    return this.inTransaction({ opening: ['BEGIN'], withFirstStatement: false }, fn, cancelAt);
  }

  /**
   * `opening` (BEGIN and what follows it) is sent first on its own, or, `withFirstStatement`, in the same round trip as
   * the first statement (and not at all if there is none).
   */
  private async inTransaction<T>(
    { opening, withFirstStatement }: { opening: string[]; withFirstStatement: boolean },
    fn: (m: TransactionManager) => Promise<T>,
    cancelAt?: number,
  ): Promise<T> {
    const opened: Piped[] = opening.map((statement) => ({ statement }));
    const client = await this.connected().connect();
    // A connection that fails mid-transaction must not go back to the pool.
    let broken: Error | undefined;
    const onError = (err: Error): void => void (broken = err);
    client.on('error', onError);
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    if (cancelAt !== undefined) {
      timer = setTimeout(
        () => {
          expired = true;
          // Closed, not pooled, afterwards: a late cancel must not reach the next user of the connection.
          broken ??= new DeadlineExceededError('transaction cancelled at its deadline');
          this.cancel(client);
        },
        Math.max(0, cancelAt - Date.now()),
      );
    }
    let begun = false;
    /** The first round trip of a transaction begun with its first statement: what any later statement waits for. */
    let firstTrip: Promise<unknown> | undefined;
    /** commitWith was called: nothing may follow, and its outcome is the transaction's. */
    let ended = false;
    let commitDone: Promise<unknown> | undefined;
    /** Why no statement may be sent now, if none may. */
    const refusal = (): Error | undefined => {
      // The clock as well as the timer: a continuation can run before an overdue timer fires.
      if (expired || (cancelAt !== undefined && Date.now() >= cancelAt)) return new DeadlineExceededError();
      if (ended) return new Error('the transaction has ended: no statement may follow commitWith');
      return undefined;
    };
    /** Runs `go` once the first round trip succeeded (not at all if it failed: nothing may run outside BEGIN). */
    const afterOpening = <R>(go: () => Promise<R>): Promise<R> => (firstTrip ? firstTrip.then(go) : go());
    const send = (sql: Sql, parameters: unknown[] | undefined, commits: boolean): Promise<unknown> => {
      const refused = refusal();
      if (refused) return Promise.reject(refused);
      if (begun) return afterOpening(() => run(client, sql, parameters, commits));
      begun = true;
      // BEGIN goes with this first statement; a chain sends its own messages, so BEGIN goes before it.
      firstTrip =
        sql instanceof ChainedStatements
          ? run(client, opening.join('; '), undefined, false).then(() => run(client, sql, parameters, commits))
          : runPipeline(client, [...opened, { statement: sql, values: parameters }], opened.length, commits);
      return firstTrip;
    };
    const manager: TransactionManager = {
      transactional: true,
      query: (sql, parameters) => send(sql, parameters, false) as Promise<never>,
      commitWith: (sql, parameters) => {
        const refused = refusal();
        if (refused) return Promise.reject(refused);
        // The connection broke between statements: nothing is sent, and the server rolled back.
        if (broken) return Promise.reject(new QueryFailedError(sqlText(sql), parameters, broken));
        const first = !begun;
        begun = ended = true;
        // Nothing sent before it: BEGIN, the statement and COMMIT together (the isolation level asked for holds).
        const last: Piped[] = [{ statement: sql, values: parameters }, { statement: 'COMMIT' }];
        if (first) last.unshift(...opened);
        const done = afterOpening(() => runPipeline(client, last, first ? opened.length : 0, true));
        // Awaited again before the transaction returns; handled now, so work that does not wait leaves no
        // unhandled rejection.
        done.catch(() => undefined);
        commitDone = done;
        return done as Promise<never>;
      },
    };
    try {
      if (cancelAt !== undefined && Date.now() >= cancelAt) throw new DeadlineExceededError();
      if (!withFirstStatement) {
        begun = true;
        // One simple-protocol message: several statements, no parameters.
        const begin = opening.join('; ');
        try {
          await client.query(begin);
        } catch (err) {
          throw new QueryFailedError(begin, undefined, err);
        }
      }
      const result = await fn(manager);
      // A commitWith that `fn` did not wait for, or whose failure it caught: the outcome is commitWith's.
      await commitDone;
      if (begun && !ended) {
        await firstTrip; // failed: the transaction fails with its error
        // The connection broke between statements: COMMIT would not be sent, and the server rolled back.
        if (broken && !expired) throw new QueryFailedError('COMMIT (not sent: connection lost)', undefined, broken);
        const refused = refusal();
        if (refused) throw refused;
        // A statement failed and `fn` went on: the server answers COMMIT with a rollback, not an error.
        const { command } = await runPipelined(client, [{ statement: 'COMMIT' }], 0, true);
        if (command !== 'COMMIT')
          throw new QueryFailedError(
            'COMMIT',
            undefined,
            new Error(`a statement failed, so the server answered ${command}`),
          );
      }
      return result;
    } catch (err) {
      if (begun) await client.query('ROLLBACK').catch((rollbackErr: Error) => void (broken ??= rollbackErr));
      throw err;
    } finally {
      clearTimeout(timer);
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  /** Runs `fn` on one connection outside a transaction: for session state such as advisory locks. */
  async withConnection<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    const client = await this.connected().connect();
    try {
      // Each statement here is its own transaction (no BEGIN): its outcome is unknown if the connection breaks.
      return await fn({ query: (sql, parameters) => run(client, sql, parameters, true) as Promise<never> });
    } finally {
      // Closed rather than pooled: whatever session state is left (a lock an unlock failed to free) ends with it.
      client.release(true);
    }
  }

  private connected(): Pool {
    if (!this.pool)
      throw new Error('the database connection is not open (DataSource not initialized or already destroyed)');
    return this.pool;
  }
}
