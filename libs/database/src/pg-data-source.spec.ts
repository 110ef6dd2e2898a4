import { DatabaseError } from 'pg';
import { isConnectionError } from './dependency-error';
import { DataSource } from './pg-data-source';
import { PipelinedQuery } from './pipelined-statements';
import { OutcomeUnknownError, QueryFailedError, isOutcomeUnknown } from './query-failed';

/** An error response from the server, as pg reports it. */
const serverError = (message: string, code: string) =>
  Object.assign(new DatabaseError(message, message.length, 'error'), { code });

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
  /** The statements of each round trip. */
  const trips: string[][] = [];
  /** The server's transaction state: after a failed statement it answers COMMIT with a rollback. */
  let failed = false;
  const answer = (text: string) => {
    if (text === 'COMMIT' && failed) return { command: 'ROLLBACK', rows: [], rowCount: null };
    try {
      const r = results(text);
      return text === 'COMMIT' ? { ...(r as object), command: 'COMMIT' } : r;
    } catch (err) {
      failed = text !== 'BEGIN' && text !== 'COMMIT' && text !== 'ROLLBACK';
      throw err;
    }
  };
  const client = {
    query: (sql: string | { name: string; text: string; values?: unknown[] } | PipelinedQuery, values?: unknown[]) => {
      if (sql instanceof PipelinedQuery) return void pipeline(sql);
      const text = typeof sql === 'string' ? sql : sql.text;
      sent.push(text);
      trips.push([text]);
      if (typeof sql !== 'string') prepared.push(sql);
      else if (values !== undefined) prepared.push({ text, values });
      return (async () => answer(text))();
    },
    on: (_event: string, listener: (err: Error) => void) => void listeners.push(listener),
    removeListener: () => undefined,
    release: (err?: unknown) => released.push(err),
  };
  /** A pipeline's statements answered in order, as the server does: after an error, none of the rest runs. */
  const pipeline = (p: PipelinedQuery): void => {
    const parsed: string[] = [];
    const trip: string[] = [];
    trips.push(trip);
    const con = {
      parsedStatements: {},
      submittedNamedStatements: {},
      stream: { destroy: () => undefined },
      sendCopyFail: () => undefined,
      flush: () => undefined,
      parse: (m: { text: string }) => parsed.push(m.text),
      bind: () => undefined,
      describe: () => undefined,
      execute: () => undefined,
      sync: () => undefined,
    };
    const err = p.submit(con);
    if (err) return p.handleError(err);
    for (const text of parsed) {
      sent.push(text);
      trip.push(text);
      let r: { command: string; rows?: unknown[]; rowCount?: number | null };
      try {
        r = answer(text) as typeof r;
      } catch (e) {
        p.handleError(e);
        return p.handleReadyForQuery();
      }
      for (const row of r.rows ?? []) p._result.addRow(row);
      p.handleCommandComplete({ text: `${r.command}${r.command === 'INSERT' ? ' 0' : ''} ${r.rowCount ?? 0}` });
    }
    p.handleReadyForQuery();
  };
  (ds as unknown as { pool: unknown }).pool = { query: client.query, connect: connect ?? (async () => client) };
  /** The connection fails while idle (pg's 'error' event). */
  const fail = (err: Error) => listeners.forEach((listener) => listener(err));
  return { ds, sent, trips, prepared, released, fail };
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

  it('sends BEGIN in the round trip of the first statement, and nothing for a transaction without one', async () => {
    const { ds, trips } = withFakePool(() => ({ command: 'SELECT', rows: [{ n: 1 }], rowCount: 1 }));
    await expect(
      ds.transaction(async (m) => [await m.query('SELECT 1 AS n'), await m.query('SELECT 2')]),
    ).resolves.toEqual([[{ n: 1 }], [{ n: 1 }]]);
    expect(trips).toEqual([['BEGIN', 'SELECT 1 AS n'], ['SELECT 2'], ['COMMIT']]);
    trips.length = 0;
    await expect(ds.transaction(async () => 'nothing to do')).resolves.toBe('nothing to do');
    expect(trips).toEqual([]);
  });

  it('sends settings with BEGIN, in the first round trip, and refuses one it cannot send as is', async () => {
    const { ds, trips } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await ds.transaction({ isolation: 'REPEATABLE READ', settings: { enable_bitmapscan: 'off' } }, (m) =>
      m.commitWith('SELECT 1'),
    );
    await ds.transaction({ settings: { work_mem: '64MB', 'auto_explain.log_analyze': 'on' } }, async (m) => {
      await m.query('SELECT 2');
      await m.query('SELECT 3');
    });
    expect(trips).toEqual([
      ['BEGIN ISOLATION LEVEL REPEATABLE READ', "SET LOCAL enable_bitmapscan = 'off'", 'SELECT 1', 'COMMIT'],
      ['BEGIN', "SET LOCAL work_mem = '64MB'", "SET LOCAL auto_explain.log_analyze = 'on'", 'SELECT 2'],
      ['SELECT 3'],
      ['COMMIT'],
    ]);
    trips.length = 0;
    const refused: Record<string, string>[] = [
      { 'work_mem; DROP TABLE x': '1' },
      { work_mem: "1'; DROP x" },
      { work_mem: '' },
    ];
    for (const settings of refused) {
      await expect(ds.transaction({ settings }, (m) => m.query('SELECT 1'))).rejects.toThrow(
        'refused transaction setting',
      );
    }
    expect(trips).toEqual([]);
  });

  it('sends no statement outside the transaction when its first round trip fails', async () => {
    const { ds, sent } = withFakePool((sql) => {
      if (sql.startsWith('INSERT')) throw serverError('duplicate key', '23505');
      return { command: 'UPDATE', rows: [], rowCount: 1 };
    });
    let settled: PromiseSettledResult<unknown>[] = [];
    const err = await ds
      .transaction(async (m) => {
        // The second is asked for while the first is in flight: it waits for it, and is not sent when it fails.
        settled = await Promise.allSettled([m.query('INSERT INTO t VALUES (1)'), m.query('UPDATE t SET x = 2')]);
      })
      .catch((e: unknown) => e);
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(err).toMatchObject({ code: '23505' });
    expect(sent).toEqual(['BEGIN', 'INSERT INTO t VALUES (1)', 'ROLLBACK']);
  });

  it('fails when the work went on after a failed statement: the server answers COMMIT with a rollback', async () => {
    const { ds, sent } = withFakePool((sql) => {
      if (sql.startsWith('INSERT')) throw serverError('duplicate key', '23505');
      return { command: 'SELECT', rows: [], rowCount: 0 };
    });
    const err = await ds
      .transaction(async (m) => {
        await m.query('SELECT 1');
        await m.query('INSERT INTO t VALUES (1)').catch(() => undefined);
        return 'looks done';
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect([String(err), isOutcomeUnknown(err)]).toEqual([
      'QueryFailedError: a statement failed, so the server answered ROLLBACK',
      false,
    ]);
    expect(sent).toEqual(['BEGIN', 'SELECT 1', 'INSERT INTO t VALUES (1)', 'COMMIT', 'ROLLBACK']);
  });

  it('rolls back and releases the connection when the work throws', async () => {
    const { ds, sent, released } = withFakePool(() => ({ command: 'SELECT', rows: [], rowCount: 0 }));
    await expect(
      ds.transaction(async (m) => {
        await m.query('SELECT 1');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(sent).toEqual(['BEGIN', 'SELECT 1', 'ROLLBACK']);
    expect(released).toEqual([undefined]);
  });

  it('rolls back when the statement sent with BEGIN fails, and reports that statement', async () => {
    const { ds, sent } = withFakePool((sql) => {
      if (sql.startsWith('INSERT')) throw serverError('duplicate key', '23505');
      return { command: 'BEGIN', rows: [], rowCount: null };
    });
    const err = await ds.transaction(async (m) => m.query('INSERT INTO t VALUES ($1)', [7])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(err).toMatchObject({ code: '23505', query: 'INSERT INTO t VALUES ($1)', parameters: [7] });
    expect(isOutcomeUnknown(err)).toBe(false);
    expect(sent).toEqual(['BEGIN', 'INSERT INTO t VALUES ($1)', 'ROLLBACK']);
  });

  describe('commitWith', () => {
    const answer = (sql: string) => ({ command: sql.split(' ')[0], rows: [{ id: 1 }], rowCount: 1 });

    it('sends the last statement and COMMIT in one round trip, and refuses any statement after them', async () => {
      const { ds, trips, released } = withFakePool(answer);
      const rows = await ds.transaction(async (m) => {
        await m.query('SELECT 1');
        const marked = await m.commitWith('UPDATE t SET x = 1 WHERE id = ANY($1)', [[1]]);
        await expect(m.query('SELECT 2')).rejects.toThrow('no statement may follow commitWith');
        return marked;
      });
      expect(rows).toEqual([[{ id: 1 }], 1]);
      expect(trips).toEqual([
        ['BEGIN', 'SELECT 1'],
        ['UPDATE t SET x = 1 WHERE id = ANY($1)', 'COMMIT'],
      ]);
      expect(released).toEqual([undefined]);
    });

    it('sends BEGIN, its statement and COMMIT in one round trip when nothing was sent before it', async () => {
      const { ds, trips } = withFakePool(answer);
      await ds.transaction('SERIALIZABLE', async (m) => m.commitWith('UPDATE t SET x = 1'));
      expect(trips).toEqual([['BEGIN ISOLATION LEVEL SERIALIZABLE', 'UPDATE t SET x = 1', 'COMMIT']]);
    });

    it('fails the transaction when its failure is caught: nothing committed is reported as committed', async () => {
      const { ds, sent } = withFakePool((sql) => {
        if (sql.startsWith('UPDATE')) throw serverError('deadlock detected', '40P01');
        return answer(sql);
      });
      const err = await ds
        .transaction(async (m) => {
          await m.query('SELECT 1');
          await m.commitWith('UPDATE t SET x = 1').catch(() => undefined);
          return 'swallowed';
        })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: '40P01' });
      expect(sent).toEqual(['BEGIN', 'SELECT 1', 'UPDATE t SET x = 1', 'ROLLBACK']);
    });

    it('commits nothing when its statement fails: COMMIT does not run, the transaction is rolled back', async () => {
      const { ds, sent } = withFakePool((sql) => {
        if (sql.startsWith('UPDATE')) throw serverError('deadlock detected', '40P01');
        return answer(sql);
      });
      const err = await ds
        .transaction(async (m) => (await m.query('SELECT 1'), m.commitWith('UPDATE t SET x = 1')))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QueryFailedError);
      expect([isOutcomeUnknown(err), (err as QueryFailedError).query]).toEqual([false, 'UPDATE t SET x = 1']);
      expect(sent).toEqual(['BEGIN', 'SELECT 1', 'UPDATE t SET x = 1', 'ROLLBACK']);
    });

    it('decides the outcome of a transaction whose work did not wait for it', async () => {
      const { ds, trips } = withFakePool(answer);
      await ds.transaction(async (m) => {
        await m.query('SELECT 1');
        void m.commitWith('UPDATE t SET x = 1');
      });
      expect(trips).toEqual([
        ['BEGIN', 'SELECT 1'],
        ['UPDATE t SET x = 1', 'COMMIT'],
      ]);
    });

    it('fails the transaction with its error when the work did not wait for it and it failed', async () => {
      const { ds, sent } = withFakePool((sql) => {
        if (sql.startsWith('UPDATE')) throw serverError('deadlock detected', '40P01');
        return answer(sql);
      });
      const err = await ds
        .transaction(async (m) => {
          await m.query('SELECT 1');
          m.commitWith('UPDATE t SET x = 1').catch(() => undefined);
        })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: '40P01' });
      expect(sent).toEqual(['BEGIN', 'SELECT 1', 'UPDATE t SET x = 1', 'ROLLBACK']);
    });

    it('is outcome unknown when the connection is lost, or the server ends it (FATAL), in its round trip', async () => {
      for (const lost of [
        new Error('Connection terminated unexpectedly'),
        serverError('terminating connection due to administrator command', '57P01'),
      ]) {
        const { ds } = withFakePool((sql) => {
          if (sql === 'COMMIT') throw lost;
          return answer(sql);
        });
        const err = await ds
          .transaction(async (m) => (await m.query('SELECT 1'), m.commitWith('UPDATE t SET x = 1')))
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OutcomeUnknownError);
      }
    });
  });

  it('does not return a connection whose rollback failed to the pool', async () => {
    const { ds, released } = withFakePool((sql) => {
      if (sql === 'ROLLBACK') throw new Error('connection terminated');
      return { command: 'SELECT', rows: [], rowCount: 0 };
    });
    await expect(
      ds.transaction(async (m) => {
        await m.query('SELECT 1');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
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
