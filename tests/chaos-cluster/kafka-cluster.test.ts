import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { ROOT } from '../support/infra';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { chaosEnv, chaosShop, expectEverythingSettled, firstOutcomeWebhook, keepServiceOutput } from '../chaos/settled';
import { PaymentLoad } from '../chaos/payment-load';
import { ClusterControl, underReplicated } from './cluster-control';

/** Payments a second; CHAOS_RATE lowers it on a machine shared with other work. */
const RATE = Number(process.env.CHAOS_RATE ?? 20);
const NODES = 3;

/**
 * The system on a three-node KRaft cluster (scripts/infra/kafka.sh, KAFKA_NODES=3), run by
 * `npm run chaos:cluster`, not `npm test`. Under load, the busiest partition's leader and then the
 * active controller are SIGKILLed and restarted: nothing may be lost or doubled. Then two nodes
 * stop, so fewer copies than min.insync.replicas are in sync: the outbox relay must fail loudly and
 * keep its rows until the nodes are back.
 */
describe('chaos: a Kafka cluster losing nodes', () => {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  let stack: Stack;
  let cluster: ClusterControl;
  let admin: Admin;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, chaosEnv(receiver, { DATABASE_POOL_SIZE: '10' }));
    cluster = new ClusterControl(stack.infra.KAFKA_BROKERS, NODES);
    await cluster.assertRestartable();
    admin = stack.kafka().admin();
    await admin.connect();
  }, 240_000);

  afterAll(async () => {
    keepServiceOutput(stack, 'chaos-cluster');
    // Whatever happened, the cluster is whole again for whoever runs next.
    await cluster?.up().catch(() => undefined);
    await admin?.disconnect();
    await stack?.stop();
    await receiver.stop();
  }, 240_000);

  /** An API answer that must be 200; otherwise the failure shows the body and the services' last output. */
  const ok = (res: { status: number; body: unknown }) => {
    if (res.status !== 200) {
      const tails = (['gateway', 'webhook-dispatcher', 'transaction-service'] as const)
        .map((a) => `--- ${a} ---\n${stack.app(a).output.slice(-1500)}`)
        .join('\n');
      throw new Error(`expected 200, got ${res.status} ${JSON.stringify(res.body)}\n${tails}`);
    }
  };

  const stackTopics = async () => (await admin.listTopics()).filter((t) => t.startsWith(stack.topicPrefix));

  /** The partition of this stack's topics that holds the most messages, and its leader. */
  async function busiestPartition(): Promise<{ topic: string; partition: number; messages: number; leader: number }> {
    let best = { topic: '', partition: -1, messages: -1 };
    for (const topic of await stackTopics()) {
      for (const o of await admin.fetchTopicOffsets(topic)) {
        const messages = Number(o.high) - Number(o.low);
        if (messages > best.messages) best = { topic, partition: o.partition, messages };
      }
    }
    const meta = await admin.fetchTopicMetadata({ topics: [best.topic] });
    return { ...best, leader: meta.topics[0]!.partitions.find((p) => p.partitionId === best.partition)!.leader };
  }

  const wholeAgain = async (what: string) =>
    waitFor(
      `${what}: every partition fully in sync again`,
      async () => (await underReplicated(admin, ['__consumer_offsets', ...(await stackTopics())])).length === 0,
      { timeoutMs: 180_000, intervalMs: 1_000 },
    );

  it('creates the topics with three copies and min.insync.replicas=2 (the cluster has three brokers)', async () => {
    expect((await admin.describeCluster()).brokers).toHaveLength(NODES);
    const topics = await stackTopics();
    expect(topics.length).toBeGreaterThan(5);
    const meta = await admin.fetchTopicMetadata({ topics });
    for (const t of meta.topics)
      for (const p of t.partitions)
        expect({ topic: t.name, replicas: p.replicas.length }).toEqual({ topic: t.name, replicas: 3 });
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({ type: 2, name, configNames: ['min.insync.replicas'] })),
    });
    for (const r of configs.resources)
      expect({ topic: r.resourceName, minIsr: r.configEntries[0]?.configValue }).toEqual({
        topic: r.resourceName,
        minIsr: '2',
      });
  });

  it('loses and doubles nothing while the busiest partition leader and then the active controller crash', async () => {
    const shop = await chaosShop(stack, receiver, '/cluster');
    const key = shop.key;

    const load = new PaymentLoad(stack, key, RATE);
    /** Webhooks flow: a payment accepted after `since` has had its outcome delivered. */
    const flowing = (what: string, since: number) =>
      waitFor(
        `${what}: webhooks of new payments arrive`,
        () => {
          const first = firstOutcomeWebhook(receiver, '/cluster');
          return load.accepted.some((p) => p.acceptedAt > since && first.has(p.reference));
        },
        { timeoutMs: 180_000, intervalMs: 250 },
      ).catch((err: Error) => {
        const last = receiver.at('/cluster').at(-1)?.at ?? 0;
        throw new Error(
          `${err.message}\naccepted ${load.accepted.length} of ${load.attempts} ` +
            `(${load.accepted.filter((p) => p.acceptedAt > since).length} since), ` +
            `last webhook ${Math.round((Date.now() - last) / 1000)} s ago, ` +
            `failures ${JSON.stringify([...load.failures])}; service output in .local/logs/chaos-cluster/`,
        );
      });
    const windows: Array<{ step: string; node: number; from: number; to: number; detail: string }> = [];
    load.start();
    try {
      await flowing('warm-up', 0);
      await waitFor('some load before the first crash', () => load.accepted.length > 10 * RATE, {
        timeoutMs: 60_000,
        intervalMs: 200,
      });

      const busiest = await busiestPartition();
      const controller = async () =>
        waitFor('an active controller', () => cluster.controller(), { timeoutMs: 60_000, intervalMs: 500 });
      const steps: Array<{ step: string; pick: () => Promise<{ node: number; detail: string }> }> = [
        {
          step: 'leader of the busiest partition',
          pick: async () => ({
            node: busiest.leader,
            detail:
              `${busiest.topic.slice(stack.topicPrefix.length)}/${busiest.partition} ` +
              `(${busiest.messages} messages)`,
          }),
        },
        {
          step: 'active controller',
          pick: async () => ({ node: await controller(), detail: '__cluster_metadata leader' }),
        },
      ];
      for (const { step, pick } of steps) {
        const { node, detail } = await pick();
        const from = Date.now();
        await cluster.kill(node);
        await waitFor(`load while node ${node} is down`, () => load.attempts > 0 && Date.now() - from > 5_000, {
          timeoutMs: 30_000,
          intervalMs: 200,
        });
        await flowing(`after the ${step} (node ${node}) crashed`, from);
        await cluster.up();
        await wholeAgain(`after node ${node} restarted`);
        await flowing(`after node ${node} is back`, Date.now());
        windows.push({ step, node, from, to: Date.now(), detail });
      }
    } finally {
      await load.stop();
    }
    expect(load.accepted.length).toBeGreaterThan(10 * RATE);
    expect(load.refundsAccepted).toBeGreaterThan(RATE);

    await expectEverythingSettled(stack, load, receiver, '/cluster', shop);

    // The longest stall: the largest time from an accepted initialize to its outcome's webhook,
    // for the payments accepted during each failover and for the calm before the first crash.
    const first = firstOutcomeWebhook(receiver, '/cluster');
    const latency = (p: { reference: string; acceptedAt: number }) => first.get(p.reference)! - p.acceptedAt;
    const stats = (list: typeof load.accepted) => {
      const l = list
        .filter((p) => first.has(p.reference))
        .map(latency)
        .sort((a, b) => a - b);
      return { payments: l.length, p50Ms: l[Math.floor(l.length / 2)] ?? 0, maxMs: l[l.length - 1] ?? 0 };
    };
    const calm = stats(load.accepted.filter((p) => p.acceptedAt < windows[0]!.from));
    const result = {
      date: new Date().toISOString(),
      rate: RATE,
      accepted: load.accepted.length,
      refunds: load.refundsAccepted,
      failures: Object.fromEntries(load.failures),
      calm,
      failovers: windows.map((w) => ({
        step: w.step,
        node: w.node,
        detail: w.detail,
        seconds: Math.round((w.to - w.from) / 1000),
        ...stats(load.accepted.filter((p) => p.acceptedAt >= w.from && p.acceptedAt <= w.to)),
      })),
      longestStallMs: Math.max(...load.accepted.filter((p) => first.has(p.reference)).map(latency)),
    };
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    writeFileSync(join(ROOT, '.local', 'chaos-cluster-result.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`chaos:cluster result\n${JSON.stringify(result, null, 2)}`);
  }, 900_000);

  it('keeps outbox rows while under min.insync.replicas, names the cause, sends them once nodes are back', async () => {
    const shop = await stack.createBusiness('Cluster ISR Shop');
    const key = shop.test.secret;
    ok(
      await stack.api('POST', '/v1/callback', {
        key,
        body: { url: receiver.url('/isr'), events: ['transaction.success'] },
      }),
    );
    const metric = async () => {
      const text = await (await fetch(stack.metricsUrl('transaction-service'))).text();
      return Number(
        /^outbox_relay_failures_total\{[^}]*reason="not_enough_replicas"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0,
      );
    };
    const failuresBefore = await metric();
    const outputBefore = stack.app('transaction-service').output.length;

    // Two of three nodes down (clean shutdowns: their partitions move to the last node, whose
    // copy is then the only one in sync).
    const last = await waitFor('an active controller', () => cluster.controller(), {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
    const others = [1, 2, 3].filter((n) => n !== last);
    try {
      for (const n of others) await cluster.stop(n);
      const references = Array.from({ length: 5 }, (_, i) => `isr-${stack.id}-${i}`);
      for (const reference of references) {
        const res = await stack.api('POST', '/v1/transactions', {
          key,
          body: {
            amount: 1500,
            email: 'isr@example.com',
            currency: 'USD',
            payment_method_code: 'ecocash',
            mobile_money_number: '0771234567',
            transaction_reference: reference,
            requested_response: 'success',
          },
        });
        ok(res);
      }
      const unsent = async () => {
        const { rows } = await stack.db('transaction-service').query<{ unsent: number; sent: number }>(
          `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS unsent,
                    count(*) FILTER (WHERE published_at IS NOT NULL)::int AS sent
             FROM outbox_events WHERE payload->'data'->'transaction'->>'transaction_reference' = ANY($1::text[])`,
          [references],
        );
        return rows[0]!;
      };
      // Loud: the metric counts the refused batches and the log names the cause.
      await waitFor('the relay to report NOT_ENOUGH_REPLICAS', async () => (await metric()) > failuresBefore, {
        timeoutMs: 120_000,
        intervalMs: 1_000,
      });
      const log = stack.app('transaction-service').output.slice(outputBefore);
      expect(log).toMatch(
        new RegExp(
          /outbox relay: Kafka did not take \d+ events: fewer brokers than min\.insync\.replicas /.source +
            /hold an in-sync copy of a partition \(NOT_ENOUGH_REPLICAS/.source,
        ),
      );
      // Nothing marked sent: every event of these payments is still in the outbox.
      const kept = await unsent();
      expect(kept.sent).toBe(0);
      expect(kept.unsent).toBeGreaterThanOrEqual(references.length);

      await cluster.up();
      await waitFor('the kept events to go out', async () => (await unsent()).unsent === 0, {
        timeoutMs: 180_000,
        intervalMs: 1_000,
      });
      await waitFor(
        'a transaction.success webhook for each payment',
        () => {
          const got = firstOutcomeWebhook(receiver, '/isr');
          return references.every((r) => got.has(r));
        },
        { timeoutMs: 180_000, intervalMs: 1_000 },
      );
      const outcomes = receiver
        .at('/isr')
        .map((h) => JSON.parse(h.body) as { event: string; data: { transaction_reference: string } })
        .filter((b) => b.event === 'transaction.success');
      expect(outcomes.map((b) => b.data.transaction_reference).sort()).toEqual([...references].sort());
    } finally {
      await cluster.up();
    }
  }, 600_000);
});
