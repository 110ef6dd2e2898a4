import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import type { DataSource, TransactionManager } from '@payments/database';
import { Queues, type RpcContext } from '@payments/contracts';
import { CallbackStore } from '../../apps/webhook-dispatcher/src/callbacks/callback-store';
import { UpdateCallbackUseCase } from '../../apps/webhook-dispatcher/src/callbacks/usecases/update-callback.usecase';
import { DeliveryStore } from '../../apps/webhook-dispatcher/src/delivery/delivery-store';
import { DeliveryReconciler } from '../../apps/webhook-dispatcher/src/delivery/delivery-reconciler';
import {
  RECONCILE_PAGE,
  RECONCILE_PAGES_PER_PASS,
  deliveryJobId,
} from '../../apps/webhook-dispatcher/src/delivery/delivery-queue';
import { infra, runId } from '../support/infra';
import { waitFor } from '../support/wait';
import { migratedDatabase, type MigratedDatabase } from '../support/migrated-database';

/**
 * The webhook dispatcher's stores against a real PostgreSQL (and, for the reconciler, the real Redis its queue lives
 * on), at the points where concurrent workers meet: claims of one delivery that go out in one statement, the outcome of
 * a claim another worker took over, the reconciler meeting a row a live worker holds or a backlog of live rows, and a
 * callback enabled again while a failing attempt disables it.
 */
const SECRET = 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0';

describe('webhook dispatcher stores under concurrency', () => {
  const { REDIS_URL } = infra();
  const id = runId();
  const ctx: RpcContext = { request_id: 'req_test', business_id: 7, mode: 'test', key_type: 'secret' };
  let db: MigratedDatabase;
  let ds: DataSource;
  let store: DeliveryStore;
  let callbacks: CallbackStore;
  let events = 0;

  /** A callback of `business` subscribed to transaction.success, at `url`. */
  const subscribe = (business: number, url: string) =>
    callbacks.insert(ds.manager, {
      business_id: business,
      mode: 'test',
      url,
      description: '',
      events: ['transaction.success'],
      secret: SECRET,
    });
  /** A transaction as the dispatcher's consumer begins one (its fan-out counts claims with a plain index scan). */
  const consumerTransaction = <T>(work: (m: TransactionManager) => Promise<T>) =>
    ds.transaction({ settings: { enable_bitmapscan: 'off' } }, work);
  /** Handed over as a consumer does, claimed in the fan-out within `perCallbackLimit` (0: none claimed). */
  const handOver = (perCallbackLimit = 0, most = perCallbackLimit) => ({ most, perCallbackLimit, lockSeconds: 20 });
  /**
   * New pending deliveries to the one callback subscribed to transaction.success, handed over as a consumer writes
   * them (enqueued_at set, enqueue count 1), not claimed yet.
   */
  const deliveries = async (count: number): Promise<string[]> => {
    const rows = await consumerTransaction((m) => store.recordAndFanOut(m, newEvents(count), handOver()));
    return rows.map((r) => String(r.id));
  };
  const newEvents = (count: number) =>
    Array.from({ length: count }, () => `evt_${id}_${++events}`).map((e) => ({
      id: e,
      source_event_id: e,
      business_id: 7,
      mode: 'test' as const,
      event_type: 'transaction.success' as const,
      payload: {} as never,
      created_at: new Date(),
    }));
  /** As if `seconds` had passed since they were handed over and due. */
  const age = (ids: string[], seconds: number) =>
    ds.query(
      `UPDATE deliveries SET enqueued_at = enqueued_at - make_interval(secs => $2), ` +
        `next_attempt_at = next_attempt_at - make_interval(secs => $2) WHERE id = ANY($1::bigint[])`,
      [ids, seconds],
    );
  /** As if the lock of the claim on it had run out (its holder stalled, or died). */
  const expireLock = (deliveryId: string) =>
    ds.query("UPDATE deliveries SET locked_until = now() - interval '1 second' WHERE id = $1", [deliveryId]);
  const row = async (deliveryId: string) =>
    (
      await ds.query(
        'SELECT status, attempts, lock_token, locked_until > now() AS held, ' +
          'enqueued_at IS NOT NULL AS handed_over FROM deliveries WHERE id = $1',
        [deliveryId],
      )
    )[0];
  const attemptsOf = async (deliveryId: string) =>
    ds.query('SELECT attempt, status_code, error FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt', [
      deliveryId,
    ]);
  const claim = async (deliveryId: string) => {
    const c = await store.claimAttempt(deliveryId, 0, 20, 100);
    if (!c || c === 'busy') throw new Error(`delivery ${deliveryId} was not claimed (${c})`);
    return c;
  };

  beforeAll(async () => {
    db = await migratedDatabase('webhook-dispatcher', 'webhook_races');
    ds = db.ds;
    store = new DeliveryStore(ds);
    callbacks = new CallbackStore(ds);
    await subscribe(7, 'https://example.com/hook');
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('records each event and its deliveries once: events recorded before fan out nothing, in any company', async () => {
    const [a, b, c] = newEvents(3);
    const first = await consumerTransaction((m) => store.recordAndFanOut(m, [b, a], handOver()));
    // Redelivered, with one new event among them: only the new one is recorded and fans out.
    const again = await consumerTransaction((m) => store.recordAndFanOut(m, [a, c, b], handOver()));
    const fannedOut = await ds.query('SELECT event_id FROM deliveries WHERE event_id = ANY($1::text[]) ORDER BY id', [
      [a.id, b.id, c.id],
    ]);
    // In the order the events were given: b before a.
    expect(fannedOut.map((r: { event_id: string }) => r.event_id)).toEqual([b.id, a.id, c.id]);
    expect([first.length, again.length]).toEqual([2, 1]);
    expect(first.every((d) => d.status === 'pending' && d.enqueue_count === 1)).toBe(true);
  });

  it('records each event with its own payload, sent once for the events that share it', async () => {
    // Two catalogue events of one source event share its payload object; a third has an equal object of its own, a
    // fourth another payload.
    const [a, b, c, d] = newEvents(4);
    const shared = { transaction_id: `txn_${id}_shared`, amount: 1000 } as never;
    const batch = [
      { ...a, payload: shared },
      { ...b, payload: shared },
      { ...c, payload: { transaction_id: `txn_${id}_shared`, amount: 1000 } as never },
      { ...d, payload: { transaction_id: `txn_${id}_other`, amount: 5 } as never },
    ];
    const fanned = await consumerTransaction((m) => store.recordAndFanOut(m, batch, handOver(100)));
    const recorded = await ds.query('SELECT id, payload FROM webhook_events WHERE id = ANY($1::text[]) ORDER BY id', [
      batch.map((e) => e.id),
    ]);
    expect(recorded).toEqual(
      batch.map((e) => ({ id: e.id, payload: e.payload })).sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    // What a claimed first attempt sends is its own event's payload too.
    expect(fanned.map((f) => [f.claimed?.event.id, f.claimed?.event.payload])).toEqual(
      batch.map((e) => [e.id, e.payload]),
    );
  });

  it('claims a delivery named twice in one group statement once: the second claim is refused', async () => {
    const [other, twice] = await deliveries(2);
    // Claims of one event-loop turn go out in one statement: the delivery is named twice in it.
    const first = store.claimAttempt(other, 0, 20, 100);
    const both = [store.claimAttempt(twice, 0, 20, 100), store.claimAttempt(twice, 0, 20, 100)];
    const [a, b] = await Promise.all(both);
    expect(await first).toMatchObject({ delivery: { id: other } });
    // Its in-process first attempt and a queue job for it, in one process: only one may sign and send it.
    expect([a, b].filter((c) => c !== null && c !== 'busy')).toHaveLength(1);
    expect([a, b]).toContain(null);
    expect(await row(twice)).toMatchObject({ status: 'pending', held: true });
  });

  it("keeps a callback's claims within its limit, within one group statement and across statements", async () => {
    // A callback of its own (business 9), so the claims other tests hold do not count against it.
    await subscribe(9, 'https://example.com/limited');
    const fanOut = async (count: number) =>
      (
        await consumerTransaction((m) =>
          store.recordAndFanOut(
            m,
            newEvents(count).map((e) => ({ ...e, business_id: 9 })),
            handOver(),
          ),
        )
      ).map((r) => String(r.id));
    const four = await fanOut(4);
    // One turn of the event loop: one statement; its rank keeps it within the limit of 2.
    const first = await Promise.all(four.map((d) => store.claimAttempt(d, 0, 20, 2)));
    expect(first.filter((c) => c !== null && c !== 'busy')).toHaveLength(2);
    expect(first.filter((c) => c === 'busy')).toHaveLength(2);
    const [fifth] = await fanOut(1);
    // Two are in flight: a limit of 2 refuses the next, a limit of 3 takes it.
    expect(await store.claimAttempt(fifth, 0, 20, 2)).toBe('busy');
    expect(await store.claimAttempt(fifth, 0, 20, 3)).toMatchObject({ delivery: { id: fifth } });
  });

  it("claims handed-over deliveries in the fan-out within their callback's limit, with those in flight", async () => {
    // A callback of its own (business 11), so the claims other tests hold do not count against it.
    await subscribe(11, 'https://example.com/fanned');
    const fanOut = (count: number, limit: number, most = limit) =>
      consumerTransaction((m) =>
        store.recordAndFanOut(
          m,
          newEvents(count).map((e) => ({ ...e, business_id: 11, payload: { reference: e.id } as never })),
          handOver(limit, most),
        ),
      );
    const started = Date.now();
    const first = await fanOut(3, 2);
    // The first two (in the events' order) are claimed: held, with the callback and event their attempt sends.
    expect(first.map((d) => d.claimed !== null)).toEqual([true, true, false]);
    const [a, b, c] = first;
    expect(a.claimed).toMatchObject({
      delivery: { id: a.id, status: 'pending', attempts: 0, enqueue_count: 1 },
      callback: { business_id: 11, url: 'https://example.com/fanned', secret: SECRET },
      event: { event_type: 'transaction.success', mode: 'test' },
    });
    expect(a.claimed!.event.payload).toEqual({ reference: a.claimed!.event.id });
    expect(a.claimed!.event.created_at).toBeInstanceOf(Date);
    // Locked for the claim time given, from the insert.
    const lockedFor = a.claimed!.delivery.locked_until!.getTime() - started;
    expect(lockedFor).toBeGreaterThan(19_000);
    expect(lockedFor).toBeLessThan(21_000);
    expect(await row(a.id)).toMatchObject({ held: true, lock_token: a.claimed!.delivery.lock_token });
    expect(await row(c.id)).toMatchObject({ held: null, lock_token: null, handed_over: true });
    // Two in flight: a claim within the limit of 2 is refused, and so is the next fan-out's.
    expect(await store.claimAttempt(c.id, 0, 20, 2)).toBe('busy');
    expect((await fanOut(1, 2)).map((d) => d.claimed)).toEqual([null]);
    // The claims are the attempt's own: its outcome is recorded on them.
    expect(await store.recordSuccess(a.claimed!.delivery, 200, 5)).toBe(true);
    expect(await row(a.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    // One in flight now: the next fan-out claims one of two.
    const [d, e] = await fanOut(2, 2);
    expect([d.claimed !== null, e.claimed]).toEqual([true, null]);
    // A claim renewed by its holder: a new token and lock; the old token renews nothing more.
    const renewed = await store.renewClaim(d.claimed!.delivery, 20);
    expect(renewed).toMatchObject({
      delivery: { id: d.id },
      callback: { business_id: 11 },
      event: { id: d.claimed!.event.id },
    });
    expect(renewed!.delivery.lock_token).not.toBe(d.claimed!.delivery.lock_token);
    expect(await store.renewClaim(d.claimed!.delivery, 20)).toBeNull();
    expect(await row(d.id)).toMatchObject({ held: true, lock_token: renewed!.delivery.lock_token });
    // Room for more under the callback's limit, but only one attempt can start at once: one claimed.
    expect((await fanOut(3, 10, 1)).map((x) => x.claimed !== null)).toEqual([true, false, false]);
    // None can start at once: none claimed, whatever room the callback has.
    expect((await fanOut(1, 10, 0)).map((x) => x.claimed)).toEqual([null]);
    // A second callback of the business: each event fans out to both, each claimed within its own callback's limit.
    // The first has two in flight (d, and the one just claimed), so a limit of 2 claims only the second's.
    await subscribe(11, 'https://example.com/fanned-second');
    const spread = await fanOut(2, 2, 10);
    expect(spread.map((x) => [x.callback_id === a.callback_id ? 'first' : 'second', x.claimed !== null])).toEqual([
      ['first', false],
      ['second', true],
      ['first', false],
      ['second', true],
    ]);
    // A fan-out claim is let go with its token only (an attempt never made); without it the lock is left to lapse.
    await store.releaseMany([{ id: b.id, lockToken: null }]);
    expect(await row(b.id)).toMatchObject({ held: true, handed_over: true });
    await store.releaseMany([{ id: b.id, lockToken: b.claimed!.delivery.lock_token }]);
    expect(await row(b.id)).toMatchObject({ held: null, lock_token: null, handed_over: false });
  });

  it('records an outcome only for the holding claim, not one whose lock ran out and was taken over', async () => {
    const [d] = await deliveries(1);
    const stalled = await claim(d);
    await expireLock(d);
    const holder = await claim(d);
    expect(holder.delivery.lock_token).not.toBe(stalled.delivery.lock_token);

    // The stalled worker comes back with its answer: neither a success nor a failure nor an unsent end is written.
    expect(await store.recordSuccess(stalled.delivery, 200, 12)).toBe(false);
    const failure = {
      deliveryId: d,
      lockToken: stalled.delivery.lock_token,
      previousAttempts: 0,
      statusCode: 500,
      durationMs: 12,
      error: 'HTTP 500',
      retryInSeconds: 5,
    };
    expect(await ds.transaction((m) => store.recordFailure(m, failure))).toBe(false);
    expect(await store.finishUnsent(stalled.delivery, 'skipped', 'callback disabled')).toBe(false);
    await store.unlock(ds.manager, stalled.delivery);
    // The holder's lock stands (no third claim can send it beside the holder), and no attempt is recorded for it.
    expect(await row(d)).toMatchObject({
      status: 'pending',
      attempts: 0,
      lock_token: holder.delivery.lock_token,
      held: true,
    });
    expect(await attemptsOf(d)).toEqual([]);

    expect(await store.recordSuccess(holder.delivery, 204, 30)).toBe(true);
    expect(await row(d)).toMatchObject({ status: 'succeeded', attempts: 1, lock_token: null, held: null });
    expect(await attemptsOf(d)).toEqual([{ attempt: 1, status_code: 204, error: null }]);
  });

  it("records the holder's failure; a late holder whose lock ran out records if nobody took it over", async () => {
    const [failing, late] = await deliveries(2);
    const c = await claim(failing);
    const failure = {
      deliveryId: failing,
      lockToken: c.delivery.lock_token,
      previousAttempts: 0,
      statusCode: 503,
      durationMs: 8,
      error: 'HTTP 503',
      retryInSeconds: 5,
    };
    expect(await ds.transaction((m) => store.recordFailure(m, failure))).toBe(true);
    expect(await row(failing)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lock_token: null,
      held: null,
      handed_over: false,
    });
    expect(await attemptsOf(failing)).toEqual([{ attempt: 1, status_code: 503, error: 'HTTP 503' }]);

    const slow = await claim(late);
    await expireLock(late);
    expect(await store.recordSuccess(slow.delivery, 200, 20_000)).toBe(true);
    expect(await row(late)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('does not hand the enqueuer a delivery a live worker claimed after the reconciler saw it overdue', async () => {
    const [d] = await deliveries(1);
    await age([d], 60);
    const seen = await store.overdue(5, 100);
    expect(seen.map((r) => String(r.id))).toContain(d);

    await claim(d);
    expect(await store.release(d, 1)).toBe(false);
    expect(await row(d)).toMatchObject({ handed_over: true, held: true });
    expect((await store.overdue(5, 100)).map((r) => String(r.id))).not.toContain(d);

    // Its holder died: once the lock has run out, the row is handed back.
    await expireLock(d);
    expect(await store.release(d, 1)).toBe(true);
    expect(await row(d)).toMatchObject({ handed_over: false });
  });

  it('finds a delivery whose job was lost behind more than a page of overdue deliveries that are alive', async () => {
    await ds.query("UPDATE deliveries SET status = 'succeeded', locked_until = NULL WHERE status = 'pending'");
    const queued = await deliveries(600);
    const heldHere = await deliveries(450);
    const heldElsewhere = await deliveries(30);
    const [lost] = await deliveries(1);
    const all = [...queued, ...heldHere, ...heldElsewhere, lost];
    expect(queued.length + heldHere.length).toBeGreaterThan(RECONCILE_PAGE);
    // Overdue for a minute, in this order: the lost one last.
    await age(all, 60);
    await ds.query(
      "UPDATE deliveries SET next_attempt_at = next_attempt_at + (id - $2::bigint) * interval '1 ms' " +
        'WHERE id = ANY($1::bigint[])',
      [all, all[0]],
    );
    for (const h of heldElsewhere) await claim(h);

    const connection = new IORedis(REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(Queues.WebhookDeliveries, { connection, prefix: `bull:${id}` });
    try {
      // Their jobs wait behind a busy callback (delayed), as the enqueuer added them.
      await queue.addBulk(
        queued.map((q) => ({
          name: 'deliver',
          data: { deliveryId: q, attempt: 0 },
          opts: { jobId: deliveryJobId({ id: q, attempts: 0, enqueue_count: 1 }), delay: 600_000 },
        })),
      );
      const held = new Set(heldHere);
      const reconciler = new DeliveryReconciler(
        store,
        (r) => queue.getJobState(deliveryJobId(r)),
        (dId) => held.has(dId),
        {
          graceSeconds: 5,
          pageSize: RECONCILE_PAGE,
          pagesPerPass: RECONCILE_PAGES_PER_PASS,
        },
      );

      expect(await reconciler.pass()).toBe(1);
      expect(
        await ds.query('SELECT id::text FROM deliveries WHERE id = ANY($1::bigint[]) AND enqueued_at IS NULL', [all]),
      ).toEqual([{ id: lost }]);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  }, 60_000);

  it('re-enabling a callback while a failing attempt disables it clears the failure streak that did so', async () => {
    const update = new UpdateCallbackUseCase(callbacks, null as never);
    const cb = await callbacks.insert(ds.manager, {
      business_id: 7,
      mode: 'test',
      url: 'https://example.com/flaky',
      description: '',
      events: ['payment.completed'],
      secret: SECRET,
    });
    await ds.query("UPDATE callbacks SET failure_count = 49, failing_since = now() - interval '6 days' WHERE id = $1", [
      cb.id,
    ]);

    let enabling: Promise<unknown> | undefined;
    // The failing attempt's transaction (as DeliverAttemptUseCase records a failure): callback locked,
    // 50th failure, disabled.
    await ds.transaction(async (m) => {
      await callbacks.lock(m, cb.id);
      await callbacks.recordFailure(m, cb.id);
      await callbacks.disable(m, cb.id, 'failing for 5 days');
      // Meanwhile the merchant enables it: the use case reads it as still active, then its update waits for the lock.
      enabling = update.execute({ ctx, body: { id: cb.id, is_active: true } });
      await waitFor('the update to wait for the callback lock', async () => {
        const [{ n }] = await ds.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() ' +
            "AND wait_event_type = 'Lock' AND query LIKE 'UPDATE callbacks SET url%'",
        );
        return n === 1;
      });
    });
    expect(await enabling).toMatchObject({ is_active: true, failure_count: 0 });
    const [stored] = await ds.query(
      'SELECT is_active, failure_count, failing_since, disabled_reason FROM callbacks WHERE id = $1',
      [cb.id],
    );
    expect(stored).toEqual({ is_active: true, failure_count: 0, failing_since: null, disabled_reason: null });

    // Enabling one that is active leaves its streak alone.
    await ds.query('UPDATE callbacks SET failure_count = 3, failing_since = now() WHERE id = $1', [cb.id]);
    expect(await update.execute({ ctx, body: { id: cb.id, is_active: true } })).toMatchObject({
      is_active: true,
      failure_count: 3,
    });
  });
});
