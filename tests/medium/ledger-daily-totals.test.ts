import type { QueryRunner } from 'typeorm';
import type { Mode, TransactionSnapshot, TransactionStatus, TransactionStatusChangedEvent } from '@payments/contracts';
import { TransactionCopyStore } from '../../apps/split-ledger-service/src/ledger/transaction-copy-store';
import type { ApplySplitsUseCase } from '../../apps/split-ledger-service/src/ledger/usecases/apply-splits.usecase';
import { GetDailyTotalsUseCase } from '../../apps/split-ledger-service/src/ledger/usecases/get-daily-totals.usecase';
import { SplitConfigStore } from '../../apps/split-ledger-service/src/splits/split-config-store';
import * as dailyTotals from '../../apps/split-ledger-service/src/migrations/1765600000000-ledger-daily-totals';
import { TransactionStatusHandler } from '../../apps/split-ledger-service/src/transactions/transaction-status.handler';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { OutboxNotifier } from '@payments/messaging';

interface Txn {
  id: number;
  business?: number;
  mode?: Mode;
  amount?: number;
  currency?: string;
  created?: string;
}

function event(t: Txn, status: TransactionStatus, version: number): TransactionStatusChangedEvent {
  const business = t.business ?? 1;
  const mode = t.mode ?? 'test';
  const transaction = {
    id: t.id,
    transaction_id: `txn_${t.id}`,
    business_id: business,
    mode,
    amount: t.amount ?? 1000,
    currency: t.currency ?? 'USD',
    status,
    version,
    link_splits: [],
    date_created: t.created ?? '2026-03-01T10:00:00.000Z',
  } as unknown as TransactionSnapshot;
  return {
    id: `e-${t.id}-${version}`,
    type: 'transaction.status_changed',
    version: 1,
    occurred_at: '2026-03-01T10:00:00.000Z',
    producer: 't',
    mode,
    business_id: business,
    correlation_id: null,
    data: { transaction, previous_status: null, status },
  };
}

/** A payment's three events, as the sandbox sends them. */
const lifecycle = (t: Txn, last: TransactionStatus = 'success') => [
  event(t, 'pending', 1),
  event(t, 'processing', 2),
  event(t, last, 3),
];

/**
 * The daily totals behind the dashboard's overview, counted by the triggers on the ledger's copies
 * as the transaction consumer writes them, and folded by the compactor: in process, against a
 * migrated ledger database.
 */
describe('ledger daily totals', () => {
  let db: MigratedDatabase;
  let handler: TransactionStatusHandler;
  let totals: GetDailyTotalsUseCase;
  let copies: TransactionCopyStore;
  const noSplits = { execute: jest.fn() } as unknown as ApplySplitsUseCase;

  beforeAll(async () => {
    db = await migratedDatabase('split-ledger-service', 'daily_totals');
    copies = new TransactionCopyStore();
    handler = new TransactionStatusHandler(noSplits, new SplitConfigStore(), copies, new OutboxNotifier());
    totals = new GetDailyTotalsUseCase(db.ds, copies);
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  const read = (business: number, from = '2026-02-28', to = '2026-03-02', mode: Mode = 'test') =>
    totals.execute({ ctx: { business_id: business, mode }, body: { from, to } } as never).then((r) => r.daily_totals);
  const batch = (events: TransactionStatusChangedEvent[]) => db.ds.transaction((m) => handler.handleBatch(events, m));
  const oneByOne = async (events: TransactionStatusChangedEvent[]) => {
    for (const e of events) await db.ds.transaction((m) => handler.handle(e, m));
  };

  it('counts a payment once and a success once, whether its events come in one batch or one at a time', async () => {
    await batch([...lifecycle({ id: 1, business: 10 }), ...lifecycle({ id: 2, business: 10, amount: 250 }, 'failed')]);
    await oneByOne([
      ...lifecycle({ id: 3, business: 10, amount: 4000 }),
      ...lifecycle({ id: 4, business: 10, currency: 'ZAR', amount: 700 }),
    ]);
    expect(await read(10)).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 3, succeeded: 2, succeeded_amount: 5000 },
      { date: '2026-03-01', currency: 'ZAR', payments: 1, succeeded: 1, succeeded_amount: 700 },
    ]);
  });

  it('changes nothing when events are applied again (a replay) or arrive late and out of order', async () => {
    const events = lifecycle({ id: 20, business: 11, amount: 900 });
    await batch([events[2]]);
    await batch([events[0], events[1]]);
    await batch(events);
    await oneByOne(events);
    expect(await read(11)).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 900 },
    ]);
  });

  it('keeps days (UTC), businesses and modes apart, and reads only the days asked', async () => {
    await batch([
      ...lifecycle({ id: 30, business: 12, created: '2026-02-28T23:59:59.999Z', amount: 1 }),
      ...lifecycle({ id: 31, business: 12, created: '2026-03-02T00:00:00.000Z', amount: 2 }),
      ...lifecycle({ id: 32, business: 12, mode: 'live', amount: 4 }),
      ...lifecycle({ id: 33, business: 13, amount: 8 }),
    ]);
    expect(await read(12)).toEqual([
      { date: '2026-02-28', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 1 },
      { date: '2026-03-02', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 2 },
    ]);
    expect(await read(12, '2026-03-01', '2026-03-02')).toEqual([
      { date: '2026-03-02', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 2 },
    ]);
    expect(await read(12, '2026-03-01', '2026-03-01', 'live')).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 4 },
    ]);
    expect(await read(13)).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 8 },
    ]);
  });

  it('answers nothing for a range that is not two real days in order within 92 days', async () => {
    expect(await read(10, '2026-03-02', '2026-03-01')).toEqual([]);
    expect(await read(10, '2026-02-30', '2026-03-01')).toEqual([]);
    expect(await read(10, '2025-11-01', '2026-03-01')).toEqual([]);
    expect(await read(10, 'x', '2026-03-01')).toEqual([]);
  });

  it('adds concurrent batches of many businesses and days without losing a count or deadlocking', async () => {
    const txns = Array.from({ length: 600 }, (_, i) => ({
      id: 1000 + i,
      business: 100 + (i % 5),
      created: `2026-03-0${1 + (i % 2)}T12:00:00.000Z`,
      amount: 10,
    }));
    // Four "partitions" in parallel, each with its own transactions, in reversed key orders.
    const parts = [0, 1, 2, 3].map((p) => txns.filter((_, i) => i % 4 === p));
    await Promise.all(parts.map((part, p) => batch((p % 2 ? [...part].reverse() : part).flatMap((t) => lifecycle(t)))));
    let payments = 0;
    let amount = 0;
    for (let b = 100; b < 105; b++) {
      for (const d of await read(b)) {
        payments += d.payments;
        amount += d.succeeded_amount;
      }
    }
    expect(payments).toBe(600);
    expect(amount).toBe(6000);
  });

  it('folds the changes into the totals without changing what is read', async () => {
    await batch([...lifecycle({ id: 40, business: 14 }), ...lifecycle({ id: 41, business: 14, amount: 5 })]);
    const before = await read(14);
    const changes = async () =>
      Number((await db.ds.query('SELECT count(*) AS n FROM ledger_daily_totals_changes'))[0].n);
    expect(await changes()).toBeGreaterThan(0);
    while ((await copies.compactDailyTotals(db.ds, 3)) > 0);
    expect(await changes()).toBe(0);
    expect(await read(14)).toEqual(before);
    expect(before).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 2, succeeded: 2, succeeded_amount: 1005 },
    ]);
  });

  it('counts what any writer does to the copies: two transactions saving one copy at once, and plain SQL', async () => {
    // The live event and a replayed one of the same transaction, in two database transactions.
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstWrote!: () => void;
    const firstHasWritten = new Promise<void>((resolve) => (firstWrote = resolve));
    const first = db.ds.transaction(async (m) => {
      await handler.handleBatch([event({ id: 50, business: 15 }, 'pending', 1)], m);
      firstWrote();
      await firstMayCommit;
    });
    await firstHasWritten;
    // The second waits on the first's uncommitted copy, then moves it to success.
    const second = db.ds.transaction((m) => handler.handleBatch([event({ id: 50, business: 15 }, 'success', 3)], m));
    commitFirst();
    await Promise.all([first, second]);
    // As an earlier version of the service writes a copy: no knowledge of the totals at all.
    await db.ds.query(
      `INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status, version,
                                         transaction_created_at)
       VALUES (51, 'txn_51', 15, 'test', 300, 'USD', 'pending', 1, '2026-03-01T09:00:00Z')`,
    );
    await db.ds.query("UPDATE ledger_transactions SET status = 'success', version = 2 WHERE id = 51");
    await db.ds.query('UPDATE ledger_transactions SET version = 3 WHERE id = 51');
    expect(await read(15)).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 2, succeeded: 2, succeeded_amount: 1300 },
    ]);
  });

  it('the migration counts the copies written before it', async () => {
    const migration = new dailyTotals.LedgerDailyTotals1765600000000();
    // As the migration Job runs it: in one transaction.
    const run = (step: 'up' | 'down') => db.ds.transaction((m) => migration[step](m as unknown as QueryRunner));
    await run('down');
    try {
      await db.ds.query(
        `INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status, version,
                                         transaction_created_at)
         VALUES (60, 'txn_60', 16, 'test', 700, 'ZAR', 'success', 3, '2026-03-02T09:00:00Z'),
                (61, 'txn_61', 16, 'test', 900, 'ZAR', 'failed', 3, '2026-03-02T10:00:00Z')`,
      );
    } finally {
      await run('up');
    }
    expect(await read(16)).toEqual([
      { date: '2026-03-02', currency: 'ZAR', payments: 2, succeeded: 1, succeeded_amount: 700 },
    ]);
    // Everything counted before it is still there (folded into the totals by the backfill).
    expect(await read(10)).toEqual([
      { date: '2026-03-01', currency: 'USD', payments: 3, succeeded: 2, succeeded_amount: 5000 },
      { date: '2026-03-01', currency: 'ZAR', payments: 1, succeeded: 1, succeeded_amount: 700 },
    ]);
  });
});
