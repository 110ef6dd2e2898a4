import type { EventEnvelope, Mode, TransactionSnapshot, TransactionStatus } from '@payments/contracts';
import { TransactionCopyStore } from '../../apps/split-ledger-service/src/ledger/transaction-copy-store';
import type { ApplySplitsUseCase } from '../../apps/split-ledger-service/src/ledger/usecases/apply-splits.usecase';
import { GetDailyTotalsUseCase } from '../../apps/split-ledger-service/src/ledger/usecases/get-daily-totals.usecase';
import { SplitConfigStore } from '../../apps/split-ledger-service/src/splits/split-config-store';
import { TransactionStatusHandler } from '../../apps/split-ledger-service/src/transactions/transaction-status.handler';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

interface Txn {
  id: number;
  business?: number;
  mode?: Mode;
  amount?: number;
  currency?: string;
  created?: string;
}

function event(t: Txn, status: TransactionStatus, version: number): EventEnvelope {
  const business = t.business ?? 1;
  const mode = t.mode ?? 'test';
  const transaction = {
    id: t.id, transaction_id: `txn_${t.id}`, business_id: business, mode, amount: t.amount ?? 1000, currency: t.currency ?? 'USD',
    status, version, link_splits: [], date_created: t.created ?? '2026-03-01T10:00:00.000Z',
  } as unknown as TransactionSnapshot;
  return {
    id: `e-${t.id}-${version}`, type: 'transaction.status_changed', version: 1, occurred_at: '2026-03-01T10:00:00.000Z', producer: 't', mode, business_id: business,
    correlation_id: null, data: { transaction, previous_status: null, status },
  };
}

/** A payment's three events, as the sandbox sends them. */
const lifecycle = (t: Txn, last: TransactionStatus = 'success') => [event(t, 'pending', 1), event(t, 'processing', 2), event(t, last, 3)];

/**
 * The daily totals behind the dashboard's overview, kept by the ledger's transaction consumer in
 * the same transaction as its copies: in process, against a migrated ledger database.
 */
describe('ledger daily totals', () => {
  let db: MigratedDatabase;
  let handler: TransactionStatusHandler;
  let totals: GetDailyTotalsUseCase;
  const noSplits = { execute: jest.fn() } as unknown as ApplySplitsUseCase;

  beforeAll(async () => {
    db = await migratedDatabase('split-ledger-service', 'daily_totals');
    const copies = new TransactionCopyStore();
    handler = new TransactionStatusHandler(noSplits, new SplitConfigStore(), copies);
    totals = new GetDailyTotalsUseCase(db.ds, copies);
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  const read = (business: number, from = '2026-02-28', to = '2026-03-02', mode: Mode = 'test') =>
    totals.execute({ ctx: { business_id: business, mode }, body: { from, to } } as never).then((r) => r.daily_totals);
  const batch = (events: EventEnvelope[]) => db.ds.transaction((m) => handler.handleBatch(events, m));
  const oneByOne = async (events: EventEnvelope[]) => {
    for (const e of events) await db.ds.transaction((m) => handler.handle(e, m));
  };

  it('counts a payment once and a success once, whether its events come in one batch or one at a time', async () => {
    await batch([...lifecycle({ id: 1, business: 10 }), ...lifecycle({ id: 2, business: 10, amount: 250 }, 'failed')]);
    await oneByOne([...lifecycle({ id: 3, business: 10, amount: 4000 }), ...lifecycle({ id: 4, business: 10, currency: 'ZAR', amount: 700 })]);
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
    expect(await read(11)).toEqual([{ date: '2026-03-01', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 900 }]);
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
    expect(await read(12, '2026-03-01', '2026-03-02')).toEqual([{ date: '2026-03-02', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 2 }]);
    expect(await read(12, '2026-03-01', '2026-03-01', 'live')).toEqual([{ date: '2026-03-01', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 4 }]);
    expect(await read(13)).toEqual([{ date: '2026-03-01', currency: 'USD', payments: 1, succeeded: 1, succeeded_amount: 8 }]);
  });

  it('answers nothing for a range that is not two real days in order within 92 days', async () => {
    expect(await read(10, '2026-03-02', '2026-03-01')).toEqual([]);
    expect(await read(10, '2026-02-30', '2026-03-01')).toEqual([]);
    expect(await read(10, '2025-11-01', '2026-03-01')).toEqual([]);
    expect(await read(10, 'x', '2026-03-01')).toEqual([]);
  });

  it('adds concurrent batches of many businesses and days without losing a count or deadlocking', async () => {
    const txns = Array.from({ length: 600 }, (_, i) => ({ id: 1000 + i, business: 100 + (i % 5), created: `2026-03-0${1 + (i % 2)}T12:00:00.000Z`, amount: 10 }));
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
});
