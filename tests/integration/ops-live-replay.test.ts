import { randomUUID } from 'node:crypto';
import type { Admin, Producer } from 'kafkajs';
import { ConsumerGroups, Topics, deadLetterTopic, replayTopic } from '@payments/contracts';
import { committedOffsets, runOps, stackGroups } from '../support/ops';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { payAndSettle } from '../support/payments';

const GROUP = ConsumerGroups.SplitLedger;
const OTHER = ConsumerGroups.WebhookDispatcher;
const TOPIC = Topics.TransactionStatusChanged;

/**
 * Replays that reach ONE consumer group while its consumers keep running: a live replay of a
 * range the group skipped, and dead letters delivered again to their group only and drained.
 */
describe('ops CLI: live replay and dead letters', () => {
  let stack: Stack;
  let admin: Admin;
  let producer: Producer;
  let secret: string;
  const ops = (...args: string[]) => runOps(stack, args);
  const totalLag = (out: string) => Number(/total lag (\d+)/.exec(out)?.[1]);
  const count = async (app: 'split-ledger-service' | 'webhook-dispatcher', sql: string, params: unknown[] = []) =>
    (await stack.db(app).query(sql, params)).rows[0].n as number;
  const succeeded = () =>
    count('split-ledger-service', "SELECT count(*)::int AS n FROM ledger_transactions WHERE status = 'success'");
  const messagesIn = async (topic: string) =>
    (await admin.fetchTopicOffsets(`${stack.topicPrefix}${topic}`)).reduce(
      (n, p) => n + Number(p.high) - Number(p.low),
      0,
    );
  const caughtUp = (group: string) =>
    waitFor(`${group} to catch up`, async () => totalLag((await ops('lag', '--group', group)).out) === 0, {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
  const noReaderGroupLeft = async () =>
    expect((await stackGroups(admin, stack)).filter((g) => g.startsWith('ops-'))).toEqual([]);

  async function pay(reference: string): Promise<void> {
    await payAndSettle(stack, secret, reference, { amount: 900 });
    await waitFor(
      'the outbox to be relayed',
      async () =>
        (await stack.db('transaction-service').query('SELECT 1 FROM outbox_events WHERE published_at IS NULL')).rows
          .length === 0,
    );
  }

  beforeAll(async () => {
    stack = await Stack.start();
    admin = stack.kafka().admin();
    producer = stack.kafka().producer();
    await Promise.all([admin.connect(), producer.connect()]);
    secret = (await stack.createBusiness('Ops Live')).test.secret;
  }, 120_000);

  afterAll(async () => {
    await producer?.disconnect();
    await admin?.disconnect();
    await stack?.stop();
  }, 120_000);

  it('replays a skipped range while consumers run: only missing events are applied, to that group only', async () => {
    await pay('live-1');
    await caughtUp(GROUP);
    // The incident: the group was moved past two payments' events, which it never applied.
    await stack.app('split-ledger-service').stop();
    await pay('live-2');
    await pay('live-3');
    const skipped = await ops(
      'replay',
      '--group',
      GROUP,
      '--topic',
      TOPIC,
      '--to-offset',
      '999999',
      '--allow-skip',
      '--execute',
    );
    expect(skipped.code).toBe(0);
    const skippedEvents = Number(/(\d+) skipped/.exec(skipped.out)?.[1]);
    expect(skippedEvents).toBeGreaterThan(0);
    await stack.startApp('split-ledger-service');
    await caughtUp(GROUP);
    expect(await succeeded()).toBe(1);

    await caughtUp(OTHER);
    const otherApplied = await count('webhook-dispatcher', 'SELECT count(*)::int AS n FROM processed_events');
    const groupId = `${stack.topicPrefix}${GROUP}`;
    const offsets = await committedOffsets(admin, groupId, `${stack.topicPrefix}${TOPIC}`);
    const all = await messagesIn(TOPIC);

    const dry = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--live');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`live replay for group ${GROUP} (dry run`);
    expect(dry.out).toContain(`${all} event(s) will be delivered again, 0 skipped`);

    const live = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--live', '--execute');
    expect(live.code).toBe(0);
    expect(live.out).toContain(
      `${all} event(s) replayed to ${GROUP}: ${skippedEvents} applied, ` +
        `${all - skippedEvents} already applied, 0 dead-lettered`,
    );
    expect(live.out).toContain(`applying in ${GROUP} ${all}/${all} (100 %)`);

    expect(await succeeded()).toBe(3);
    expect(stack.app('split-ledger-service').running).toBe(true);
    expect(await committedOffsets(admin, groupId, `${stack.topicPrefix}${TOPIC}`)).toEqual(offsets);
    expect(await count('webhook-dispatcher', 'SELECT count(*)::int AS n FROM processed_events')).toBe(otherApplied);
    await noReaderGroupLeft();
  }, 300_000);

  it('lists dead letters, delivers them to their group only with keys and headers, and drains the topic', async () => {
    const full = (topic: string) => `${stack.topicPrefix}${topic}`;
    const dlq = deadLetterTopic(GROUP);
    const otherDlq = deadLetterTopic(OTHER);
    // A dead letter whose cause was fixed: a real event under a new id, never applied by anyone.
    const payload = (
      await stack
        .db('transaction-service')
        .query('SELECT payload FROM outbox_events WHERE topic = $1 ORDER BY id LIMIT 1', [TOPIC])
    ).rows[0].payload;
    const [fixedId, copiedId, damagedId] = [randomUUID(), randomUUID(), randomUUID()];
    await producer.send({
      topic: full(dlq),
      messages: [
        {
          key: 'fixed-key',
          value: JSON.stringify({ ...payload, id: fixedId }),
          headers: {
            'x-trace': 'fixed',
            'dlq-reason': 'database was down',
            'dlq-original-topic': full(TOPIC),
            'dlq-original-partition': '0',
            'dlq-original-offset': '0',
          },
        },
        {
          // A live replay's one-header copy, dead-lettered by a service of an earlier release: it read
          // the five replay-* headers only, so the letter names the replay topic, and it kept the
          // replay-origin header among the message's own.
          key: 'copied-key',
          value: JSON.stringify({ ...payload, id: copiedId }),
          headers: {
            'x-trace': 'copied',
            'replay-origin': `${randomUUID()} 4 0 0 ${full(TOPIC)}`,
            'dlq-reason': `no handler for topic replay.${GROUP}`,
            'dlq-original-topic': full(replayTopic(GROUP)),
            'dlq-original-partition': '-1',
            'dlq-original-offset': '-1',
            'dlq-consumer-group': full(GROUP),
          },
        },
        {
          // A hand-made letter whose partition and offset are not numbers: only they are lost.
          key: 'damaged-key',
          value: JSON.stringify({ ...payload, id: damagedId }),
          headers: {
            'x-trace': 'damaged',
            'dlq-reason': 'typed in',
            'dlq-original-topic': full(TOPIC),
            'dlq-original-partition': 'zero',
            'dlq-original-offset': 'n/a',
          },
        },
      ],
    });
    // A poison message both groups consume and dead-letter.
    await producer.send({
      topic: full(TOPIC),
      messages: [{ key: 'poison-key', value: 'not json at all', headers: { 'x-trace': 'poison' } }],
    });
    await waitFor(
      'the poison message in both dead-letter topics',
      async () => (await messagesIn(dlq)) === 4 && (await messagesIn(otherDlq)) === 1,
    );

    const list = await ops('dlq', 'list', '--group', GROUP);
    expect(list.code).toBe(0);
    expect(list.out).toContain(`4 message(s) in ${dlq}`);
    expect(list.out).toMatch(
      new RegExp(
        `at \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z from ${TOPIC.replace('.', '\\.')} partition \\d offset \\d+\\n` +
          '    key: poison-key\\n    reason: value is not JSON\\n' +
          '    headers: x-trace=poison\\n    payload: not json at all',
      ),
    );
    expect(list.out).toMatch(
      new RegExp(
        String.raw`from transaction\.status_changed partition 0 offset 0\n {4}key: fixed-key\n` +
          String.raw` {4}reason: database was down\n {4}headers: x-trace=fixed\n {4}payload: \{"id":"`,
      ),
    );
    expect(list.out).toMatch(
      new RegExp(
        String.raw`from transaction\.status_changed partition 0 offset 0 ` +
          String.raw`\(dead-lettered as replay\.split-ledger-service; origin from its replay-origin header\)\n` +
          String.raw` {4}key: copied-key\n {4}reason: no handler for topic replay\.split-ledger-service\n` +
          String.raw` {4}headers: x-trace=copied\n`,
      ),
    );

    const dry = await ops('dlq', 'replay', '--group', GROUP);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`4 message(s) would be delivered to ${GROUP} only`);
    expect(dry.out).toContain('1 of them name a replay topic as their original topic');
    expect(await messagesIn(dlq)).toBe(4);

    const replayed = await ops('dlq', 'replay', '--group', GROUP, '--execute');
    expect(replayed.code).toBe(0);
    expect(replayed.out).toContain(`4 message(s) removed from ${dlq}`);
    expect(replayed.out).toContain(`4 event(s) replayed to ${GROUP}: 3 applied, 0 already applied, 1 dead-lettered`);
    // Each applied once, by the handler of the topic it first came from, in that group only.
    const appliedAs =
      `SELECT count(*)::int AS n FROM processed_events ` + `WHERE event_id = $1 AND topic = '${full(TOPIC)}'`;
    for (const id of [fixedId, copiedId, damagedId]) {
      expect(await count('split-ledger-service', appliedAs, [id])).toBe(1);
      expect(
        await count('webhook-dispatcher', 'SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1', [id]),
      ).toBe(0);
    }

    // Drained: only the poison message is back, once, with its key and headers; the other group's DLQ is untouched.
    await waitFor('the poison message back in the dead-letter topic', async () => (await messagesIn(dlq)) === 1);
    const after = await ops('dlq', 'list', '--group', GROUP);
    expect(after.out).toContain(`1 message(s) in ${dlq}`);
    expect(after.out).toMatch(/key: poison-key\n {4}reason: value is not JSON\n {4}headers: x-trace=poison/);
    expect(await messagesIn(otherDlq)).toBe(1);

    const again = await ops('dlq', 'replay', '--group', GROUP, '--execute');
    expect(again.out).toContain(`1 event(s) replayed to ${GROUP}: 0 applied, 0 already applied, 1 dead-lettered`);
    expect(await messagesIn(dlq)).toBe(1);
    expect(await messagesIn(otherDlq)).toBe(1);
    await noReaderGroupLeft();
  }, 300_000);
});
