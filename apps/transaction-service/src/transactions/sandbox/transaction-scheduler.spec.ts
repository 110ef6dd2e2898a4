import pino from 'pino';
import type { DataSource } from '@payments/database';
import { OutboxNotifier } from '@payments/messaging';
import type { TransactionServiceConfig } from '../../config/transaction.config';
import type { RefundStore } from '../../refunds/refund-store';
import type { TransactionQueries } from '../transaction-queries';
import type { TransactionStore } from '../transaction-store';
import { TransactionScheduler } from './transaction-scheduler';

describe('TransactionScheduler waking the outbox relay', () => {
  /** A scheduler whose settlement and expiry are both due; `expire` decides how the expiry's transaction ends. */
  function scheduler(expire: () => Promise<unknown[]>) {
    const notifier = new OutboxNotifier();
    const notified = jest.spyOn(notifier, 'notify');
    const ds = { transaction: async (fn: (m: unknown) => Promise<unknown>) => fn({}) } as unknown as DataSource;
    const queries = {
      due: async () => ({ settle: 0, expire: 0 }),
      claimDueSandbox: async () => [{ id: 1, requested_response: 'success' }],
      claimExpired: expire,
    } as unknown as TransactionQueries;
    const store = { changeStatuses: async () => [] } as unknown as TransactionStore;
    const refunds = { sandboxSettlementDueIn: async () => null } as unknown as RefundStore;
    const config = { SCHEDULER_POLL_INTERVAL_MS: 100, SCHEDULER_IDLE_MAX_MS: 1_000 } as TransactionServiceConfig;
    const made = new TransactionScheduler(ds, store, queries, notifier, refunds, config, pino({ level: 'silent' }));
    return { made, notified };
  }

  it('wakes it after each step that committed changes', async () => {
    const { made, notified } = scheduler(async () => [{ id: 2 }]);
    await made.tick();
    expect(notified).toHaveBeenCalledTimes(2);
  });

  it('wakes it for the settlement already committed when a later step fails', async () => {
    const { made, notified } = scheduler(async () => Promise.reject(new Error('connection lost')));
    await expect(made.tick()).rejects.toThrow('connection lost');
    expect(notified).toHaveBeenCalledTimes(1);
  });
});
