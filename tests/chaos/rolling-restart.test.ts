import { ALL_APPS, Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { PaymentLoad, type ApiSender } from './payment-load';
import { chaosEnv, chaosShop, expectEverythingSettled, keepServiceOutput } from './settled';

/** Payments a second; CHAOS_RATE lowers it on a machine shared with other work. */
const RATE = Number(process.env.CHAOS_RATE ?? 20);
const REPLICAS = 2;

/**
 * A rolling restart (as `kubectl rollout restart`) of a two-replica stack under steady load: one
 * replica of each app at a time gets SIGTERM, must exit cleanly, and is started again before the
 * next goes. A gateway replica first leaves the load balancer's rotation, as a terminating pod
 * leaves its Service's endpoints (preStop covers the propagation); a service replica tells the
 * gateways itself (RPC goaway). Unlike a crash, a restart must refuse nothing, lose nothing and
 * apply nothing twice.
 */
describe('rolling restart: SIGTERM and start, replica by replica, under load', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, chaosEnv(receiver), {
      replicas: Object.fromEntries(ALL_APPS.map((app) => [app, REPLICAS])),
    });
  }, 240_000);

  afterAll(async () => {
    keepServiceOutput(stack, 'rolling-restart');
    await stack?.stop();
    await receiver.stop();
  }, 180_000);

  it('refuses no request, loses nothing and applies nothing twice', async () => {
    const shop = await chaosShop(stack, receiver, '/rolling');
    // The load balancer in front of the gateways: round robin over the replicas in rotation.
    const rotation = new Set(Array.from({ length: REPLICAS }, (_, i) => i));
    const inFlight = Array.from({ length: REPLICAS }, () => 0);
    let turn = 0;
    const send: ApiSender = async (method, path, opts) => {
      const live = [...rotation];
      const gateway = live[turn++ % live.length];
      inFlight[gateway]++;
      try {
        return await stack.api(method, path, { ...opts, gateway });
      } finally {
        inFlight[gateway]--;
      }
    };
    const load = new PaymentLoad(stack, shop.key, RATE, 200, send);
    const progressed = (what: string, before: number) =>
      waitFor(`${what}: payments accepted again`, () => load.accepted.length > before + RATE, {
        timeoutMs: 120_000,
        intervalMs: 200,
      });
    const restarts: string[] = [];
    load.start();
    try {
      await progressed('warm-up', 0);
      // Every Deployment rolls at once, as `kubectl rollout restart deployment` of them all does:
      // first replica 0 of each app, then replica 1, each started again before the next goes.
      for (let replica = 0; replica < REPLICAS; replica++) {
        load.phase = `replica ${replica} of every app restarting`;
        rotation.delete(replica);
        // The preStop sleep: SIGTERM comes once the requests the balancer routed to the replica
        // before it left the rotation have their answers (a pod keeps serving during its preStop).
        await waitFor(`requests routed to gateway replica ${replica} to be answered`, () => inFlight[replica] === 0, {
          timeoutMs: 30_000,
          intervalMs: 20,
        });
        const accepted = load.accepted.length;
        await Promise.all(
          ALL_APPS.map(async (app) => {
            const code = await stack.app(app, replica).stop();
            restarts.push(`${app}#${replica} exited ${code}`);
            await stack.startApp(app, {}, replica);
          }),
        );
        rotation.add(replica);
        await progressed(`after replica ${replica} of every app restarted`, accepted);
      }
      load.phase = 'after the restarts';
    } finally {
      await load.stop();
    }
    // Each replica stopped cleanly within its shutdown budget.
    expect(restarts.sort()).toEqual(
      ALL_APPS.flatMap((app) => Array.from({ length: REPLICAS }, (_, i) => `${app}#${i} exited 0`)).sort(),
    );
    expect(load.accepted.length).toBeGreaterThan(3 * RATE);
    expect(load.refundsAccepted).toBeGreaterThan(RATE);
    // Not one request refused (5xx), dropped or left without an answer. (A refund the API turns
    // down because its payment has not succeeded yet, 4xx, is an answer, and the load tries it later.)
    const refused = [...load.failures].filter(([why]) => !/(^|: )refund 4\d\d /.test(why));
    expect(Object.fromEntries(refused)).toEqual({});

    await expectEverythingSettled(stack, load, receiver, '/rolling', shop);
  }, 600_000);
});
