import { AssignerProtocol, type Admin } from 'kafkajs';
import { ConsumerGroups, Topics } from '@payments/contracts';
import { Stack } from '../support/stack';
import type { AppName } from '../support/processes';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { chaosEnv, chaosShop, expectEverythingSettled, keepServiceOutput } from './settled';
import { PaymentLoad } from './payment-load';

const RATE = Number(process.env.CHAOS_RATE ?? 30) / 3;
const PARTITIONS = 6;
const REPLICAS = 3;
const SCALED: Array<{ app: AppName; group: string }> = [
  { app: 'webhook-dispatcher', group: ConsumerGroups.WebhookDispatcher },
  { app: 'split-ledger-service', group: ConsumerGroups.SplitLedger },
];

/**
 * Consumers scale out by partitions: with six partitions per topic and three replicas of the
 * webhook dispatcher and of the ledger, each group's partitions are spread over the three
 * replicas; when one replica is killed its partitions move to the other two, and no effect is
 * applied twice (ledger exact, each webhook once) nor lost.
 */
describe('consumer scaling: partitions across replicas', () => {
  const receiver = new WebhookReceiver(selfSignedCertificate());
  let stack: Stack;
  let admin: Admin;

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, chaosEnv(receiver, { KAFKA_PARTITIONS: String(PARTITIONS) }), {
      replicas: { 'webhook-dispatcher': REPLICAS, 'split-ledger-service': REPLICAS },
    });
    admin = stack.kafka().admin();
    await admin.connect();
  }, 240_000);

  afterAll(async () => {
    keepServiceOutput(stack, 'consumer-scaling');
    await admin?.disconnect();
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  /** Which partitions of `topic` each member of the group holds, by the replica (its pid) behind the member. */
  async function assignment(
    app: AppName,
    group: string,
    topic: string,
  ): Promise<{ state: string; byReplica: Map<number, number[]> }> {
    const { groups } = await admin.describeGroups([`${stack.topicPrefix}${group}`]);
    const g = groups[0]!;
    const pids = new Map(
      Array.from({ length: stack.replicaCount(app) }, (_, i) => [stack.app(app, i).child.pid, i] as const),
    );
    const byReplica = new Map<number, number[]>();
    for (const m of g.members) {
      const pid = Number(/-(\d+)$/.exec(m.clientId)?.[1]);
      const replica = pids.get(pid);
      if (replica === undefined) throw new Error(`member ${m.clientId} is no replica of ${app}`);
      const decoded = AssignerProtocol.MemberAssignment.decode(m.memberAssignment);
      byReplica.set(
        replica,
        [...(byReplica.get(replica) ?? []), ...(decoded?.assignment[`${stack.topicPrefix}${topic}`] ?? [])].sort(
          (a, b) => a - b,
        ),
      );
    }
    return { state: g.state, byReplica };
  }

  /** Waits for a stable group of exactly `replicas` members sharing the topic's partitions, each held once. */
  const spreadOver = (app: AppName, group: string, replicas: number[]) =>
    waitFor(
      `${group}'s partitions spread over replicas ${replicas.join(', ')}`,
      async () => {
        const a = await assignment(app, group, Topics.TransactionStatusChanged);
        if (a.state !== 'Stable' || [...a.byReplica.keys()].sort().join() !== replicas.join()) return undefined;
        const all = [...a.byReplica.values()].flat().sort((x, y) => x - y);
        if (all.join() !== Array.from({ length: PARTITIONS }, (_, i) => i).join()) return undefined;
        return [...a.byReplica.values()].every((p) => p.length > 0) ? a.byReplica : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );

  it("spreads partitions over replicas; a killed replica's partitions go to others, no effect doubled", async () => {
    for (const { app, group } of SCALED) {
      const spread = await spreadOver(app, group, [0, 1, 2]);
      // Six partitions over three replicas: two each.
      expect([...spread.values()].map((p) => p.length)).toEqual([2, 2, 2]);
    }

    const shop = await chaosShop(stack, receiver, '/scaling');
    const load = new PaymentLoad(stack, shop.key, RATE);
    load.start();
    try {
      await waitFor('load before the crash', () => load.accepted.length > 5 * RATE, {
        timeoutMs: 60_000,
        intervalMs: 200,
      });
      // One replica of each consumer crashes in the middle of the load.
      await Promise.all(SCALED.map(({ app }) => stack.app(app, 2).kill()));
      for (const { app, group } of SCALED) {
        const moved = await spreadOver(app, group, [0, 1]);
        expect([...moved.values()].map((p) => p.length)).toEqual([3, 3]);
      }
      const accepted = load.accepted.length;
      await waitFor('load after the partitions moved', () => load.accepted.length > accepted + 5 * RATE, {
        timeoutMs: 60_000,
        intervalMs: 200,
      });
    } finally {
      await load.stop();
    }

    await expectEverythingSettled(stack, load, receiver, '/scaling', shop);
  }, 300_000);
});
