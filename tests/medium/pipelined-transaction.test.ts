import { Pool } from 'pg';
import { DataSource, isOutcomeUnknown, type PreparedStatement } from '@payments/database';
import type { EventEnvelope } from '@payments/contracts';
import { FetchCommit, type RecordInbox } from '../../libs/messaging/src/fetch-commit';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/**
 * A transaction's BEGIN travels with its first statement, and commitWith sends a last statement with the COMMIT: each
 * one round trip. What the server commits must be what BEGIN … COMMIT sent apart would commit, on a real server.
 */
describe('transactions in fewer round trips', () => {
  let database: MigratedDatabase;
  let observer: Pool;
  /** One connection, so a connection left in a bad state would fail the next transaction. */
  let single: DataSource;

  const INSERT_ITEM: PreparedStatement = {
    name: 'pipeline_test_item',
    text: 'INSERT INTO pipe_items (reference) SELECT unnest($1::text[]) RETURNING id, reference, created_at',
  };
  const count = async (reference: string) =>
    Number(
      (await observer.query('SELECT count(*) FROM pipe_items WHERE reference LIKE $1', [reference])).rows[0].count,
    );

  beforeAll(async () => {
    database = await migratedDatabase('gateway', 'pipelined_transaction');
    observer = new Pool({ connectionString: database.url, max: 2 });
    await observer.query(`CREATE TABLE pipe_items (id bigserial PRIMARY KEY, reference text UNIQUE NOT NULL
                                                     CHECK (reference NOT LIKE 'refused%'),
                                                   created_at timestamptz NOT NULL DEFAULT now())`);
    single = await new DataSource({
      url: database.url,
      max: 1,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 10_000,
      statementTimeoutMillis: 5_000,
    }).initialize();
  }, 120_000);

  afterAll(async () => {
    await single?.destroy();
    await observer?.end();
    await database?.drop();
  }, 120_000);

  it('commits what the transaction wrote, with the first statement’s rows parsed as pg parses them', async () => {
    const rows = await single.transaction(async (m) => {
      const first = await m.query(INSERT_ITEM, [['kept-1', 'kept-2']]);
      await m.query('INSERT INTO pipe_items (reference) VALUES ($1)', ['kept-3']);
      return first as { id: string; reference: string; created_at: Date }[];
    });
    expect(rows.map((r) => r.reference)).toEqual(['kept-1', 'kept-2']);
    expect(typeof rows[0].id).toBe('string');
    expect(rows[0].created_at).toBeInstanceOf(Date);
    expect(await count('kept-%')).toBe(3);
  });

  it('is one transaction from its first statement: another session sees nothing before the commit', async () => {
    await single.transaction(async (m) => {
      await m.query(INSERT_ITEM, [['unseen-1']]);
      expect(await count('unseen-%')).toBe(0);
      // now() is the transaction's start, taken with the first statement, so it precedes this second statement's start
      // (in a statement of its own they would be equal).
      const [{ later }] = await m.query('SELECT statement_timestamp() > now() AS later');
      expect(later).toBe(true);
    });
    expect(await count('unseen-%')).toBe(1);
  });

  it('runs its first statement at the isolation level asked for', async () => {
    const [{ transaction_isolation }] = await single.transaction('REPEATABLE READ', (m) =>
      m.query('SHOW transaction_isolation'),
    );
    expect(transaction_isolation).toBe('repeatable read');
  });

  it('holds the settings sent with BEGIN for the transaction only, also for a statement sent with COMMIT', async () => {
    const setting = (m: { query: DataSource['query'] }) =>
      m.query<{ enable_bitmapscan: string }[]>('SHOW enable_bitmapscan').then((r) => r[0].enable_bitmapscan);
    const seen = await single.transaction({ settings: { enable_bitmapscan: 'off' } }, async (m) => {
      const first = await setting(m);
      return [first, await m.commitWith('SHOW enable_bitmapscan')];
    });
    expect(seen).toEqual(['off', [{ enable_bitmapscan: 'off' }]]);
    // Sent with BEGIN and the statement with COMMIT, all in one round trip.
    await expect(
      single.transaction({ settings: { enable_bitmapscan: 'off' } }, (m) => m.commitWith('SHOW enable_bitmapscan')),
    ).resolves.toEqual([{ enable_bitmapscan: 'off' }]);
    // The same connection (the pool has one) after the transaction: the default again.
    expect(await setting(single)).toBe('on');
  });

  it('writes nothing when the statement sent with BEGIN fails, and the connection serves the next', async () => {
    await expect(single.transaction((m) => m.query(INSERT_ITEM, [['refused-first']]))).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      single.transaction(async (m) => {
        await m.query(INSERT_ITEM, [['undone-1']]);
        await m.query(INSERT_ITEM, [['refused-second']]);
      }),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await count('undone-%')).toBe(0);
    await single.transaction((m) => m.query(INSERT_ITEM, [['after-refused']]));
    expect(await count('after-refused')).toBe(1);
  });

  it('a statement that does not parse is reported, and the same name then works with a valid text', async () => {
    const broken: PreparedStatement = {
      name: 'pipeline_test_broken',
      text: 'INSERT INTO pipe_items (nope) VALUES ($1)',
    };
    await expect(single.transaction((m) => m.query(broken, ['x']))).rejects.toMatchObject({ code: '42703' });
    // The failed Parse left nothing behind on the connection: a later transaction parses it afresh.
    await expect(single.transaction((m) => m.query(broken, ['x']))).rejects.toMatchObject({ code: '42703' });
    const fixed: PreparedStatement = { name: broken.name, text: 'INSERT INTO pipe_items (reference) VALUES ($1)' };
    await single.transaction((m) => m.query(fixed, ['after-broken']));
    expect(await count('after-broken')).toBe(1);
  });

  it('a parameter that cannot be encoded sends nothing, and leaves no transaction open on the connection', async () => {
    const unencodable = { amount: BigInt(1) };
    await expect(
      single.transaction(async (m) => {
        await m.query(INSERT_ITEM, [['unsent-1']]);
        await m.commitWith('INSERT INTO pipe_items (reference) VALUES ($1::jsonb ->> 0)', [unencodable]);
      }),
    ).rejects.toThrow(/BigInt/);
    await expect(single.transaction((m) => m.query('SELECT $1::jsonb', [unencodable]))).rejects.toThrow(/BigInt/);
    expect(await count('unsent-%')).toBe(0);
    const { rows } = await observer.query(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    );
    expect(Number(rows[0].count)).toBe(0);
    await single.transaction((m) => m.query(INSERT_ITEM, [['after-unencodable']]));
    expect(await count('after-unencodable')).toBe(1);
  });

  it('fails, committing nothing, when the work catches a failed statement and goes on', async () => {
    const err = await single
      .transaction(async (m) => {
        await m.query(INSERT_ITEM, [['went-on-1']]);
        await m.query(INSERT_ITEM, [['refused-went-on']]).catch(() => undefined);
        return 'looks done';
      })
      .catch((e: unknown) => e);
    expect(String(err)).toMatch(/a statement failed, so the server answered ROLLBACK/);
    expect(await count('went-on-%')).toBe(0);
    await single.transaction((m) => m.query(INSERT_ITEM, [['after-went-on']]));
    expect(await count('after-went-on')).toBe(1);
  });

  it('refuses COPY, first or last in a round trip, and the connection serves the next', async () => {
    const copy = 'COPY pipe_items (reference) FROM STDIN';
    await expect(single.transaction((m) => m.query(copy))).rejects.toThrow(/COPY is not supported/);
    await expect(
      single.transaction(async (m) => {
        await m.query(INSERT_ITEM, [['before-copy']]);
        await m.commitWith(copy);
      }),
    ).rejects.toThrow(); // the server meets the COMMIT's messages while in COPY: a protocol error
    expect(await count('before-copy')).toBe(0);
    await single.transaction((m) => m.query(INSERT_ITEM, [['after-copy']]));
    expect(await count('after-copy')).toBe(1);
  }, 20_000);

  describe('commitWith', () => {
    it('commits the transaction with its statement', async () => {
      const marked = await single.transaction(async (m) => {
        await m.query(INSERT_ITEM, [['with-1', 'with-2']]);
        return m.commitWith("UPDATE pipe_items SET reference = reference || '-marked' WHERE reference LIKE 'with-%'");
      });
      expect(marked).toEqual([[], 2]);
      expect(await count('with-%-marked')).toBe(2);
    });

    it('commits nothing when its statement fails, earlier statements included', async () => {
      const err = await single
        .transaction(async (m) => {
          await m.query(INSERT_ITEM, [['before-refusal']]);
          return m.commitWith(INSERT_ITEM, [['refused-at-commit']]);
        })
        .catch((e: unknown) => e);
      expect([(err as { code?: string }).code, isOutcomeUnknown(err)]).toEqual(['23514', false]);
      expect(await count('before-refusal')).toBe(0);
      await single.transaction((m) => m.commitWith(INSERT_ITEM, [['alone-commit']]));
      expect(await count('alone-commit')).toBe(1);
    });

    it('fails the transaction when the work catches its failure: nothing commits, and the caller is told', async () => {
      const err = await single
        .transaction(async (m) => {
          await m.query(INSERT_ITEM, [['caught-1']]);
          await m.commitWith(INSERT_ITEM, [['refused-caught']]).catch(() => undefined);
          return 'looks done';
        })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: '23514' });
      expect(await count('caught-%')).toBe(0);
      await single.transaction((m) => m.query(INSERT_ITEM, [['after-caught']]));
      expect(await count('after-caught')).toBe(1);
    });

    it('holds the transaction’s locks until its COMMIT', async () => {
      await observer.query("INSERT INTO pipe_items (reference) VALUES ('locked-row')");
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const writer = single.transaction(async (m) => {
        await m.query("SELECT id FROM pipe_items WHERE reference = 'locked-row' FOR UPDATE");
        locked();
        await held;
        return m.commitWith("UPDATE pipe_items SET reference = 'locked-row-done' WHERE reference = 'locked-row'");
      });
      await lockTaken;
      // NOWAIT: the row is locked by the open transaction.
      await expect(
        observer.query("SELECT id FROM pipe_items WHERE reference = 'locked-row' FOR UPDATE NOWAIT"),
      ).rejects.toMatchObject({ code: '55P03' });
      release();
      await writer;
      expect(await count('locked-row-done')).toBe(1);
    });
  });

  it('many at once on a small pool: every transaction commits whole or not at all', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        database.ds.transaction(async (m) => {
          await m.query(INSERT_ITEM, [[`many-${i}-a`]]);
          await m.query(INSERT_ITEM, [[i % 10 === 0 ? `refused-many-${i}` : `many-${i}-b`]]);
          return m.commitWith(INSERT_ITEM, [[`many-${i}-c`]]);
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(20);
    expect(await count('many-%-a')).toBe(180);
    expect(await count('many-%-b')).toBe(180);
    expect(await count('many-%-c')).toBe(180);
  }, 60_000);

  it("a consumer's last batch statement carries COMMIT; inbox and handler rows commit as one", async () => {
    await observer.query('CREATE TABLE pipe_inbox (event_id text PRIMARY KEY)');
    const record: RecordInbox = async (m, ids) =>
      new Set(
        (
          (await m.query('INSERT INTO pipe_inbox SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING event_id', [
            ids,
          ])) as { event_id: string }[]
        ).map((r) => r.event_id),
      );
    const commit = new FetchCommit(single, record);
    const chunk = (ids: string[]) => ({
      items: ids.map((id, i) => ({
        event: { id } as EventEnvelope,
        meta: { topic: 't', partition: 0, offset: `${i}` },
      })),
      handler: async () => {
        throw new Error('the batch handler serves this chunk');
      },
      batchHandler: async (
        events: EventEnvelope[],
        _m: unknown,
        last: (sql: string, p: unknown[]) => Promise<unknown>,
      ) => {
        await last('INSERT INTO pipe_items (reference) SELECT unnest($1::text[])', [events.map((e) => e.id)]);
        // COMMIT went with it: another session sees the rows before the handler has even returned.
        committedInHandler.push(await count(`${events[0].id.replace(/-\d+$/, '')}-%`));
      },
    });
    const committedInHandler: number[] = [];
    await expect(commit.submit(chunk(['consumed-1', 'consumed-2']))).resolves.toMatchObject({ applied: 2 });
    expect(committedInHandler).toEqual([2]);
    expect(await count('consumed-%')).toBe(2);
    // Redelivered: the inbox skips both, and the handler is not called with them.
    await expect(commit.submit(chunk(['consumed-1', 'consumed-2']))).resolves.toMatchObject({ applied: 0 });
    expect(await count('consumed-%')).toBe(2);
    // The last statement fails (the CHECK): nothing of the transaction commits, the inbox rows neither.
    await expect(commit.submit(chunk(['refused-consumed']))).rejects.toThrow(/pipe_items_reference_check/);
    expect(
      Number(
        (await observer.query("SELECT count(*) FROM pipe_inbox WHERE event_id = 'refused-consumed'")).rows[0].count,
      ),
    ).toBe(0);
    // The connection serves the next transaction.
    await expect(commit.submit(chunk(['consumed-3']))).resolves.toMatchObject({ applied: 1 });
    expect(await count('consumed-%')).toBe(3);
  });
});
