import { DataSource, QueryFailedError } from './pg-data-source';

/** The pool is faked: what is checked is the TypeORM-compatible surface the stores rely on. */
function withFakePool(results: (sql: string) => unknown) {
  const ds = new DataSource({ url: 'postgres://localhost/x', max: 1, connectionTimeoutMillis: 1, idleTimeoutMillis: 1, statementTimeoutMillis: 1 });
  const sent: string[] = [];
  const prepared: unknown[] = [];
  const released: unknown[] = [];
  const client = {
    query: async (sql: string | { name: string; text: string; values?: unknown[] }, values?: unknown[]) => {
      const text = typeof sql === 'string' ? sql : sql.text;
      sent.push(text);
      if (typeof sql !== 'string') prepared.push(sql);
      else if (values !== undefined) prepared.push({ text, values });
      return results(text);
    },
    on: () => undefined,
    removeListener: () => undefined,
    release: (err?: unknown) => released.push(err),
  };
  (ds as unknown as { pool: unknown }).pool = { query: client.query, connect: async () => client };
  return { ds, sent, prepared, released };
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
    const pgError = Object.assign(new Error('new row violates check constraint "c"'), { code: '23514', detail: 'Failing row contains (x).' });
    const { ds } = withFakePool(() => {
      throw pgError;
    });
    const err = (await ds.query('INSERT INTO t VALUES ($1)', ['secret']).catch((e: unknown) => e)) as QueryFailedError;
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(err.name).toBe('QueryFailedError');
    expect(err.message).toBe('new row violates check constraint "c"');
    expect(err).toMatchObject({ query: 'INSERT INTO t VALUES ($1)', parameters: ['secret'], driverError: pgError, code: '23514', detail: 'Failing row contains (x).' });
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
    await expect(ds.query(failing, ['y'])).rejects.toMatchObject({ name: 'QueryFailedError', query: 'INSERT fail', parameters: ['y'], code: '23505' });
  });

  it('commits a transaction on one connection, with the isolation level asked for', async () => {
    const { ds, sent, released } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await expect(ds.transaction('REPEATABLE READ', async (m) => (await m.query('SELECT 1'), 'done'))).resolves.toBe('done');
    expect(sent).toEqual(['BEGIN ISOLATION LEVEL REPEATABLE READ', 'SELECT 1', 'COMMIT']);
    expect(released).toEqual([undefined]);
  });

  it('rolls back and releases the connection when the work throws', async () => {
    const { ds, sent, released } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await expect(ds.transaction(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(sent).toEqual(['BEGIN', 'ROLLBACK']);
    expect(released).toEqual([undefined]);
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
    await expect(ds.transaction('SERIALIZABLE; DROP TABLE x' as never, async () => 1)).rejects.toThrow('unknown transaction isolation level');
    expect(sent).toEqual([]);
  });

  it('says so when used before initialize', async () => {
    const ds = new DataSource({ url: 'postgres://localhost/x', max: 1, connectionTimeoutMillis: 1, idleTimeoutMillis: 1, statementTimeoutMillis: 1 });
    expect(ds.isInitialized).toBe(false);
    await expect(ds.query('SELECT 1')).rejects.toThrow('not initialized');
  });
});
