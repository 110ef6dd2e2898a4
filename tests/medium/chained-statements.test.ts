import { Pool } from 'pg';
import {
  DataSource,
  isDeadlineExceeded,
  isOutcomeUnknown,
  queryChained,
  type PreparedStatement,
} from '@payments/database';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/**
 * A statement and one built from its rows, in one implicit transaction (queryChained): both commit at the Sync after
 * the second, and any failure before it leaves nothing written, on the pool and inside a transaction alike.
 */
describe('chained statements', () => {
  let database: MigratedDatabase;
  let observer: Pool;

  const INSERT_ORDER: PreparedStatement = {
    name: 'chain_test_order',
    text: 'INSERT INTO chain_orders (reference) SELECT unnest($1::text[]) RETURNING id, reference, created_at',
  };
  const INSERT_NOTE: PreparedStatement = {
    name: 'chain_test_note',
    text: 'INSERT INTO chain_notes (order_id, body) SELECT * FROM unnest($1::bigint[], $2::text[])',
  };
  /** INSERT_ORDER taking `seconds` longer (pg_sleep). */
  const sleepingOrder = (seconds: number): PreparedStatement => ({
    name: `chain_test_order_sleeping_${seconds}`,
    text: `INSERT INTO chain_orders (reference) SELECT r FROM unnest($1::text[]) AS r, pg_sleep(${seconds})
           RETURNING id, reference, created_at`,
  });
  interface Order {
    id: string;
    reference: string;
    created_at: Date;
  }
  const notesOf = (orders: Order[]) => ({
    statement: INSERT_NOTE,
    params: [orders.map((o) => o.id), orders.map((o) => `note of ${o.reference} at ${o.created_at.toISOString()}`)],
  });
  const count = async (table: string, reference: string) =>
    Number(
      (
        await observer.query(
          table === 'chain_orders'
            ? 'SELECT count(*) FROM chain_orders WHERE reference LIKE $1'
            : 'SELECT count(*) FROM chain_notes n JOIN chain_orders o ON o.id = n.order_id WHERE o.reference LIKE $1',
          [reference],
        )
      ).rows[0].count,
    );

  /** Polls until some backend does (true) or none does (false) run a statement containing `text`, not idle. */
  const untilRunning = async (text: string, running: boolean) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await observer.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND state <> 'idle' AND strpos(query, $1) > 0`,
        [text],
      );
      if (rows.length > 0 === running) return;
      if (Date.now() > deadline) throw new Error(`still ${running ? 'no' : 'a'} backend running ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const untilBackendRuns = (text: string) => untilRunning(text, true);
  /** Until the statement's transaction ended, committed or not. */
  const untilNoBackendRuns = (text: string) => untilRunning(text, false);

  beforeAll(async () => {
    database = await migratedDatabase('gateway', 'chained_statements');
    observer = new Pool({ connectionString: database.url, max: 2 });
    await observer.query(`CREATE TABLE chain_orders (id bigserial PRIMARY KEY, reference text UNIQUE NOT NULL,
                                                     created_at timestamptz NOT NULL DEFAULT now())`);
    await observer.query(`CREATE TABLE chain_notes (order_id bigint NOT NULL REFERENCES chain_orders (id),
                                                    body text NOT NULL CHECK (body NOT LIKE 'note of refused%'))`);
  }, 120_000);

  afterAll(async () => {
    await observer?.end();
    await database?.drop();
  }, 120_000);

  it('commits both, the second built from the rows the first returned (types parsed as by pg)', async () => {
    const orders = await queryChained<Order>(database.ds, INSERT_ORDER, [['ok-1', 'ok-2']], notesOf);
    expect(orders.map((o) => o.reference)).toEqual(['ok-1', 'ok-2']);
    expect(typeof orders[0].id).toBe('string');
    expect(orders[0].created_at).toBeInstanceOf(Date);
    const { rows } = await observer.query<{ body: string }>(
      'SELECT body FROM chain_notes WHERE order_id = ANY($1::bigint[]) ORDER BY order_id',
      [orders.map((o) => o.id)],
    );
    expect(rows.map((r) => r.body)).toEqual(
      orders.map((o) => `note of ${o.reference} at ${o.created_at.toISOString()}`),
    );
  });

  it('a second statement the server refuses takes the first with it, and the connection serves the next', async () => {
    await expect(queryChained<Order>(database.ds, INSERT_ORDER, [['refused-1']], notesOf)).rejects.toMatchObject({
      code: '23514',
    });
    expect(await count('chain_orders', 'refused-%')).toBe(0);
    await queryChained<Order>(database.ds, INSERT_ORDER, [['after-refused']], notesOf);
    expect(await count('chain_notes', 'after-refused')).toBe(1);
  });

  it('a follow-up that throws while being built writes nothing, and is a known failure', async () => {
    const error = await queryChained<Order>(database.ds, INSERT_ORDER, [['thrown-1']], () => {
      throw new Error('cannot build the follow-up');
    }).catch((err: unknown) => err);
    expect(String(error)).toMatch(/cannot build the follow-up/);
    expect(isOutcomeUnknown(error)).toBe(false);
    expect(await count('chain_orders', 'thrown-%')).toBe(0);
    await queryChained<Order>(database.ds, INSERT_ORDER, [['after-thrown']], notesOf);
    expect(await count('chain_notes', 'after-thrown')).toBe(1);
  });

  it('no follow-up commits the first alone; a first statement that fails writes nothing', async () => {
    await queryChained<Order>(database.ds, INSERT_ORDER, [['alone-1']], () => null);
    expect(await count('chain_orders', 'alone-1')).toBe(1);
    expect(await count('chain_notes', 'alone-1')).toBe(0);
    await expect(
      queryChained<Order>(database.ds, INSERT_ORDER, [['alone-2', 'alone-1']], notesOf),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await count('chain_orders', 'alone-2')).toBe(0);
  });

  it('inside a transaction it commits or rolls back with that transaction', async () => {
    await database.ds.transaction(async (m) => {
      await queryChained<Order>(m, INSERT_ORDER, [['tx-kept']], notesOf);
    });
    await expect(
      database.ds.transaction(async (m) => {
        await queryChained<Order>(m, INSERT_ORDER, [['tx-undone']], notesOf);
        throw new Error('caller failed after the chain');
      }),
    ).rejects.toThrow(/caller failed/);
    await expect(
      database.ds.transaction((m) => queryChained<Order>(m, INSERT_ORDER, [['refused-in-tx']], notesOf)),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await count('chain_notes', 'tx-kept')).toBe(1);
    expect(await count('chain_orders', 'tx-undone')).toBe(0);
    expect(await count('chain_orders', 'refused-in-tx')).toBe(0);
  });

  it('a read timeout in the client during the first statement closes the connection: nothing commits', async () => {
    const SLOW_ORDER = sleepingOrder(0.3);
    const impatient = await new DataSource({
      url: `${database.url}?query_timeout=100`,
      max: 1,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 10_000,
      statementTimeoutMillis: 10_000,
    }).initialize();
    try {
      const error = await queryChained<Order>(impatient, SLOW_ORDER, [['timed-out']], notesOf).catch((e: unknown) => e);
      expect(String(error)).toMatch(/read timeout/i);
      expect(isOutcomeUnknown(error)).toBe(false);
    } finally {
      await impatient.destroy();
    }
    await untilNoBackendRuns('pg_sleep(0.3)');
    expect(await count('chain_orders', 'timed-out')).toBe(0);
  });

  it('a deadline passing between the two statements closes the connection: neither is committed', async () => {
    const SLOW_ORDER = sleepingOrder(0.2);
    const deadline = Date.now() + 600;
    const work = queryChained<Order>(database.ds.until(deadline), SLOW_ORDER, [['between']], notesOf);
    const failed = work.catch((e: unknown) => e);
    await untilBackendRuns('pg_sleep(0.2)');
    // Busy past the first statement's end and the deadline: the deadline's timer runs before the first statement's
    // answer is read, while the server waits between the two statements (where it would ignore a cancel request).
    while (Date.now() < deadline + 300);
    const error = await failed;
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(isOutcomeUnknown(error)).toBe(false);
    await untilNoBackendRuns('pg_sleep(0.2)');
    expect(await count('chain_orders', 'between')).toBe(0);
  });

  it('many at once on a small pool: each order has its note, none is lost or doubled', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        queryChained<Order>(database.ds, INSERT_ORDER, [[i % 10 === 0 ? `refused-many-${i}` : `many-${i}`]], notesOf),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(20);
    expect(await count('chain_orders', 'many-%')).toBe(180);
    expect(await count('chain_notes', 'many-%')).toBe(180);
    expect(await count('chain_orders', 'refused-many-%')).toBe(0);
  }, 60_000);
});
