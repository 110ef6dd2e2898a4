import pino from 'pino';
import { OutboxNotifier } from '@payments/messaging';
import { TransactionServiceConfig } from '../../apps/transaction-service/src/config/transaction.config';
import { RefundStore } from '../../apps/transaction-service/src/refunds/refund-store';
import { TransactionScheduler } from '../../apps/transaction-service/src/transactions/sandbox/transaction-scheduler';
import { TransactionQueries } from '../../apps/transaction-service/src/transactions/transaction-queries';
import {
  TransactionStore,
  type NewTransaction,
} from '../../apps/transaction-service/src/transactions/transaction-store';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';
import { waitFor } from '../support/wait';

/**
 * The transaction scheduler's tick against a migrated database: it settles what is due, and
 * otherwise says when the earliest settlement or expiry is due, so its worker sleeps until then.
 */
describe('transaction scheduler', () => {
  let db: MigratedDatabase;
  let scheduler: TransactionScheduler;
  const store = new TransactionStore();
  let n = 0;

  const payment = (settleInMs: number | null, expiresInSeconds = 3_600): NewTransaction => ({
    business_id: 1,
    mode: 'test',
    reference: `sched-${++n}`,
    amount: 1000,
    charges: 0,
    currency: 'USD',
    email: 'a@example.com',
    payment_method_type: 'mobile_money',
    payment_method_code: 'ecocash',
    mobile_money_number: '0771234567',
    requested_response: 'success',
    message: 'pending',
    success_url: null,
    failure_url: null,
    expires_in: expiresInSeconds,
    then:
      settleInMs === null
        ? undefined
        : { status: 'processing', message: 'processing', settle_at: new Date(Date.now() + settleInMs) },
  });
  const create = (t: NewTransaction) => db.ds.transaction((m) => store.create(m, t, null));
  const status = async (id: string) =>
    ((await db.ds.query('SELECT status FROM transactions WHERE id = $1', [id])) as { status: string }[])[0].status;

  beforeAll(async () => {
    db = await migratedDatabase('transaction-service', 'scheduler');
    const config = Object.assign(new TransactionServiceConfig(), {
      SCHEDULER_POLL_INTERVAL_MS: 100,
      SCHEDULER_IDLE_MAX_MS: 1_000,
    });
    scheduler = new TransactionScheduler(
      db.ds,
      store,
      new TransactionQueries(),
      new OutboxNotifier(),
      new RefundStore(),
      config,
      pino({ level: 'silent' }),
    );
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('with nothing waiting, says nothing is known (the worker sleeps its longest)', async () => {
    expect(await scheduler.tick()).toBe(Infinity);
  });

  it('says when the earliest settlement is due, then settles it once it is', async () => {
    const later = await create(payment(60_000));
    const sooner = await create(payment(400));
    const wait = await scheduler.tick();
    expect(typeof wait).toBe('number');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(400);
    expect(await status(sooner.id)).toBe('processing');
    // Once due: settled, and then it looks again after the interval (false).
    await waitFor('the settlement to come due', async () => ((await scheduler.tick()) === false ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 50,
    });
    expect(await status(sooner.id)).toBe('success');
    expect(await status(later.id)).toBe('processing');
    // Next: the later one's settlement, about a minute away.
    expect(await scheduler.tick()).toBeGreaterThan(50_000);
  });

  it('counts an expiry as work that will be due', async () => {
    await db.ds.query("UPDATE transactions SET status = 'failed' WHERE status <> 'failed'");
    await create(payment(null, 30));
    const wait = Number(await scheduler.tick());
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });
});
