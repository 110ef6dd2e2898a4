import type { DataSource, EntityManager, TransactionOptions } from '@payments/database';
import type { EventEnvelope } from '@payments/contracts';
import type { BatchEventHandler, EventHandler } from './consumer-options';
import { FetchCommit, type PartitionChunk, type RecordInbox } from './fetch-commit';

/** An inbox in memory: rows inserted by a transaction become visible only if it commits. */
function fakeInbox() {
  const committed = new Set<string>();
  const transactions: string[][] = [];
  const options: TransactionOptions[] = [];
  const ds = {
    transaction: async <T>(opened: TransactionOptions, work: (m: EntityManager) => Promise<T>): Promise<T> => {
      options.push(opened);
      const mine = new Set<string>();
      const ids: string[] = [];
      transactions.push(ids);
      const result = await work({ ids, mine } as unknown as EntityManager);
      mine.forEach((id) => committed.add(id));
      return result;
    },
  } as unknown as DataSource;
  const record: RecordInbox = async (manager, eventIds) => {
    const { ids, mine } = manager as unknown as { ids: string[]; mine: Set<string> };
    ids.push(...eventIds);
    return new Set(eventIds.filter((id) => !committed.has(id) && !mine.has(id) && (mine.add(id), true)));
  };
  return { ds, committed, transactions, record, options };
}

function chunk(topic: string, partition: number, ids: string[], handler: EventHandler): PartitionChunk {
  return {
    handler,
    items: ids.map((id, i) => ({ event: { id } as EventEnvelope, meta: { topic, partition, offset: String(i) } })),
  };
}

describe('FetchCommit', () => {
  it('applies the chunks of partitions submitted together in one transaction, each event once', async () => {
    const { ds, transactions, record } = fakeInbox();
    const applied: string[] = [];
    const handler: EventHandler = async (event) => {
      applied.push(event.id);
    };
    const commit = new FetchCommit(ds, record);
    const outcomes = await Promise.all([
      commit.submit(chunk('t', 0, ['a', 'b'], handler)),
      commit.submit(chunk('t', 1, ['c', 'a'], handler)),
      commit.submit(chunk('u', 0, ['d'], handler)),
    ]);
    expect(transactions).toHaveLength(1);
    expect(applied).toEqual(['a', 'b', 'c', 'd']);
    expect(outcomes.map((o) => o.applied)).toEqual([2, 1, 1]);
  });

  it('begins each transaction as the consumer asks (the settings it needs), its retries alone included', async () => {
    const { ds, options, record } = fakeInbox();
    const handler: EventHandler = async (event) => {
      if (event.id === 'poison') throw new Error('refused');
    };
    const opened: TransactionOptions = { settings: { enable_bitmapscan: 'off' } };
    const commit = new FetchCommit(ds, record, { concurrency: 1, fullAt: Infinity }, opened);
    await Promise.allSettled([
      commit.submit(chunk('t', 0, ['a'], handler)),
      commit.submit(chunk('t', 1, ['poison'], handler)),
    ]);
    expect(options).toEqual([opened, opened, opened]);
    await new FetchCommit(ds, record).submit(chunk('t', 0, ['b'], handler));
    expect(options[3]).toEqual({});
  });

  it('tries each chunk alone when the shared transaction fails: a poison event stalls only its partition', async () => {
    const { ds, committed, transactions, record } = fakeInbox();
    const handler: EventHandler = async (event) => {
      if (event.id === 'poison') throw new Error('bad event');
    };
    const commit = new FetchCommit(ds, record);
    const results = await Promise.allSettled([
      commit.submit(chunk('t', 0, ['a', 'poison'], handler)),
      commit.submit(chunk('t', 1, ['b'], handler)),
    ]);
    expect(results[0].status).toBe('rejected');
    expect(results[1]).toEqual({ status: 'fulfilled', value: { applied: 1, appliedIds: new Set(['b']), thens: [] } });
    expect(transactions).toHaveLength(3);
    expect([...committed]).toEqual(['b']);
  });

  it('returns the after-commit actions of each chunk to that chunk only', async () => {
    const { ds, record } = fakeInbox();
    const commit = new FetchCommit(ds, record);
    const first = () => undefined;
    const second = () => undefined;
    const [one, two] = await Promise.all([
      commit.submit(chunk('t', 0, ['a'], async () => first)),
      commit.submit(chunk('t', 1, ['b'], async () => second)),
    ]);
    expect(one.thens).toEqual([first]);
    expect(two.thens).toEqual([second]);
  });

  it('gives a batch handler its chunks in one call, partitions in order, its after-commit to chunk one', async () => {
    const { ds, transactions, record } = fakeInbox();
    const calls: string[][] = [];
    const then = () => undefined;
    const batchHandler = async (events: EventEnvelope[]) => {
      calls.push(events.map((e) => e.id));
      return then;
    };
    const single: EventHandler = async () => {
      throw new Error('the batch handler serves these chunks');
    };
    const commit = new FetchCommit(ds, record);
    const outcomes = await Promise.all([
      commit.submit({ ...chunk('t', 0, ['a', 'b'], single), batchHandler }),
      commit.submit({ ...chunk('t', 1, ['c', 'a'], single), batchHandler }),
      commit.submit({ ...chunk('t', 2, ['d'], single), batchHandler }),
    ]);
    expect(transactions).toHaveLength(1);
    expect(calls).toEqual([['a', 'b', 'c', 'd']]);
    expect(outcomes).toEqual([
      // 'a' again in partition 1 was applied with partition 0's: each id is applied, and named, once.
      { applied: 2, appliedIds: new Set(['a', 'b']), thens: [then] },
      { applied: 1, appliedIds: new Set(['c']), thens: [] },
      { applied: 1, appliedIds: new Set(['d']), thens: [] },
    ]);
  });

  it("lets only the last batch handler's last statement carry COMMIT", async () => {
    const sent: string[] = [];
    const ds = {
      transaction: async <T>(_options: unknown, work: (m: EntityManager) => Promise<T>): Promise<T> =>
        work({
          query: async (sql: string) => void sent.push(`query ${sql}`),
          commitWith: async (sql: string) => void sent.push(`commitWith ${sql}`),
        } as unknown as EntityManager),
    } as unknown as DataSource;
    const record: RecordInbox = async (_, ids) => new Set(ids);
    const single: EventHandler = async () => {
      throw new Error('the batch handlers serve these chunks');
    };
    const handlerOf =
      (name: string): BatchEventHandler =>
      async (events, m, last) => {
        await m.query(`${name} first`);
        await last(`${name} last`);
      };
    const commit = new FetchCommit(ds, record);
    await Promise.all([
      commit.submit({ ...chunk('t', 0, ['a'], single), batchHandler: handlerOf('t') }),
      commit.submit({ ...chunk('u', 0, ['b'], single), batchHandler: handlerOf('u') }),
    ]);
    expect(sent).toEqual(['query t first', 'query t last', 'query u first', 'commitWith u last']);
  });

  it('refuses a statement after `last`, whether or not that handler is the last one', async () => {
    const ds = {
      transaction: async <T>(_options: unknown, work: (m: EntityManager) => Promise<T>): Promise<T> =>
        work({ query: async () => [], commitWith: async () => [] } as unknown as EntityManager),
    } as unknown as DataSource;
    const record: RecordInbox = async (_, ids) => new Set(ids);
    const single: EventHandler = async () => undefined;
    const tooMany: BatchEventHandler = async (events, m, last) => {
      await last('last');
      await m.query('after');
    };
    for (const others of [[], ['u']]) {
      const commit = new FetchCommit(ds, record);
      const results = await Promise.allSettled([
        commit.submit({ ...chunk('t', 0, ['a'], single), batchHandler: tooMany }),
        ...others.map((topic) =>
          commit.submit({
            ...chunk(topic, 0, ['b'], single),
            batchHandler: async (_, __, last) => void (await last('x')),
          }),
        ),
      ]);
      expect(results[0]).toMatchObject({
        status: 'rejected',
        reason: { message: expect.stringMatching(/may follow/) },
      });
    }
  });

  it('puts what arrives while a transaction runs into the next one', async () => {
    const { ds, transactions, record } = fakeInbox();
    const commit = new FetchCommit(ds, record);
    let later: Promise<unknown> | undefined;
    const handler: EventHandler = async (event) => {
      if (event.id === 'a')
        later = Promise.all([
          commit.submit(chunk('t', 1, ['b'], async () => undefined)),
          commit.submit(chunk('t', 2, ['c'], async () => undefined)),
        ]);
    };
    await commit.submit(chunk('t', 0, ['a'], handler));
    await later;
    expect(transactions).toEqual([['a'], ['b', 'c']]);
  });

  it('fails every chunk at once when the database is unreachable, without trying each alone', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    let transactions = 0;
    const ds = {
      transaction: async () => {
        transactions++;
        throw refused;
      },
    } as unknown as DataSource;
    const commit = new FetchCommit(ds, async () => new Set());
    const handler: EventHandler = async () => undefined;
    const results = await Promise.allSettled([0, 1, 2].map((p) => commit.submit(chunk('t', p, [`e${p}`], handler))));
    expect(results).toEqual([0, 1, 2].map(() => ({ status: 'rejected', reason: refused })));
    expect(transactions).toBe(1);
  });

  it("fails every chunk at once when the transaction's connection was dropped between its statements", async () => {
    // What pg answers a statement sent on a connection the server closed while the transaction was idle (a restart).
    const dropped = new Error('Client has encountered a connection error and is not queryable');
    let transactions = 0;
    const ds = {
      transaction: async () => {
        transactions++;
        throw dropped;
      },
    } as unknown as DataSource;
    const commit = new FetchCommit(ds, async () => new Set());
    const results = await Promise.allSettled(
      [0, 1, 2].map((p) => commit.submit(chunk('t', p, [`e${p}`], async () => undefined))),
    );
    expect(results).toEqual([0, 1, 2].map(() => ({ status: 'rejected', reason: dropped })));
    expect(transactions).toBe(1);
  });

  it('runs full chunks of a backlog side by side, up to the limit, and still merges small ones', async () => {
    const { ds, transactions, record } = fakeInbox();
    let open = 0;
    let most = 0;
    // Handlers hold until the test lets them go, so transactions overlap without relying on timing.
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const handler: EventHandler = async () => {
      most = Math.max(most, ++open);
      await gate;
      open--;
    };
    const ids = (p: number, n: number) => Array.from({ length: n }, (_, i) => `${p}-${i}`);
    const commit = new FetchCommit(ds, record, { concurrency: 2, fullAt: 3 });
    const submitted = Promise.all([0, 1, 2].map((p) => commit.submit(chunk('t', p, ids(p, 3), handler))));
    // Enough turns of the event loop for every chunk that may start to start (a third would push `most` to 3).
    for (let turn = 0; turn < 50 && open < 3; turn++) await new Promise((r) => setImmediate(r));
    letGo();
    const full = await submitted;
    expect(full.map((o) => o.applied)).toEqual([3, 3, 3]);
    expect(transactions).toEqual([ids(0, 3), ids(1, 3), ids(2, 3)]);
    expect(most).toBe(2);

    transactions.length = 0;
    await Promise.all([3, 4].map((p) => commit.submit(chunk('t', p, ids(p, 1), handler))));
    expect(transactions).toEqual([[...ids(3, 1), ...ids(4, 1)]]);
  });
});
