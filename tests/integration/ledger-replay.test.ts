import { ConsumerGroups, Topics } from '@payments/contracts';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { settled, startPayment } from '../support/payments';

/** Sum of one outcome of kafka_events_consumed_total for a group and topic on an app's /metrics. */
async function consumed(url: string, group: string, topic: string, outcome: string): Promise<number> {
  const text = await (await fetch(url)).text();
  return text
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('kafka_events_consumed_total{') &&
        l.includes(`group="${group}"`) &&
        l.includes(`topic="${topic}"`) &&
        l.includes(`outcome="${outcome}"`),
    )
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/**
 * Replaying transaction.status_changed and refund.status_changed from offset 0 to the ledger's
 * consumer group (what an on-call engineer does after an incident) writes no entry twice: the
 * inbox recognises every event, and the ledger and its outbox stay exactly as they were.
 */
describe('ledger under a replay from the beginning', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const ledgerDb = () => stack.db('split-ledger-service');
  const snapshot = async () => ({
    entries: (
      await ledgerDb().query(
        'SELECT id, public_id, kind, amount::int AS amount, status FROM ledger_entries ORDER BY id',
      )
    ).rows,
    announced: (
      await ledgerDb().query("SELECT count(*)::int AS n FROM outbox_events WHERE topic = 'ledger.entry_created'")
    ).rows[0].n,
  });

  it('adds no entry when the consumer group is reset to the earliest offsets', async () => {
    const owner = await stack.createBusiness('Replay Owner');
    const partner = await stack.createBusiness('Replay Partner');
    const created = await stack.api('POST', '/v1/splits/config', {
      key: owner.test.secret,
      body: {
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 1_000,
        split_role: 'fee',
        currency: 'USD',
      },
    });
    expect(created.status).toBe(200);

    const references: string[] = [];
    for (const amount of [10_000, 2_500]) {
      const reference = `replay-${amount}`;
      await startPayment(stack, owner.test.secret, reference, { amount, payment_method_type: 'mobile_money' });
      references.push(reference);
    }
    for (const reference of references) await settled(stack, owner.test.secret, reference);
    const refund = await stack.api('POST', '/v1/transactions/refund', {
      key: owner.test.secret,
      body: { transaction_reference: references[0], amount: 5_000 },
    });
    expect(refund.status).toBe(200);

    // 1 000 + 250 owed, then half of the 1 000 reversed.
    await waitFor('the entries and the reversal', async () => (await snapshot()).entries.length === 3);
    // The gateway's RPC connection may need a retry after the ledger restarts.
    const summaryOf = () =>
      waitFor('the summary', async () => {
        const res = await stack.api('GET', '/v1/splits/ledger/summary', { key: partner.test.secret });
        return res.status === 200 ? res.body : undefined;
      });
    expect(await summaryOf()).toEqual({
      result: 'success',
      summary: { owed_to_you: [{ currency: 'USD', total: 750 }], you_owe: [] },
    });
    // Every event so far is in the inbox (the refund's success is the last one).
    await waitFor('the refund events to be consumed', async () => {
      const { rows } = await ledgerDb().query('SELECT status FROM ledger_refunds');
      return rows[0]?.status === 'success';
    });
    const before = await snapshot();
    const inbox = (await ledgerDb().query('SELECT topic, count(*)::int AS n FROM processed_events GROUP BY topic'))
      .rows as { topic: string; n: number }[];
    const applied = (topic: string) => inbox.find((r) => r.topic === `${stack.topicPrefix}${topic}`)?.n ?? 0;
    expect(applied(Topics.TransactionStatusChanged)).toBeGreaterThanOrEqual(6);
    expect(applied(Topics.RefundStatusChanged)).toBe(2);

    // Stop the ledger (it leaves the group), rewind the group on both topics, start it again.
    await stack.app('split-ledger-service').stop();
    const admin = stack.kafka().admin();
    await admin.connect();
    try {
      const groupId = `${stack.topicPrefix}${ConsumerGroups.SplitLedger}`;
      await waitFor(
        'the group to be empty',
        async () => (await admin.describeGroups([groupId])).groups[0].state === 'Empty',
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      for (const topic of [Topics.TransactionStatusChanged, Topics.RefundStatusChanged]) {
        await admin.resetOffsets({ groupId, topic: `${stack.topicPrefix}${topic}`, earliest: true });
      }
      const offsets = await admin.fetchOffsets({
        groupId,
        topics: [`${stack.topicPrefix}${Topics.TransactionStatusChanged}`],
      });
      // kafkajs commits its "earliest" marker (-2) or 0: nothing consumed as far as the group knows.
      for (const p of offsets[0].partitions) expect(Number(p.offset)).toBeLessThanOrEqual(0);
    } finally {
      await admin.disconnect();
    }
    const ledger = await stack.startApp('split-ledger-service');

    // The restarted process counts from zero: it has re-read everything once it has seen every event again,
    // as a duplicate.
    const metrics = ledger.url('/metrics');
    await waitFor(
      'the whole history to be consumed again',
      async () =>
        (await consumed(metrics, ConsumerGroups.SplitLedger, Topics.TransactionStatusChanged, 'duplicate')) >=
          applied(Topics.TransactionStatusChanged) &&
        (await consumed(metrics, ConsumerGroups.SplitLedger, Topics.RefundStatusChanged, 'duplicate')) >=
          applied(Topics.RefundStatusChanged),
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(await consumed(metrics, ConsumerGroups.SplitLedger, Topics.TransactionStatusChanged, 'applied')).toBe(0);
    expect(await consumed(metrics, ConsumerGroups.SplitLedger, Topics.RefundStatusChanged, 'applied')).toBe(0);

    expect(await snapshot()).toEqual(before);
    expect(await summaryOf()).toEqual({
      result: 'success',
      summary: { owed_to_you: [{ currency: 'USD', total: 750 }], you_owe: [] },
    });
  }, 180_000);
});
