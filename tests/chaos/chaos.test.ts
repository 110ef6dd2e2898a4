import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { opsCommand } from '../support/ops';
import { Stack, ALL_APPS } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { InfraControl, type InfraPiece } from './infra-control';
import { PaymentLoad } from './payment-load';

const run = promisify(execFile);

/** Payments a second; CHAOS_RATE lowers it on a machine shared with other work. */
const RATE = Number(process.env.CHAOS_RATE ?? 30);
const SUBSCRIBED = ['transaction.success', 'transaction.failed', 'refund.success', 'refund.failed'];

/**
 * Under steady load (payments with splits, refunds, webhooks to an HTTPS receiver): every service
 * killed with SIGKILL and started again in turn, then Kafka, Redis and PostgreSQL restarted once
 * each. Afterwards `ops reconcile` finds no difference between the services, every payment the API
 * accepted exists, the receiver got every subscribed event, and no webhook-id stood for two events.
 */
describe('chaos: crashes and restarts under load', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;
  let infra: InfraControl;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, {
      ...receiver.dispatcherEnv(),
      // Retries close together, so deliveries failed during an outage are through within the test.
      WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,3,3,5,5,5,5,5,5',
      WEBHOOK_TIMEOUT_MS: '5000',
      RATE_LIMIT_PER_SECOND: '1000',
      DATABASE_POOL_SIZE: '10',
    });
    infra = new InfraControl(stack.infra);
    await infra.assertRestartable();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 180_000);

  const ops = async (...args: string[]) => {
    const env = { PATH: process.env.PATH ?? '', GATEWAY_URL: stack.gatewayUrl, ADMIN_API_TOKEN: stack.adminToken, KAFKA_BROKERS: stack.infra.KAFKA_BROKERS };
    try {
      const { stdout } = await run(process.execPath, [...opsCommand(), ...args], { env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
      return { code: 0, out: stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: `${e.stdout}${e.stderr}` };
    }
  };

  it('loses no payment, doubles no ledger entry and delivers every subscribed event once per id', async () => {
    const shop = await stack.createBusiness('Chaos Shop');
    const partner = await stack.createBusiness('Chaos Partner');
    const key = shop.test.secret;
    expect((await stack.api('POST', '/v1/splits/config', { key, body: { partner_business_id: partner.id, split_type: 'percentage', split_value: 333, split_role: 'fee', currency: 'USD' } })).status).toBe(200);
    expect((await stack.api('POST', '/v1/callback', { key, body: { url: receiver.url('/chaos'), events: SUBSCRIBED } })).status).toBe(200);

    const load = new PaymentLoad(stack, key, RATE);
    load.start();
    const progressed = (what: string, before: number) => waitFor(`${what}: payments accepted again`, () => load.accepted.length > before + RATE, { timeoutMs: 120_000, intervalMs: 200 });
    try {
      await progressed('warm-up', 0);
      for (const app of ALL_APPS) {
        const attempts = load.attempts;
        await stack.app(app).kill();
        // Let the load run into the crash for a couple of seconds' worth of requests.
        await waitFor(`load during the ${app} outage`, () => load.attempts >= attempts + 2 * RATE, { timeoutMs: 30_000, intervalMs: 100 });
        const accepted = load.accepted.length;
        await stack.startApp(app);
        await progressed(`after ${app} restarted`, accepted);
      }
      for (const piece of ['kafka', 'redis', 'postgres'] as InfraPiece[]) {
        await infra.restart(piece);
        await progressed(`after ${piece} restarted`, load.accepted.length);
      }
    } finally {
      await load.stop();
    }
    expect(load.accepted.length).toBeGreaterThan(10 * RATE);
    expect(load.refundsAccepted).toBeGreaterThan(RATE);

    // Quiet now: everything in flight settles, then the services must agree.
    const reconciled = await waitFor('ops reconcile to find no difference', async () => {
      const r = await ops('reconcile');
      return r.code === 0 ? r : undefined;
    }, { timeoutMs: 180_000, intervalMs: 3_000 }).catch(async (err) => {
      throw new Error(`${(err as Error).message}\n${(await ops('reconcile')).out.slice(0, 4000)}\nload failures: ${JSON.stringify([...load.failures])}`);
    });
    expect(reconciled.out).toMatch(/^0 differences \(\d+ transactions, \d+ webhook events\)$/m);

    // No accepted payment lost: each is found by its reference, in a final state.
    for (let i = 0; i < load.accepted.length; i += 25) {
      const batch = load.accepted.slice(i, i + 25);
      const found = await Promise.all(batch.map(async (p) => ({ reference: p.reference, status: (await stack.api('GET', `/v1/transactions/verify?reference=${p.reference}`, { key })).body.status })));
      expect(found).toEqual(batch.map((p) => ({ reference: p.reference, status: p.success ? 'success' : 'failed' })));
    }

    // Every subscribed event reached the receiver; a webhook-id always stood for the same event.
    const { rows: events } = await stack.db('webhook-dispatcher').query<{ id: string }>(
      'SELECT id FROM webhook_events WHERE business_id = $1 AND event_type = ANY($2::text[])',
      [shop.id, SUBSCRIBED],
    );
    expect(events.length).toBeGreaterThan(load.accepted.length);
    await waitFor('the receiver to have every subscribed event', () => {
      const got = new Set(receiver.at('/chaos').map((h) => h.headers['webhook-id']));
      return events.every((e) => got.has(e.id));
    }, { timeoutMs: 120_000, intervalMs: 1_000 });
    const bodyOf = new Map<string, string>();
    for (const hit of receiver.at('/chaos')) {
      const { id, event, data } = JSON.parse(hit.body) as { id: string; event: string; data: unknown };
      expect(id).toBe(hit.headers['webhook-id']);
      const seen = bodyOf.get(id);
      const now = JSON.stringify({ event, data });
      if (seen !== undefined) expect(now).toBe(seen);
      bodyOf.set(id, now);
    }
  }, 600_000);
});
