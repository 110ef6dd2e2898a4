import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Queues } from '@payments/contracts';
import { freePort, startApp, type AppProcess } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { startPayment } from '../support/payments';

/** Every answer of the receiver waits for the next multiple of this: the attempts in flight end together. */
const TICK_MS = 300;
const WAVES = 3;
const PAYMENTS_PER_WAVE = 24;
/**
 * Deliveries per payment: transaction.pending/processing/success, payment.created, payment.updated twice,
 * payment.completed.
 */
const PER_PAYMENT = 7;

/**
 * Two webhook-dispatcher processes share the consumer group and queue, delivering to one slow receiver. In-process
 * first attempts waiting for one of the four attempt slots hold no lock (the fan-out claims only attempts that can
 * start at once, and none while any waits), so the other process's reconciler (every
 * 200 ms, rows overdue by 300 ms) queues them again: one delivery can then be claimed by its in-process attempt and a
 * queue job at the same moment, in one grouped statement. The receiver answers on a clock tick so attempts end, and
 * the next claims go out, together; the callback's limit (100) is above both processes' slots, so the slots pace it.
 *
 * Each webhook-id must reach the receiver exactly once: no lock expires here (a claim is held for
 * WEBHOOK_TIMEOUT_MS + 5 s and every answer comes within TICK_MS), so nothing may send twice.
 */
describe('two webhook dispatchers and a slow receiver', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  const dispatcherEnv = {
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
    WEBHOOK_RECONCILE_INTERVAL_MS: '200',
    WEBHOOK_RECONCILE_GRACE_MS: '300',
    WEBHOOK_CALLBACK_CONCURRENCY: '100',
    WEBHOOK_WORKER_CONCURRENCY: '4',
  };
  let stack: Stack;
  let second: AppProcess;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(['transaction-service', 'webhook-dispatcher', 'gateway'], {
      ...receiver.dispatcherEnv(),
      ...dispatcherEnv,
    });
    const [rpc, http] = [await freePort(), await freePort()];
    second = startApp(
      'webhook-dispatcher',
      { ...stack.envFor('webhook-dispatcher'), RPC_PORT: String(rpc), HTTP_PORT: String(http) },
      http,
    );
    await second.waitReady();
  }, 120_000);

  afterAll(async () => {
    await second?.stop().catch(() => second.kill());
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  it('sends each webhook-id exactly once while the reconciler of one queues what the other still holds', async () => {
    receiver.script('/slow', [200], () => TICK_MS - (Date.now() % TICK_MS));
    const keys = await stack.createBusiness('Two Dispatchers');
    const created = await stack.api('POST', '/v1/callback', {
      key: keys.test.secret,
      body: {
        url: receiver.url('/slow'),
        events: [
          'transaction.pending',
          'transaction.processing',
          'transaction.success',
          'payment.created',
          'payment.updated',
          'payment.completed',
        ],
      },
    });
    expect(created.status).toBe(200);

    const hooks = stack.db('webhook-dispatcher');
    const byStatus = async () => {
      const { rows } = await hooks.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM deliveries GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    };
    // Bursts, each sent in full before the next: every burst starts both processes' attempts together again.
    for (let wave = 1; wave <= WAVES; wave++) {
      for (let i = 0; i < PAYMENTS_PER_WAVE; i++)
        await startPayment(stack, keys.test.secret, `two-dispatchers-${wave}-${i}`);
      await waitFor(
        `every delivery of burst ${wave} to succeed`,
        async () => (await byStatus()).succeeded === wave * PAYMENTS_PER_WAVE * PER_PAYMENT,
        {
          timeoutMs: 60_000,
          intervalMs: 250,
        },
      );
    }
    const expected = WAVES * PAYMENTS_PER_WAVE * PER_PAYMENT;

    // Jobs queued again for deliveries already sent may still be waiting or running: they must find nothing to send.
    const connection = new IORedis(stack.infra.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(Queues.WebhookDeliveries, { connection, prefix: `bull:${stack.topicPrefix}` });
    try {
      await waitFor('the queue to drain', async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        return Object.values(counts).every((n) => n === 0);
      });
    } finally {
      await queue.close();
      connection.disconnect();
    }

    const times = new Map<string, number>();
    for (const r of receiver.at('/slow'))
      times.set(r.headers['webhook-id'], (times.get(r.headers['webhook-id']) ?? 0) + 1);
    const sentMoreThanOnce = [...times].filter(([, n]) => n > 1);
    expect({ distinct: times.size, sentMoreThanOnce }).toEqual({ distinct: expected, sentMoreThanOnce: [] });
    expect(await byStatus()).toEqual({ succeeded: expected });
    const { rows: attempts } = await hooks.query<{ n: number }>('SELECT count(*)::int AS n FROM delivery_attempts');
    expect(attempts[0].n).toBe(expected);
    // The overlap this test is about did happen: the reconciler queued deliveries a process was still holding.
    const { rows: requeued } = await hooks.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deliveries WHERE enqueue_count > 1',
    );
    expect(requeued[0].n).toBeGreaterThan(0);
  }, 240_000);
});
