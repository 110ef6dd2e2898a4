import IORedis from 'ioredis';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

/**
 * Killing the dispatcher in the middle of deliveries — and losing its queued jobs in Redis as
 * well — loses no delivery: the database rows are the source of truth and a restart queues again
 * whatever has no live job.
 */
describe('webhook dispatcher crash and restart', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, {
      ...receiver.dispatcherEnv(),
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_CALLBACK_CONCURRENCY: '2',
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  it('delivers every event after kill -9 and a wiped queue', async () => {
    receiver.script('/crash', [200], 250);
    const keys = await stack.createBusiness('Crashy');
    const created = await stack.api('POST', '/v1/callback', {
      key: keys.test.secret,
      body: {
        url: receiver.url('/crash'),
        events: ['transaction.pending', 'transaction.processing', 'transaction.success'],
      },
    });
    expect(created.status).toBe(200);

    const payments = 8;
    for (let i = 0; i < payments; i++) {
      const res = await stack.api('POST', '/v1/transactions', {
        key: keys.test.secret,
        body: {
          amount: 100 + i,
          email: 'c@example.com',
          currency: 'USD',
          payment_method_code: 'ecocash',
          mobile_money_number: '0771111111',
          transaction_reference: `crash-${i}`,
        },
      });
      expect(res.status).toBe(200);
    }
    const expected = payments * 3;
    const hooks = stack.db('webhook-dispatcher');
    await waitFor('some deliveries to be under way', () => receiver.at('/crash').length >= 3, { timeoutMs: 30_000 });

    await stack.app('webhook-dispatcher').kill();
    const redis = new IORedis(stack.infra.REDIS_URL);
    try {
      const queued = await redis.keys(`bull:${stack.topicPrefix}*`);
      if (queued.length > 0) await redis.del(...queued);
    } finally {
      redis.disconnect();
    }
    const before = new Set(receiver.at('/crash').map((r) => r.headers['webhook-id'])).size;
    expect(before).toBeLessThan(expected);

    await stack.startApp('webhook-dispatcher');
    await waitFor(
      'every event at the receiver',
      () => new Set(receiver.at('/crash').map((r) => r.headers['webhook-id'])).size === expected,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await waitFor('every delivery recorded as succeeded', async () => {
      const { rows } = await hooks.query("SELECT count(*)::int AS n FROM deliveries WHERE status = 'succeeded'");
      return rows[0].n === expected;
    });
  }, 120_000);
});
