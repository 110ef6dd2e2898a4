import { isConnectionError } from './dependency-error';
import { DataSource } from './pg-data-source';
import { OutcomeUnknownError, QueryFailedError, isOutcomeUnknown } from './query-failed';

/** The pool is faked: what is checked is the TypeORM-compatible surface the stores rely on. */
function withFakePool(results: (sql: string) => unknown, connect?: () => Promise<never>) {
  const ds = new DataSource({
    url: 'postgres://localhost/x',
    max: 1,
    connectionTimeoutMillis: 1,
    idleTimeoutMillis: 1,
    statementTimeoutMillis: 1,
  });
  const sent: string[] = [];
  const prepared: unknown[] = [];
  const released: unknown[] = [];
  const listeners: ((err: Error) => void)[] = [];
  const client = {
    query: async (sql: string | { name: string; text: string; values?: unknown[] }, values?: unknown[]) => {
      const text = typeof sql === 'string' ? sql : sql.text;
      sent.push(text);
      if (typeof sql !== 'string') prepared.push(sql);
      else if (values !== undefined) prepared.push({ text, values });
      return results(text);
    },
    on: (_event: string, listener: (err: Error) => void) => void listeners.push(listener),
    removeListener: () => undefined,
    release: (err?: unknown) => released.push(err),
  };
  (ds as unknown as { pool: unknown }).pool = { query: client.query, connect: connect ?? (async () => client) };
  /** The connection fails while idle (pg's 'error' event). */
  const fail = (err: Error) => listeners.forEach((listener) => listener(err));
  return { ds, sent, prepared, released, fail };
}

describe('DataSource (pg pool)', () => {
  it('answers UPDATE and DELETE with [rows, rowCount] and anything else with rows, as TypeORM did', async () => {
    const { ds } = withFakePool((sql) => ({ command: sql.split(' ')[0], rows: [{ id: 1 }], rowCount: 1 }));
    await expect(ds.query('SELECT 1')).resolves.toEqual([{ id: 1 }]);
    await expect(ds.query('INSERT x')).resolves.toEqual([{ id: 1 }]);
    await expect(ds.query('UPDATE x')).resolves.toEqual([[{ id: 1 }], 1]);
    await expect(ds.manager.query('DELETE x')).resolves.toEqual([[{ id: 1 }], 1]);
  });

  it('wraps a failure in QueryFailedError with the statement, parameters and the driver fields', async () => {
    const pgError = Object.assign(new Error('new row violates check constraint "c"'), {
      code: '23514',
      detail: 'Failing row contains (x).',
    });
    const { ds } = withFakePool(() => {
      throw pgError;
    });
    const err = (await ds.query('INSERT INTO t VALUES ($1)', ['secret']).catch((e: unknown) => e)) as QueryFailedError;
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(err.name).toBe('QueryFailedError');
    expect(err.message).toBe('new row violates check constraint "c"');
    expect(err).toMatchObject({
      query: 'INSERT INTO t VALUES ($1)',
      parameters: ['secret'],
      driverError: pgError,
      code: '23514',
      detail: 'Failing row contains (x).',
    });
  });

  it('runs a PreparedStatement by its name with its parameters, and names its text when it fails', async () => {
    const statement = { name: 'things_create', text: 'INSERT INTO things (a) VALUES ($1) RETURNING id, a' };
    const { ds, prepared } = withFakePool((sql) => {
      if (sql.includes('fail')) throw Object.assign(new Error('boom'), { code: '23505' });
      return { command: 'INSERT', rows: [{ id: 1, a: 'x' }], rowCount: 1 };
    });
    await expect(ds.query(statement, ['x'])).resolves.toEqual([{ id: 1, a: 'x' }]);
    expect(prepared).toEqual([{ name: 'things_create', text: statement.text, values: ['x'] }]);
    const failing = { name: 'things_fail', text: 'INSERT fail' };
    await expect(ds.query(failing, ['y'])).rejects.toMatchObject({
      name: 'QueryFailedError',
      query: 'INSERT fail',
      parameters: ['y'],
      code: '23505',
    });
  });

  it('commits a transaction on one connection, with the isolation level asked for', async () => {
    const { ds, sent, released } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await expect(ds.transaction('REPEATABLE READ', async (m) => (await m.query('SELECT 1'), 'done'))).resolves.toBe(
      'done',
    );
    expect(sent).toEqual(['BEGIN ISOLATION LEVEL REPEATABLE READ', 'SELECT 1', 'COMMIT']);
    expect(released).toEqual([undefined]);
  });

  it('rolls back and releases the connection when the work throws', async () => {
    const { ds, sent, released } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await expect(ds.transaction(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(sent).toEqual(['BEGIN', 'ROLLBACK']);
    expect(released).toEqual([undefined]);
  });

  it('transactionFrom sends BEGIN and the first statement in one message and hands over its rows', async () => {
    const { ds, sent, released } = withFakePool((sql) =>
      sql.startsWith('BEGIN;')
        ? [
            { command: 'BEGIN', rows: [], rowCount: null },
            { command: 'UPDATE', rows: [{ id: '7' }], rowCount: 1 },
          ]
        : { command: sql, rows: [], rowCount: 0 },
    );
    const seen = await ds.transactionFrom<{ id: string }, string[]>(
      'UPDATE t SET x = 1 RETURNING id',
      async (rows, m) => {
        await m.query('SELECT 2');
        return rows.map((r) => r.id);
      },
    );
    expect(seen).toEqual(['7']);
    expect(sent).toEqual(['BEGIN; UPDATE t SET x = 1 RETURNING id', 'SELECT 2', 'COMMIT']);
    expect(released).toEqual([undefined]);
  });

  it('transactionFrom hands over the rows of the last of several first statements', async () => {
    const { ds, sent } = withFakePool((sql) =>
      sql.startsWith('BEGIN;')
        ? [
            { command: 'BEGIN', rows: [] },
            { command: 'SET', rows: [] },
            { command: 'SELECT', rows: [{ id: '9' }] },
          ]
        : { command: sql, rows: [] },
    );
    const seen = await ds.transactionFrom<{ id: string }, string[]>(
      'SET LOCAL enable_bitmapscan = off; SELECT 9 AS id',
      async (rows) => rows.map((r) => r.id),
    );
    expect(seen).toEqual(['9']);
    expect(sent).toEqual(['BEGIN; SET LOCAL enable_bitmapscan = off; SELECT 9 AS id', 'COMMIT']);
  });

  it('transactionFrom rolls back when the work after the first statement throws', async () => {
    const { ds, sent } = withFakePool((sql) =>
      sql.startsWith('BEGIN;')
        ? [
            { command: 'BEGIN', rows: [] },
            { command: 'UPDATE', rows: [{ id: '7' }] },
          ]
        : { command: sql, rows: [] },
    );
    await expect(
      ds.transactionFrom('UPDATE t SET x = 1 RETURNING id', async () => Promise.reject(new Error('send failed'))),
    ).rejects.toThrow('send failed');
    expect(sent).toEqual(['BEGIN; UPDATE t SET x = 1 RETURNING id', 'ROLLBACK']);
  });

  it('transactionFrom reports a failing first statement as QueryFailedError and rolls back', async () => {
    const { ds, sent } = withFakePool((sql) => {
      if (sql.startsWith('BEGIN;')) throw Object.assign(new Error('relation "t" does not exist'), { code: '42P01' });
      return { command: sql, rows: [] };
    });
    const err = (await ds
      .transactionFrom('UPDATE t SET x = 1', async () => 'never')
      .catch((e: unknown) => e)) as QueryFailedError;
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(err).toMatchObject({ code: '42P01', query: 'BEGIN; UPDATE t SET x = 1' });
    expect(sent).toEqual(['BEGIN; UPDATE t SET x = 1', 'ROLLBACK']);
  });

  it('does not return a connection whose rollback failed to the pool', async () => {
    const { ds, released } = withFakePool((sql) => {
      if (sql === 'ROLLBACK') throw new Error('connection terminated');
      return { command: 'SELECT', rows: [], rowCount: 0 };
    });
    await expect(ds.transaction(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(released).toEqual([expect.objectContaining({ message: 'connection terminated' })]);
  });

  it('refuses an unknown isolation level rather than splicing it into SQL', async () => {
    const { ds, sent } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await expect(ds.transaction('SERIALIZABLE; DROP TABLE x' as never, async () => 1)).rejects.toThrow(
      'unknown transaction isolation level',
    );
    expect(sent).toEqual([]);
  });

  it('says so when used before initialize', async () => {
    const ds = new DataSource({
      url: 'postgres://localhost/x',
      max: 1,
      connectionTimeoutMillis: 1,
      idleTimeoutMillis: 1,
      statementTimeoutMillis: 1,
    });
    expect(ds.isInitialized).toBe(false);
    await expect(ds.query('SELECT 1')).rejects.toThrow('not initialized');
  });

  describe('a connection lost while a write may have committed', () => {
    const terminated = () => {
      throw new Error('Connection terminated unexpectedly');
    };

    it('is outcome unknown for a statement on the pool (autocommit); the connection is not pooled again', async () => {
      const { ds, released } = withFakePool(terminated);
      const err = await ds.query('WITH t AS (INSERT …) INSERT INTO outbox …', ['x']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(isOutcomeUnknown(err)).toBe(true);
      expect(isConnectionError(err)).toBe(true);
      expect(released).toEqual([expect.objectContaining({ message: 'Connection terminated unexpectedly' })]);
    });

    it('is only "unreachable" when no connection could be had: nothing was sent', async () => {
      for (const connectError of [
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' }),
        new Error('timeout exceeded when trying to connect'),
      ]) {
        const { ds, sent } = withFakePool(terminated, () => Promise.reject(connectError));
        const err = await ds.query('INSERT …').catch((e: unknown) => e);
        expect(isConnectionError(err)).toBe(true);
        expect(isOutcomeUnknown(err)).toBe(false);
        expect(sent).toEqual([]);
        const inTransaction = await ds.transaction(async (m) => m.query('INSERT …')).catch((e: unknown) => e);
        expect([isConnectionError(inTransaction), isOutcomeUnknown(inTransaction)]).toEqual([true, false]);
      }
    });

    it('is outcome unknown if COMMIT loses its reply, not if a statement before it does (rolled back)', async () => {
      const commitLost = withFakePool((sql) =>
        sql === 'COMMIT' ? terminated() : { command: 'INSERT', rows: [], rowCount: 1 },
      );
      const lostAtCommit = await commitLost.ds.transaction(async (m) => m.query('INSERT …')).catch((e: unknown) => e);
      expect(isOutcomeUnknown(lostAtCommit)).toBe(true);

      const insertLost = withFakePool((sql) =>
        sql.startsWith('INSERT') ? terminated() : { command: 'SELECT', rows: [], rowCount: 0 },
      );
      const lostBefore = await insertLost.ds.transaction(async (m) => m.query('INSERT …')).catch((e: unknown) => e);
      expect(isConnectionError(lostBefore)).toBe(true);
      expect(isOutcomeUnknown(lostBefore)).toBe(false);
      expect(insertLost.sent).not.toContain('COMMIT');
    });

    it('sends no COMMIT on a connection that broke after the last statement: rolled back, not unknown', async () => {
      const fake = withFakePool(() => ({ command: 'INSERT', rows: [], rowCount: 1 }));
      const err = await fake.ds
        .transaction(async (m) => {
          await m.query('INSERT …');
          fake.fail(Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' }));
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QueryFailedError);
      expect([isConnectionError(err), isOutcomeUnknown(err)]).toEqual([true, false]);
      expect(fake.sent).not.toContain('COMMIT');
    });

    it('is a connection error when pg refuses a statement on a connection that already failed or closed', async () => {
      for (const message of [
        'Client has encountered a connection error and is not queryable',
        'Client was closed and is not queryable',
      ]) {
        const refused = withFakePool((sql) => {
          if (sql.startsWith('UPDATE')) throw new Error(message);
          return { command: 'SELECT', rows: [], rowCount: 0 };
        });
        const err = await refused.ds.transaction(async (m) => m.query('UPDATE …')).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(QueryFailedError);
        expect([message, isConnectionError(err), isOutcomeUnknown(err)]).toEqual([message, true, false]);
      }
    });

    it('is outcome unknown for a statement on a dedicated connection (no transaction block)', async () => {
      const { ds } = withFakePool(terminated);
      await expect(ds.withConnection(async (m) => m.query('UPDATE …'))).rejects.toBeInstanceOf(OutcomeUnknownError);
    });
  });
});
