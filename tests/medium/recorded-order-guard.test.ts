import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { DataSource } from '@payments/database';
import type { RpcContext } from '@payments/contracts';
import { EventsStore, RECORDED_ORDER_FIX_SQL } from '../../apps/webhook-dispatcher/src/events/events-store';
import { RecordedOrderGuard } from '../../apps/webhook-dispatcher/src/events/recorded-order-guard';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/**
 * webhook_events.recorded_xid copied from another cluster (dump/restore, logical replication) is
 * ahead of this cluster's transaction ids. Runs the dispatcher's migrations on a real database
 * (the recorded-order index is built CONCURRENTLY, outside a transaction), copies in an event as
 * such a move would, and checks the boot guard names it and that the runbook's fix lists it again.
 */
describe('recorded order after a move to another cluster', () => {
  let db: MigratedDatabase;
  let ds: DataSource;
  const errors: string[] = [];
  const logger = {
    error: (_: unknown, message: string) => errors.push(message),
    warn: () => undefined,
  } as unknown as Logger;
  const ctx: RpcContext = { request_id: 'req_test', business_id: 7, mode: 'test', key_type: 'secret' };
  const listed = async (store: EventsStore) =>
    (await store.list(ctx, { order: 'recorded', created: {}, limit: 10 })).events.map((e) => e.id);
  const insert = (id: string, recordedXid?: string) =>
    ds.query(
      `INSERT INTO webhook_events (id, source_event_id, business_id, mode, event_type, payload,
                                  created_at${recordedXid ? ', recorded_xid' : ''})
       VALUES ($1, $1, 7, 'test', 'transaction.success', '{}', now()${recordedXid ? ', $2::xid8' : ''})`,
      recordedXid ? [id, recordedXid] : [id],
    );

  beforeAll(async () => {
    db = await migratedDatabase('webhook-dispatcher', 'recorded_order');
    ds = db.ds;
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('builds the index as a valid one', async () => {
    const [index] = await ds.query(
      `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid ` +
        `WHERE c.relname = 'webhook_events_recorded'`,
    );
    expect(index).toEqual({ indisvalid: true });
  });

  it("is quiet on this cluster's values; names the fix when a copied event is ahead; the fix relists it", async () => {
    const store = new EventsStore(ds);
    const guard = new RecordedOrderGuard(store, logger);
    await insert('evt_here');
    expect(await guard.check()).toBe(true);
    expect(errors).toEqual([]);

    const [{ next }] = await ds.query(`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next`);
    await insert('evt_copied', String(BigInt(next) + 1_000_000n));
    expect(await listed(store)).toEqual(['evt_here']);
    expect(await guard.check()).toBe(false);
    expect(errors).toEqual([expect.stringContaining(RECORDED_ORDER_FIX_SQL)]);

    // The runbook's step (docs/operations.md, "Moving the webhook database").
    expect(readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8')).toContain(
      `${RECORDED_ORDER_FIX_SQL};`,
    );
    await ds.query(RECORDED_ORDER_FIX_SQL);
    expect(await guard.check()).toBe(true);
    expect(await listed(store)).toEqual(['evt_copied', 'evt_here']);
  });
});
