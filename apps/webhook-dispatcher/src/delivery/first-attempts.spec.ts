import pino from 'pino';
import { CallbackGate } from './callback-gate';
import type { AttemptOutcome, DeliverAttemptUseCase, DeliveryJob } from './usecases/deliver-attempt.usecase';
import type { ClaimedAttempt } from './delivery-rows';
import type { DeliveryRow, DeliveryStore, FannedOut, FirstAttemptClaims, WebhookEventRow } from './delivery-store';
import { FirstAttempts } from './first-attempts';
import type { WebhookDispatcherConfig } from '../config/webhook.config';

const row = (id: string, callback = 1, extra: Partial<FannedOut> = {}): FannedOut => ({
  id,
  callback_id: callback,
  status: 'pending',
  enqueue_count: 1,
  claimed: null,
  ...extra,
});
/** A delivery the fan-out claimed, with its claim's token. */
const claimedRow = (id: string, callback = 1): FannedOut =>
  row(id, callback, {
    claimed: {
      delivery: { id, lock_token: `token-${id}`, attempts: 0 } as DeliveryRow,
      callback: null,
      event: {} as WebhookEventRow,
    },
  });
const now = () => performance.now();
const tick = () => new Promise((r) => setImmediate(r));
/** Lets the promise chains run until `done` holds, with a deadline rather than a guessed number of ticks. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

function setup(outcomes: Record<string, AttemptOutcome> = {}, limits = { callback: 2, worker: 10 }) {
  const calls: DeliveryJob[] = [];
  /** The claim each attempt was given (its token), or null when it claims for itself. */
  const claims: (string | null)[] = [];
  const finish = new Map<string, () => void>();
  const released: string[][] = [];
  /** What releaseMany was given, tokens included. */
  const releasedRows: { id: string; lockToken: string | null }[][] = [];
  const attempt = {
    execute: (job: DeliveryJob, claimed?: ClaimedAttempt) =>
      new Promise<AttemptOutcome>((resolve) => {
        calls.push(job);
        claims.push(claimed?.delivery.lock_token ?? null);
        finish.set(job.deliveryId, () => resolve(outcomes[job.deliveryId] ?? 'delivered'));
      }),
  } as unknown as DeliverAttemptUseCase;
  /** The claims renewed (their old token), and what the database answers: a claim renewed unless `lost`. */
  const renewed: string[] = [];
  const lost = new Set<string>();
  const store = {
    releaseMany: async (rows: { id: string; lockToken: string | null }[]) => {
      released.push(rows.map((r) => r.id));
      releasedRows.push(rows);
    },
    renewClaim: async (claim: DeliveryRow) => {
      renewed.push(claim.lock_token!);
      if (claim.id === 'broken') throw new Error('connection lost');
      if (lost.has(claim.id)) return null;
      return { delivery: { ...claim, lock_token: `renewed-${claim.id}` }, callback: null, event: {} };
    },
  } as unknown as DeliveryStore;
  const config = {
    WEBHOOK_WORKER_CONCURRENCY: limits.worker,
    WEBHOOK_CALLBACK_CONCURRENCY: limits.callback,
    WEBHOOK_TIMEOUT_MS: 2_000,
  } as WebhookDispatcherConfig;
  const first = new FirstAttempts(
    store,
    attempt,
    new CallbackGate(limits.callback, 0),
    config,
    pino({ level: 'silent' }),
  );
  let woken = 0;
  first.wakeQueue = () => void woken++;
  return { first, calls, claims, finish, released, releasedRows, renewed, lost, woken: () => woken };
}

describe('FirstAttempts', () => {
  it('attempts each new pending delivery once, its first attempt, within the callback limit', async () => {
    const { first, calls, finish } = setup();
    first.dispatch(
      [
        row('1'),
        row('2'),
        row('3'),
        row('4', 2),
        row('5', 1, { status: 'skipped' }),
        row('6', 1, { enqueue_count: 0 }),
      ],
      now(),
    );
    first.dispatch([row('1')], now());
    await tick();
    expect(calls.map((c) => c.deliveryId)).toEqual(['1', '2', '4']);
    expect(calls.every((c) => c.attempt === 0)).toBe(true);
    expect(first.holds('3')).toBe(true);
    finish.get('1')!();
    await until(() => calls.length === 4, 'the queued delivery of callback 1 to start');
    expect(calls.map((c) => c.deliveryId)).toEqual(['1', '2', '4', '3']);
    expect(first.holds('1')).toBe(false);
  });

  it('hands a busy delivery back to the queue and wakes it after a failure', async () => {
    const { first, finish, released, woken } = setup({ a: 'busy', b: 'retry' });
    first.dispatch([row('a'), row('b', 2)], now());
    await tick();
    finish.get('a')!();
    finish.get('b')!();
    await until(() => released.length === 1 && woken() === 2, 'the hand-back and both wake-ups');
    expect(released).toEqual([['a']]);
    expect(woken()).toBe(2);
  });

  it('on shutdown hands back what has not started and waits for attempts in flight', async () => {
    const { first, calls, finish, released } = setup({}, { callback: 1, worker: 10 });
    first.dispatch([row('x'), row('y')], now());
    await tick();
    // Accepting; y waits at the gate, so the fan-out claims none now (for the attempt's claim time and a second more).
    expect(first.accepting()).toEqual({ most: 0, perCallbackLimit: 1, lockSeconds: 8 });
    const closed = first.beforeApplicationShutdown();
    expect(first.accepting()).toBe(false);
    await tick();
    expect(released).toEqual([['y']]);
    let done = false;
    void closed.then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    finish.get('x')!();
    await closed;
    expect(calls.map((c) => c.deliveryId)).toEqual(['x']);
    // y, queued at x's callback gate, was handed back once and not again when it got there: never attempted.
    expect(released).toEqual([['y']]);
  });

  it('on shutdown hands back a delivery committed after shutdown began when it reaches its slot', async () => {
    const { first, calls, finish, released } = setup({}, { callback: 1, worker: 10 });
    first.dispatch([row('x')], now());
    await tick();
    const closed = first.beforeApplicationShutdown();
    await tick();
    first.dispatch([row('z')], now());
    finish.get('x')!();
    await closed;
    expect(calls.map((c) => c.deliveryId)).toEqual(['x']);
    expect(released).toEqual([[], ['z']]);
  });

  it('attempts a delivery the fan-out claimed on that claim, one claimed too long ago on a renewed claim', async () => {
    const { first, calls, claims, renewed, lost, releasedRows } = setup({}, { callback: 5, worker: 10 });
    first.dispatch([claimedRow('fresh'), row('unclaimed')], now());
    // The fan-out was sent over a second ago: its claim leaves the attempt less than its full time.
    first.dispatch([claimedRow('stale', 2)], now() - 1_500);
    lost.add('gone');
    first.dispatch([claimedRow('gone', 3)], now() - 1_500);
    await until(() => calls.length === 3 && renewed.length === 2, 'the attempts to start');
    expect(calls.map((c) => c.deliveryId)).toEqual(['fresh', 'unclaimed', 'stale']);
    expect(claims).toEqual(['token-fresh', null, 'renewed-stale']);
    expect(renewed).toEqual(['token-stale', 'token-gone']);
    // The claim of `gone` had moved on (cancelled, or another worker's): not attempted, not handed back.
    await until(() => !first.holds('gone'), 'gone to be let go');
    expect(releasedRows).toEqual([]);
  });

  it('claims nothing in the fan-out while an attempt waits, and serves claimed attempts first', async () => {
    const { first, calls, finish } = setup({}, { callback: 1, worker: 10 });
    const terms = first.accepting() as FirstAttemptClaims;
    expect(terms).toMatchObject({ most: 10, perCallbackLimit: 1 });
    first.fannedOut(terms, []);
    first.dispatch([row('a'), row('b')], now());
    await tick();
    // b waits at its callback's gate: a claim made now would be held while it waits.
    expect(first.accepting()).toMatchObject({ most: 0 });
    first.dispatch([claimedRow('c')], now());
    finish.get('a')!();
    await until(() => calls.length === 2, 'the next attempt');
    expect(calls.map((c) => c.deliveryId)).toEqual(['a', 'c']);
    finish.get('c')!();
    await until(() => calls.length === 3, 'the last attempt');
    finish.get('b')!();
    await until(() => !first.holds('b'), 'b to finish');
    expect(first.accepting()).toMatchObject({ most: 10 });
  });

  it('lets go of the fan-out claims of what it hands back unattempted, and of none it attempted', async () => {
    const { first, finish, releasedRows } = setup({ a: 'busy' }, { callback: 1, worker: 10 });
    first.dispatch([claimedRow('a'), claimedRow('b'), row('c')], now());
    await tick();
    // a is attempted on its claim; b and c wait at their callback's gate: shutdown hands them back, b's claim too.
    const closed = first.beforeApplicationShutdown();
    await until(() => releasedRows.length === 1, 'the shutdown hand-back');
    expect(releasedRows).toEqual([
      [
        { id: 'b', lockToken: 'token-b' },
        { id: 'c', lockToken: null },
      ],
    ]);
    // a comes back busy: handed back too, its claim (an attempt was made on it) left to lapse.
    finish.get('a')!();
    await closed;
    expect(releasedRows).toEqual([releasedRows[0], [{ id: 'a', lockToken: null }]]);
  });

  it('lets one fan-out claim at a time, until its claims are dispatched or it claimed none', async () => {
    const { first } = setup({}, { callback: 5, worker: 10 });
    const terms = first.accepting() as FirstAttemptClaims;
    expect(terms.most).toBe(10);
    // A second fan-out beside it (another partition or topic) claims none.
    expect(first.accepting()).toMatchObject({ most: 0 });
    // The first claimed nothing: the next may claim.
    first.fannedOut(terms, [row('a')]);
    const next = first.accepting() as FirstAttemptClaims;
    expect(next.most).toBe(10);
    // This one claimed: none other claims until its claims are dispatched (after its commit).
    first.fannedOut(next, [claimedRow('b')]);
    expect(first.accepting()).toMatchObject({ most: 0 });
    first.dispatch([claimedRow('b')], now(), next);
    await tick();
    // b's attempt holds a worker slot.
    expect(first.accepting()).toMatchObject({ most: 9 });
  });

  it('serves claimed attempts first at the worker slots, and claims none while one waits for a slot', async () => {
    const { first, calls, finish, releasedRows } = setup({}, { callback: 5, worker: 1 });
    first.dispatch([row('a'), row('b', 2)], now());
    await tick();
    // b waits for the one worker slot.
    expect(first.accepting()).toMatchObject({ most: 0 });
    first.dispatch([claimedRow('c', 3), claimedRow('broken', 4)], now() - 1_500);
    finish.get('a')!();
    await until(() => calls.length === 2, 'the next attempt');
    // c, claimed, went before b.
    expect(calls.map((x) => x.deliveryId)).toEqual(['a', 'c']);
    finish.get('c')!();
    // broken's renewal failed: handed back with its fan-out claim let go (no attempt was made on it).
    await until(() => releasedRows.length === 1, 'the hand-back of broken');
    expect(releasedRows).toEqual([[{ id: 'broken', lockToken: 'token-broken' }]]);
    await until(() => calls.length === 3, 'b to start');
    expect(calls.map((x) => x.deliveryId)).toEqual(['a', 'c', 'b']);
  });
});
