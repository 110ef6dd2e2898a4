import { Stack, ALL_APPS } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { InfraControl, type InfraPiece } from './infra-control';
import { PaymentLoad } from './payment-load';
import { chaosEnv, chaosShop, expectEverythingSettled, keepServiceOutput } from './settled';

/** Payments a second; CHAOS_RATE lowers it on a machine shared with other work. */
const RATE = Number(process.env.CHAOS_RATE ?? 30);

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
    stack = await Stack.start(undefined, chaosEnv(receiver, { DATABASE_POOL_SIZE: '10' }));
    infra = new InfraControl(stack.infra);
    await infra.assertRestartable();
  }, 180_000);

  afterAll(async () => {
    keepServiceOutput(stack, 'chaos');
    await stack?.stop();
    await receiver.stop();
  }, 180_000);

  it('loses no payment, doubles no ledger entry and delivers every subscribed event once per id', async () => {
    const shop = await chaosShop(stack, receiver, '/chaos');
    const load = new PaymentLoad(stack, shop.key, RATE);
    load.start();
    const progressed = (what: string, before: number) =>
      waitFor(`${what}: payments accepted again`, () => load.accepted.length > before + RATE, {
        timeoutMs: 120_000,
        intervalMs: 200,
      });
    try {
      await progressed('warm-up', 0);
      for (const app of ALL_APPS) {
        const attempts = load.attempts;
        await stack.app(app).kill();
        // Let the load run into the crash for a couple of seconds' worth of requests.
        await waitFor(`load during the ${app} outage`, () => load.attempts >= attempts + 2 * RATE, {
          timeoutMs: 30_000,
          intervalMs: 100,
        });
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

    // Quiet now: everything in flight settles, then the services must agree and nothing is missing.
    await expectEverythingSettled(stack, load, receiver, '/chaos', shop);
  }, 600_000);
});
