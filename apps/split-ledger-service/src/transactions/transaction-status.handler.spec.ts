import { type EntityManager, type Sql, type TransactionManager, sqlText } from '@payments/database';
import type { TransactionSnapshot, TransactionStatus, TransactionStatusChangedEvent } from '@payments/contracts';
import type { ApplySplitsUseCase } from '../ledger/usecases/apply-splits.usecase';
import type { SplitConfigStore } from '../splits/split-config-store';
import { TransactionCopyStore } from '../ledger/transaction-copy-store';
import { TransactionStatusHandler } from './transaction-status.handler';
import { OutboxNotifier } from '@payments/messaging';

function event(
  id: number,
  status: TransactionStatus,
  version: number,
  message: string = status,
): TransactionStatusChangedEvent {
  const transaction = {
    id,
    transaction_id: `txn_${id}`,
    business_id: 1,
    mode: 'test',
    amount: 1000,
    currency: 'USD',
    status,
    version,
    link_splits: [],
    date_created: '2026-01-01T00:00:00.000Z',
    message,
  } as unknown as TransactionSnapshot;
  return {
    id: `e-${id}-${version}-${message}`,
    type: 'transaction.status_changed',
    version: 1,
    occurred_at: '2026-01-01T00:00:00.000Z',
    producer: 't',
    mode: 'test',
    business_id: 1,
    correlation_id: null,
    data: { transaction, previous_status: null, status },
  };
}

/** What the handler asked the database, in order: upserted copies (id@version) and ledger locks. */
function recorder(businessesWithTerms: number[] = [1], splitsWritten = false) {
  const log: string[] = [];
  const m = {
    query: jest.fn(async (statement: Sql, params: unknown[]) => {
      const sql = sqlText(statement);
      if (sql.includes('pg_advisory_xact_lock')) log.push(`lock ${([] as unknown[]).concat(params[0]).join(',')}`);
      else if (sql.includes('INSERT INTO ledger_transactions')) {
        const rows = JSON.parse(params[0] as string) as { id: number; version: number; status: string }[];
        log.push(`upsert ${rows.map((r) => `${r.id}@${r.version}:${r.status}`).join(',')}`);
      }
      return [];
    }),
  } as unknown as TransactionManager;
  const applySplits = {
    execute: jest.fn(async (_m: EntityManager, t: TransactionSnapshot) => (log.push(`splits ${t.id}`), splitsWritten)),
  };
  const configs = {
    withTermsInForce: jest.fn(async (_m: EntityManager, subjects: { key: string; owner: number }[]) => {
      if (subjects.length > 0) log.push(`terms? ${subjects.map((s) => s.key).join(',')}`);
      return new Set(subjects.filter((s) => businessesWithTerms.includes(s.owner)).map((s) => s.key));
    }),
  };
  const outbox = new OutboxNotifier();
  return {
    log,
    m,
    woken: jest.spyOn(outbox, 'notify'),
    handler: new TransactionStatusHandler(
      applySplits as unknown as ApplySplitsUseCase,
      configs as unknown as SplitConfigStore,
      new TransactionCopyStore(),
      outbox,
    ),
  };
}

describe('TransactionStatusHandler.handleBatch', () => {
  it('handles a success in its place and the events around it in one statement per run', async () => {
    const { log, m, handler } = recorder();
    await handler.handleBatch(
      [
        event(1, 'pending', 1),
        event(2, 'pending', 1),
        event(1, 'processing', 2),
        event(1, 'success', 3),
        event(2, 'failed', 2),
      ],
      m,
    );
    expect(log).toEqual([
      'terms? 3',
      'upsert 1@2:processing,2@1:pending',
      'lock 1',
      'upsert 1@3:success',
      'splits 1',
      'upsert 2@2:failed',
    ]);
  });

  it('folds a success without split terms into the run, ledger locked first (id order); asks terms once', async () => {
    const { log, m, handler } = recorder([]);
    await handler.handleBatch(
      [event(1, 'pending', 1), event(2, 'success', 2), event(1, 'success', 2), event(3, 'failed', 2)],
      m,
    );
    expect(log).toEqual(['terms? 1,2', 'lock 1,2', 'upsert 1@2:success,2@2:success,3@2:failed']);
  });

  it('handles a success with link splits on its own even when its owner has no split configs', async () => {
    const { log, m, handler } = recorder([]);
    const linked = event(4, 'success', 2);
    (linked.data as { transaction: TransactionSnapshot }).transaction.link_splits = [
      { business_id: 9, type: 'percentage', value: 100 },
    ] as TransactionSnapshot['link_splits'];
    await handler.handleBatch([event(5, 'pending', 1), linked], m);
    expect(log).toEqual(['upsert 5@1:pending', 'lock 4', 'upsert 4@2:success', 'splits 4']);
  });

  it('keeps only the newest snapshot of a transaction in a run, the first of equal versions', async () => {
    const { log, m, handler } = recorder();
    await handler.handleBatch(
      [event(5, 'processing', 2, 'first'), event(5, 'pending', 1), event(5, 'processing', 2, 'second')],
      m,
    );
    expect(log).toEqual(['upsert 5@2:processing']);
    const sent = JSON.parse((m.query as jest.Mock).mock.calls[0][1][0]);
    expect(sent).toHaveLength(1);
  });

  it('wakes the outbox relay after the commit when splits were written, and only then', async () => {
    const wrote = recorder([1], true);
    const wake = await wrote.handler.handleBatch([event(1, 'success', 3), event(2, 'pending', 1)], wrote.m);
    expect(wrote.log).toContain('splits 1');
    expect(wrote.woken).not.toHaveBeenCalled(); // not before the commit
    wake?.();
    expect(wrote.woken).toHaveBeenCalledTimes(1);
    const none = recorder([1], false);
    await expect(none.handler.handleBatch([event(1, 'success', 3)], none.m)).resolves.toBeUndefined();
    await expect(none.handler.handle(event(1, 'pending', 1), none.m)).resolves.toBeUndefined();
  });

  it('writes nothing for an empty batch', async () => {
    const { log, m, handler } = recorder();
    await handler.handleBatch([], m);
    expect(log).toEqual([]);
  });

  it('gives the same copy as handling the events one at a time', async () => {
    const events = [event(7, 'pending', 1), event(8, 'pending', 1), event(7, 'failed', 2)];
    const batch = recorder();
    await batch.handler.handleBatch(events, batch.m);
    const single = recorder();
    for (const e of events) await single.handler.handle(e, single.m);
    const newest = (log: string[]) =>
      Object.fromEntries(log.flatMap((l) => l.replace('upsert ', '').split(',')).map((x) => [x.split('@')[0], x]));
    expect(newest(batch.log)).toEqual(newest(single.log));
  });
});
