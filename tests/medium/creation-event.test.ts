import type { EventEnvelope, TransactionStatusChangedData } from '@payments/contracts';
import {
  ConcurrentStatusChange,
  TransactionStore,
  toSnapshot,
  type NewTransaction,
  type TransactionRow,
} from '../../apps/transaction-service/src/transactions/transaction-store';
import { Pool } from 'pg';
import { isDeadlineExceeded } from '@payments/database';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { newTransaction } from '../support/new-transaction';

/**
 * A transaction's events are built from its row as stored and written in the same transaction
 * (queryChained): what consumers receive must be exactly the snapshot of the row, and a row is
 * never written without its events.
 */
describe('creation event of a transaction', () => {
  let database: MigratedDatabase;
  let pool: Pool;
  const store = new TransactionStore();
  // Each write in a transaction of its own, as the service's callers run them.
  const create = (t: NewTransaction, correlationId: string | null) =>
    database.ds.transaction((m) => store.create(m, t, correlationId));
  const changeStatus = (
    ...args: Parameters<TransactionStore['changeStatus']> extends [unknown, ...infer R] ? R : never
  ) => database.ds.transaction((m) => store.changeStatus(m, ...args));

  beforeAll(async () => {
    database = await migratedDatabase('transaction-service', 'creation_event');
    pool = new Pool({ connectionString: database.url, max: 2 });
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  }, 120_000);

  it('carries the snapshot of the stored row: id, timestamps to the millisecond, every field', async () => {
    const db = pool;
    const created: TransactionRow[] = [];
    for (let i = 0; i < 150; i++) {
      created.push(
        await create(
          newTransaction({
            business_id: 10 + (i % 3),
            mode: i % 2 ? 'live' : 'test',
            reference: `snap-${i}`,
            amount: 1 + i * 37,
            charges: i % 5,
            currency: i % 2 ? 'USD' : 'ZWG',
            email: `payer+${i}@example.com`,
            payment_method_type: i % 3 ? 'card' : null,
            payment_method_code: i % 4 ? null : 'visa',
            requested_response: i % 7 ? null : 'failed',
            success_url: i % 2 ? `https://shop.example/ok/${i}` : null,
            payment_link_id: i % 6 ? null : `lnk_${i}`,
            link_splits: i % 6 ? [] : [{ business_id: 99, type: 'percentage', value: 10, description: 'partner' }],
            checkout_attempt: i % 6 ? null : `att-${i}`,
          }),
          `req_${i}`,
        ),
      );
    }
    const { rows: stored } = await db.query<TransactionRow>(
      'SELECT * FROM transactions WHERE reference LIKE $1 ORDER BY id',
      ['snap-%'],
    );
    const { rows: events } = await db.query<{
      message_key: string;
      payload: EventEnvelope<string, TransactionStatusChangedData>;
      headers: Record<string, string>;
    }>('SELECT message_key, payload, headers FROM outbox_events ORDER BY id');
    expect(stored).toHaveLength(150);
    expect(events).toHaveLength(150);
    stored.forEach((row, i) => {
      const event = events[i];
      expect(event.message_key).toBe(row.public_id);
      expect(event.payload.data).toEqual({ transaction: toSnapshot(row), previous_status: null, status: 'pending' });
      expect(event.payload.business_id).toBe(row.business_id);
      expect(event.headers['correlation-id']).toBe(`req_${i}`);
      expect(toSnapshot(created[i])).toEqual(toSnapshot(row));
    });
  }, 60_000);

  it('a status change carries the snapshot of the changed row, and a stale row changes nothing', async () => {
    const db = pool;
    const { rows: before } = await db.query<TransactionRow>(
      'SELECT * FROM transactions WHERE reference LIKE $1 ORDER BY id LIMIT 20',
      ['snap-%'],
    );
    const { rows: max } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM outbox_events');
    const settleAt = new Date(Date.now() + 60_000);
    const changed: TransactionRow[] = [];
    for (const [i, row] of before.entries()) {
      const processing = await changeStatus(
        row,
        'processing',
        'Authorising the payment',
        `chg_${i}`,
        i % 2 ? { settleAt } : {},
      );
      changed.push(
        await changeStatus(processing, i % 3 ? 'success' : 'failed', 'Settled', `chg_${i}`, {
          settleAt: null,
        }),
      );
    }
    // The row as first read is two versions behind now: refused, nothing written.
    await expect(changeStatus(before[0], 'processing', 'again', null)).rejects.toBeInstanceOf(ConcurrentStatusChange);

    const { rows: stored } = await db.query<TransactionRow>(
      'SELECT * FROM transactions WHERE id = ANY($1::bigint[]) ORDER BY id',
      [before.map((r) => r.id)],
    );
    const { rows: events } = await db.query<{
      message_key: string;
      payload: EventEnvelope<string, TransactionStatusChangedData>;
      headers: Record<string, string>;
    }>('SELECT message_key, payload, headers FROM outbox_events WHERE id > $1 ORDER BY id', [max[0].id]);
    expect(events).toHaveLength(40);
    stored.forEach((row, i) => {
      expect(row.version).toBe(3);
      expect(row.settle_at).toBeNull();
      const final = events[2 * i + 1];
      expect(final.message_key).toBe(row.public_id);
      expect(final.payload.data).toEqual({
        transaction: toSnapshot(row),
        previous_status: 'processing',
        status: row.status,
      });
      expect(final.headers['correlation-id']).toBe(`chg_${i}`);
      expect(events[2 * i].payload.data.transaction.version).toBe(2);
      expect(events[2 * i].payload.data.status).toBe('processing');
      expect(toSnapshot(changed[i])).toEqual(toSnapshot(row));
    });
  }, 60_000);

  it('status changes in one statement: events in the order given, one stale row fails them all', async () => {
    const db = pool;
    const rows: TransactionRow[] = [];
    for (let i = 0; i < 5; i++)
      rows.push(await create(newTransaction({ business_id: 50, reference: `batch-${i}`, amount: 100 + i }), null));
    const { rows: max } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM outbox_events');
    const order = [3, 0, 4, 1, 2];
    const changed = await database.ds.transaction((m) =>
      store.changeStatuses(
        m,
        order.map((i) => ({ row: rows[i], to: i % 2 ? 'failed' : 'processing', message: `step ${i}` })),
        'batch_1',
      ),
    );
    expect(changed.map((r) => r.reference)).toEqual(order.map((i) => `batch-${i}`));
    const { rows: events } = await db.query<{ payload: EventEnvelope<string, TransactionStatusChangedData> }>(
      'SELECT payload FROM outbox_events WHERE id > $1 ORDER BY id',
      [max[0].id],
    );
    expect(events.map((e) => e.payload.data)).toEqual(
      changed.map((row) => ({ transaction: toSnapshot(row), previous_status: 'pending', status: row.status })),
    );
    expect(events.every((e) => e.payload.correlation_id === 'batch_1')).toBe(true);

    const fresh = await create(newTransaction({ business_id: 50, reference: 'batch-fresh', amount: 7 }), null);
    await expect(
      database.ds.transaction((m) =>
        store.changeStatuses(
          m,
          [
            { row: fresh, to: 'failed', message: 'fresh' },
            { row: rows[0], to: 'failed', message: 'stale: already processing' },
          ],
          null,
        ),
      ),
    ).rejects.toBeInstanceOf(ConcurrentStatusChange);
    const { rows: after } = await db.query<{ status: string; n: string }>(
      `SELECT (SELECT status FROM transactions WHERE reference = 'batch-fresh') AS status,
              (SELECT count(*) FROM outbox_events WHERE id > $1) AS n`,
      [max[0].id],
    );
    expect(after[0]).toEqual({ status: 'pending', n: String(5 + 1) });
  }, 60_000);

  it('a method chosen on checkout bumps the version: a status change from the row read before is refused', async () => {
    const db = pool;
    const pending = await create(
      newTransaction({ business_id: 30, reference: 'method-1', amount: 700, currency: 'ZWG' }),
      null,
    );
    const chosen = await store.setMethod(database.ds, pending, 'mobile_money', 'ecocash', '263771234567');
    expect(chosen.version).toBe(pending.version + 1);
    expect(chosen.payment_method_code).toBe('ecocash');
    // A caller that skipped the row lock and still holds the row without the method: its event would say
    // no method was chosen.
    await expect(changeStatus(pending, 'processing', 'Authorising', null)).rejects.toBeInstanceOf(
      ConcurrentStatusChange,
    );
    const { rows: events } = await db.query<{ payload: EventEnvelope<string, TransactionStatusChangedData> }>(
      'SELECT payload FROM outbox_events WHERE message_key = $1 ORDER BY id',
      [pending.public_id],
    );
    expect(events.map((e) => e.payload.data.status)).toEqual(['pending']);

    const processing = await changeStatus(chosen, 'processing', 'Authorising', null);
    const { rows: after } = await db.query<{ payload: EventEnvelope<string, TransactionStatusChangedData> }>(
      'SELECT payload FROM outbox_events WHERE message_key = $1 ORDER BY id',
      [pending.public_id],
    );
    expect(after).toHaveLength(2);
    expect(after[1].payload.data.transaction).toEqual(toSnapshot(processing));
    expect(after[1].payload.data.transaction).toMatchObject({ payment_method_code: 'ecocash', version: 3 });
  }, 60_000);

  it('a transaction created straight into its first step gets both events, in order', async () => {
    const db = pool;
    const { rows: max } = await db.query<{ id: string }>('SELECT coalesce(max(id), 0) AS id FROM outbox_events');
    const settleAt = new Date(Date.now() + 3_000);
    for (let i = 0; i < 10; i++) {
      await create(
        newTransaction({
          business_id: 20,
          reference: `step-${i}`,
          amount: 500 + i,
          currency: 'ZWG',
          payment_method_type: 'mobile_money',
          payment_method_code: 'ecocash',
          mobile_money_number: '263771234567',
          message: 'Payment request sent',
          then: { status: 'processing', message: 'Awaiting customer approval on the handset', settle_at: settleAt },
        }),
        `step_${i}`,
      );
    }
    // A duplicate reference writes neither the row nor any event.
    await expect(
      create(
        newTransaction({
          business_id: 20,
          reference: 'step-0',
          amount: 1,
          currency: 'ZWG',
          email: 'p@example.com',
          message: 'x',
          expires_in: 60,
          then: { status: 'processing', message: 'y', settle_at: settleAt },
        }),
        null,
      ),
    ).rejects.toMatchObject({ code: '23505' });

    const { rows: stored } = await db.query<TransactionRow>(
      'SELECT * FROM transactions WHERE reference LIKE $1 ORDER BY id',
      ['step-%'],
    );
    const { rows: events } = await db.query<{
      message_key: string;
      payload: EventEnvelope<string, TransactionStatusChangedData>;
    }>('SELECT message_key, payload FROM outbox_events WHERE id > $1 ORDER BY id', [max[0].id]);
    expect(stored).toHaveLength(10);
    expect(events).toHaveLength(20);
    stored.forEach((row, i) => {
      expect(row.status).toBe('processing');
      expect(row.version).toBe(2);
      expect(row.settle_at?.getTime()).toBe(settleAt.getTime());
      const [created, prompted] = [events[2 * i], events[2 * i + 1]];
      expect(created.message_key).toBe(row.public_id);
      expect(created.payload.data).toEqual({
        transaction: toSnapshot({ ...row, status: 'pending', message: 'Payment request sent', version: 1 }),
        previous_status: null,
        status: 'pending',
      });
      expect(prompted.payload.data).toEqual({
        transaction: toSnapshot(row),
        previous_status: 'pending',
        status: 'processing',
      });
      expect(prompted.payload.correlation_id).toBe(`step_${i}`);
    });
  }, 60_000);

  describe('a row and its events commit together, or neither does', () => {
    const payment = (reference: string) => newTransaction({ business_id: 40, reference, amount: 900 });
    const rowsWith = async (reference: string) =>
      (await pool.query('SELECT 1 FROM transactions WHERE reference = $1', [reference])).rowCount;

    // A trigger on this test's own database makes the event's insert fail, or stall, for one reference.
    beforeAll(async () => {
      await pool.query(`CREATE FUNCTION test_outbox_fault() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          CASE NEW.payload->'data'->'transaction'->>'transaction_reference'
            WHEN 'event-refused' THEN RAISE EXCEPTION 'event refused';
            WHEN 'event-slow' THEN PERFORM pg_sleep(5);
            ELSE NULL;
          END CASE;
          RETURN NEW;
        END $$`);
      await pool.query(
        'CREATE TRIGGER test_outbox_fault BEFORE INSERT ON outbox_events ' +
          'FOR EACH ROW EXECUTE FUNCTION test_outbox_fault()',
      );
    });
    afterAll(async () => {
      await pool.query('DROP TRIGGER IF EXISTS test_outbox_fault ON outbox_events');
    });

    it('an event that cannot be written takes its row with it, in a transaction or on the pool', async () => {
      await expect(create(payment('event-refused'), null)).rejects.toThrow(/event refused/);
      expect(await rowsWith('event-refused')).toBe(0);
      await expect(store.create(database.ds, payment('event-refused'), null)).rejects.toThrow(/event refused/);
      expect(await rowsWith('event-refused')).toBe(0);
    });

    it('a statement cancelled at its deadline while writing the events writes neither', async () => {
      const work = store.create(database.ds.until(Date.now() + 500), payment('event-slow'), null);
      const error = await work.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isDeadlineExceeded(error)).toBe(true);
      expect(await rowsWith('event-slow')).toBe(0);
      expect(await rowsWith('event-refused')).toBe(0);
    }, 30_000);
  });
});
