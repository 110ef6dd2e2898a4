import pino from 'pino';
import { CallbackGate } from './callback-gate';
import type { AttemptOutcome, DeliverAttemptUseCase, DeliveryJob } from './usecases/deliver-attempt.usecase';
import type { DeliveryStore, FannedOut } from './delivery-store';
import { FirstAttempts } from './first-attempts';
import type { WebhookDispatcherConfig } from '../config/webhook.config';

const row = (id: string, callback = 1, extra: Partial<FannedOut> = {}): FannedOut => ({
  id,
  callback_id: callback,
  status: 'pending',
  enqueue_count: 1,
  ...extra,
});
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
  const finish = new Map<string, () => void>();
  const released: string[][] = [];
  const attempt = {
    execute: (job: DeliveryJob) =>
      new Promise<AttemptOutcome>((resolve) => {
        calls.push(job);
        finish.set(job.deliveryId, () => resolve(outcomes[job.deliveryId] ?? 'delivered'));
      }),
  } as unknown as DeliverAttemptUseCase;
  const store = { releaseMany: async (ids: string[]) => void released.push(ids) } as unknown as DeliveryStore;
  const config = { WEBHOOK_WORKER_CONCURRENCY: limits.worker } as WebhookDispatcherConfig;
  const first = new FirstAttempts(
    store,
    attempt,
    new CallbackGate(limits.callback, 0),
    config,
    pino({ level: 'silent' }),
  );
  let woken = 0;
  first.wakeQueue = () => void woken++;
  return { first, calls, finish, released, woken: () => woken };
}

describe('FirstAttempts', () => {
  it('attempts each new pending delivery once, its first attempt, within the callback limit', async () => {
    const { first, calls, finish } = setup();
    first.dispatch([
      row('1'),
      row('2'),
      row('3'),
      row('4', 2),
      row('5', 1, { status: 'skipped' }),
      row('6', 1, { enqueue_count: 0 }),
    ]);
    first.dispatch([row('1')]);
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
    first.dispatch([row('a'), row('b', 2)]);
    await tick();
    finish.get('a')!();
    finish.get('b')!();
    await until(() => released.length === 1 && woken() === 2, 'the hand-back and both wake-ups');
    expect(released).toEqual([['a']]);
    expect(woken()).toBe(2);
  });

  it('on shutdown hands back what has not started and waits for attempts in flight', async () => {
    const { first, calls, finish, released } = setup({}, { callback: 1, worker: 10 });
    first.dispatch([row('x'), row('y')]);
    await tick();
    expect(first.accepting()).toBe(true);
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
    first.dispatch([row('x')]);
    await tick();
    const closed = first.beforeApplicationShutdown();
    await tick();
    first.dispatch([row('z')]);
    finish.get('x')!();
    await closed;
    expect(calls.map((c) => c.deliveryId)).toEqual(['x']);
    expect(released).toEqual([[], ['z']]);
  });
});
