import { DataSource, isOutcomeUnknown } from '@payments/database';
import type { EventEnvelope, TransactionStatusChangedData } from '@payments/contracts';
import { loadConfig } from '@payments/config';
import { TransactionServiceConfig } from '../../apps/transaction-service/src/config/transaction.config';
import { TransactionInsertBatch } from '../../apps/transaction-service/src/transactions/transaction-insert-batch';
import {
  TransactionStore,
  toSnapshot,
  type NewTransaction,
  type TransactionRow,
} from '../../apps/transaction-service/src/transactions/transaction-store';
import { Pool } from 'pg';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { newTransaction } from '../support/new-transaction';
import { waitFor } from '../support/wait';

/**
 * Initialize inserts that queue while one runs go out as one statement (group commit). Each caller
 * gets the answer it would have had alone, and each committed row its events exactly once, in
 * order, carrying the stored row.
 */
describe('group commit of initialize inserts', () => {
  let database: MigratedDatabase;
  let pool: Pool;
  let ds: DataSource;
  let batch: TransactionInsertBatch;

  const tx = (reference: string, extra: Partial<NewTransaction> = {}): NewTransaction =>
    newTransaction({
      business_id: 7,
      reference,
      charges: 25,
      expires_in: 1800,
      metadata: { order: reference },
      description: `order ${reference}`,
      ...extra,
    });

  /** The first insert goes out alone; the rest queue behind it and go together (one in flight). */
  const fire = (items: NewTransaction[]) =>
    items.map((t, i) =>
      batch.create(t, `req_${t.reference}_${i}`).then(
        (row) => ({ row }),
        (error: unknown) => ({ error }),
      ),
    );

  async function eventsOf(publicIds: string[]) {
    const { rows } = await pool.query<{
      message_key: string;
      payload: EventEnvelope<string, TransactionStatusChangedData>;
    }>('SELECT message_key, payload FROM outbox_events WHERE message_key = ANY($1) ORDER BY id', [publicIds]);
    return rows;
  }

  beforeAll(async () => {
    database = await migratedDatabase('transaction-service', 'group_commit');
    pool = new Pool({ connectionString: database.url, max: 2 });
    ds = await new DataSource({
      url: database.url,
      max: 4,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 10_000,
      statementTimeoutMillis: 30_000,
    }).initialize();
    const config = loadConfig(TransactionServiceConfig, {
      INITIALIZE_INSERTS_IN_FLIGHT: '1',
      INITIALIZE_BATCH_MAX: '100',
    });
    batch = new TransactionInsertBatch(ds, new TransactionStore(), config);
  }, 120_000);

  afterAll(async () => {
    await ds?.destroy();
    await pool?.end();
    await database?.drop();
  }, 120_000);

  it('answers grouped callers as if alone: in-group/stored duplicates lose; the rest stored with events', async () => {
    const db = pool;
    const [stored] = await Promise.all(fire([tx('gc-existing')]));
    expect(stored).toHaveProperty('row');

    const items = [
      tx('gc-lead'),
      ...Array.from({ length: 20 }, (_, i) => tx(`gc-${i}`)),
      tx('gc-twin'),
      tx('gc-twin', { amount: 5 }),
      tx('gc-existing'),
      tx('gc-sandbox', {
        then: { status: 'processing', message: 'Payment request sent', settle_at: new Date(Date.now() + 60_000) },
      }),
    ];
    const answers = await Promise.all(fire(items));

    const byRef = new Map<string, TransactionRow>();
    answers.forEach((a, i) => {
      const ref = items[i].reference;
      if (i === 22 || i === 23) {
        expect((a as { error: { code?: string; constraint?: string } }).error).toMatchObject({
          code: '23505',
          constraint: 'transactions_reference_unique',
        });
      } else {
        const { row } = a as { row: TransactionRow };
        expect(row.reference).toBe(ref);
        expect(Number(row.amount)).toBe(items[i].amount);
        byRef.set(ref, row);
      }
    });
    // The first of the twins, in submission order, won.
    expect(Number(byRef.get('gc-twin')!.amount)).toBe(1000);

    const { rows } = await db.query<TransactionRow>(
      "SELECT * FROM transactions WHERE reference LIKE 'gc-%' ORDER BY id",
    );
    expect(rows.map((r) => r.reference).sort()).toEqual([...byRef.keys(), 'gc-existing'].sort());
    for (const row of rows.filter((r) => r.reference !== 'gc-existing'))
      expect(toSnapshot(byRef.get(row.reference)!)).toEqual(toSnapshot(row));
    // Everything but the lead went in one statement: one transaction, one now().
    const grouped = rows.filter((r) => r.reference !== 'gc-existing' && r.reference !== 'gc-lead');
    expect(new Set(grouped.map((r) => r.created_at.toISOString())).size).toBe(1);

    const events = await eventsOf(rows.map((r) => r.public_id));
    for (const row of rows) {
      const mine = events.filter((e) => e.message_key === row.public_id);
      const sandbox = row.reference === 'gc-sandbox';
      expect(mine.map((e) => e.payload.data.status)).toEqual(sandbox ? ['pending', 'processing'] : ['pending']);
      expect(mine.at(-1)!.payload.data.transaction).toEqual(toSnapshot(row));
      expect(mine[0].payload.data.transaction.id).toBe(Number(row.id));
    }
  }, 60_000);

  it('a row that fails a CHECK constraint fails only its own caller', async () => {
    const items = [tx('ck-lead'), tx('ck-1'), tx('ck-bad', { amount: 0 }), tx('ck-2'), tx('ck-2'), tx('ck-3')];
    const answers = await Promise.all(fire(items));
    expect(answers[2]).toMatchObject({ error: { code: '23514' } });
    // The group rolled back and its rows ran alone side by side: the twins raced as two concurrent requests do.
    const twins = [answers[3], answers[4]];
    expect(twins.filter((a) => 'row' in a)).toMatchObject([{ row: { reference: 'ck-2' } }]);
    expect(twins.filter((a) => 'error' in a)).toMatchObject([
      { error: { code: '23505', constraint: 'transactions_reference_unique' } },
    ]);
    for (const i of [0, 1, 5]) expect(answers[i]).toMatchObject({ row: { reference: items[i].reference } });
    const { rows } = await pool.query<TransactionRow>("SELECT * FROM transactions WHERE reference LIKE 'ck-%'");
    expect(rows.map((r) => r.reference).sort()).toEqual(['ck-1', 'ck-2', 'ck-3', 'ck-lead']);
    const events = await eventsOf(rows.map((r) => r.public_id));
    expect(events.map((e) => e.message_key).sort()).toEqual(rows.map((r) => r.public_id).sort());
  }, 60_000);

  it('a grouped statement cancelled by statement_timeout gives each caller that error, runs none alone', async () => {
    const db = pool;
    const quick = await new DataSource({
      url: database.url,
      max: 4,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 10_000,
      statementTimeoutMillis: 1_000,
    }).initialize();
    const holder = await db.connect();
    try {
      const config = loadConfig(TransactionServiceConfig, {
        INITIALIZE_INSERTS_IN_FLIGHT: '1',
        INITIALIZE_BATCH_MAX: '100',
      });
      const quickBatch = new TransactionInsertBatch(quick, new TransactionStore(), config);
      // An uncommitted row with a reference the group also inserts: the group waits on it until cancelled.
      await holder.query('BEGIN');
      await holder.query(
        `INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
                                    status, message, checkout_id, expires_at)
         VALUES ('txn_timeout_holder', 7, 'test', 'slow-held', 1, 0, 1, 'USD', 'h@example.com', 'pending', 'held',
                 'chk_timeout_holder', now())`,
      );
      const items = [tx('slow-lead'), tx('slow-1'), tx('slow-held'), tx('slow-2')];
      const answers = await Promise.all(
        items.map((t, i) =>
          quickBatch.create(t, `req_${t.reference}_${i}`).then(
            (row) => ({ row }),
            (error: unknown) => ({ error }),
          ),
        ),
      );
      expect(answers[0]).toMatchObject({ row: { reference: 'slow-lead' } });
      for (const a of answers.slice(1)) expect(a).toMatchObject({ error: { code: '57014' } });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await quick.destroy();
    }
    // Rows that would have gone in alone were not retried: only the lead is stored.
    const { rows } = await db.query("SELECT reference FROM transactions WHERE reference LIKE 'slow-%'");
    expect(rows.map((r: { reference: string }) => r.reference)).toEqual(['slow-lead']);
  }, 60_000);

  it('a connection lost mid grouped statement tells each caller the outcome is unknown, retries none', async () => {
    const db = pool;
    const holder = await db.connect();
    try {
      // An uncommitted row with a reference the group also inserts: the group waits on it, in flight.
      await holder.query('BEGIN');
      await holder.query(
        `INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
                                    status, message, checkout_id, expires_at)
         VALUES ('txn_holder', 7, 'test', 'lost-held', 1, 0, 1, 'USD', 'h@example.com', 'pending', 'held', 'chk_holder',
                 now())`,
      );
      const answers = Promise.all(fire([tx('lost-lead'), tx('lost-1'), tx('lost-held'), tx('lost-2')]));
      const pid = await waitFor('the grouped statement waiting on the held row', async () => {
        const { rows } = await db.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE query LIKE '%AS r(i integer%' " + "AND wait_event_type = 'Lock'",
        );
        return rows[0]?.pid;
      });
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      const [lead, ...grouped] = await answers;
      expect(lead).toMatchObject({ row: { reference: 'lost-lead' } });
      // One autocommit statement: lost in flight, it may have committed.
      for (const a of grouped) expect(isOutcomeUnknown((a as { error: unknown }).error)).toBe(true);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    const { rows } = await db.query("SELECT reference FROM transactions WHERE reference LIKE 'lost-%'");
    expect(rows.map((r: { reference: string }) => r.reference)).toEqual(['lost-lead']);
  }, 60_000);
});
