import { runOps } from '../support/ops';
import { settled, startPayment } from '../support/payments';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

/**
 * The admin-API commands of an on-call engineer at the size of a long day: `ops reconcile` over
 * OPS_SCALE_TRANSACTIONS transactions (50k in CI: 50 pages; docs/operations.md has the 1M run), `ops webhooks recover`
 * over OPS_SCALE_DELIVERIES failed deliveries (5k in CI: 10 pages) and `ops lag` over OPS_SCALE_PARTITIONS partitions.
 * Rows are written straight into each service's database and read back through the commands' pages.
 */
const PARTITIONS = Number(process.env.OPS_SCALE_PARTITIONS ?? 1_000);
const TRANSACTIONS = Number(process.env.OPS_SCALE_TRANSACTIONS ?? 50_000);
const DELIVERIES = Number(process.env.OPS_SCALE_DELIVERIES ?? 5_000);
/** Peak resident memory of the ops process, whatever the size (the limit). */
const MAX_RSS_MB = 300;

const peakRss = (out: string) => Number(/ops: peak memory (\d+) MB/.exec(out)?.[1]);

describe('ops admin commands at scale', () => {
  let stack: Stack;
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  const ops = (...args: string[]) => runOps(stack, args, 1_800_000, { OPS_REPORT_RSS: '1' });

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, { ...receiver.dispatcherEnv() });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  it(`reconciles ${TRANSACTIONS} transactions by page in bounded memory, naming each planted difference`, async () => {
    const shop = await stack.createBusiness('Reconciled at scale');
    const seedFrom = 800_000_000;
    // transaction-service, split-ledger-service and webhook-dispatcher each hold their own record
    // of the same successful transactions (no splits: the ledger expects no entries).
    await stack.db('transaction-service').query(
      `INSERT INTO transactions (id, public_id, reference, checkout_id, business_id, mode, amount, charges, total,
                                  currency, status, message, email, expires_at)
       SELECT $2 + g, 'txn_scale' || lpad(g::text, 14, '0'), 'scale-' || g, 'chk_scale' || g, $1, 'test', 1000, 15,
              1015, 'USD', 'success', 'Approved', 'scale@example.com', now() + interval '1 day'
         FROM generate_series(1, $3::int) g`,
      [shop.id, seedFrom, TRANSACTIONS],
    );
    await stack.db('split-ledger-service').query(
      `INSERT INTO ledger_transactions (id, public_id, business_id, mode, amount, currency, status,
                                         transaction_created_at, version)
       SELECT $2 + g, 'txn_scale' || lpad(g::text, 14, '0'), $1, 'test', 1000, 'USD',
              CASE WHEN g % 25000 = 7 THEN 'processing' ELSE 'success' END, now(), 3
         FROM generate_series(1, $3::int) g`,
      [shop.id, seedFrom, TRANSACTIONS],
    );
    await stack.db('webhook-dispatcher').query(
      `INSERT INTO webhook_events (id, source_event_id, event_type, business_id, mode, payload)
       SELECT 'evt_' || md5('scale' || g), md5('scale-source' || g), 'transaction.success', $1, 'test',
              jsonb_build_object('transaction_id', 'txn_scale' || lpad(g::text, 14, '0'), 'status', 'success')
         FROM generate_series(1, $2::int) g`,
      [shop.id, TRANSACTIONS],
    );

    const r = await ops('reconcile');
    const planted = Math.floor((TRANSACTIONS - 7) / 25_000) + 1;
    expect(r.out).toContain(`${planted} differences (${TRANSACTIONS} transactions, ${TRANSACTIONS} webhook events)`);
    expect(
      r.out.match(/transaction txn_scale\d{14} \(success\): split-ledger-service recorded processing/g),
    ).toHaveLength(planted);
    expect(r.code).toBe(1);
    process.stderr.write(`ops reconcile over ${TRANSACTIONS} transactions: peak memory ${peakRss(r.out)} MB\n`);
    expect(peakRss(r.out)).toBeLessThan(MAX_RSS_MB);
  }, 1_800_000);

  it(`recovers ${DELIVERIES} failed deliveries page by page, and each arrives once`, async () => {
    const shop = await stack.createBusiness('Recovered at scale');
    const key = shop.test.secret;
    const paths = ['/scale-a', '/scale-b', '/scale-c', '/scale-d'];
    for (const path of paths)
      await stack.api('POST', '/v1/callback', {
        key,
        body: { url: receiver.url(path), events: ['transaction.success'] },
      });
    // One real payment gives the event and delivery shapes the seeded ones copy.
    await startPayment(stack, key, 'recover-model', { amount: 700 });
    await settled(stack, key, 'recover-model');
    await waitFor('the model deliveries', () => paths.every((p) => receiver.at(p).length === 1), { timeoutMs: 30_000 });
    const since = new Date().toISOString();
    const dispatcher = stack.db('webhook-dispatcher');
    const {
      rows: [model],
    } = await dispatcher.query(
      `SELECT e.id FROM webhook_events e WHERE e.business_id = $1 AND e.event_type = 'transaction.success'`,
      [shop.id],
    );
    await dispatcher.query(
      `INSERT INTO webhook_events (id, source_event_id, event_type, business_id, mode, payload)
       SELECT 'evt_' || md5('recover' || g), md5('recover-source' || g), event_type, business_id, mode,
              payload
         FROM webhook_events, generate_series(1, $2::int / 4) g WHERE id = $1`,
      [model.id, DELIVERIES],
    );
    // Four callbacks, a failed delivery to each per event: the outage the operator recovers from.
    await dispatcher.query(
      `INSERT INTO deliveries (public_id, event_id, callback_id, status, attempts, last_error)
       SELECT 'dlv_' || md5('recover-dlv' || g || '-' || d.callback_id), 'evt_' || md5('recover' || g), d.callback_id,
              'failed', 8, 'connection refused'
         FROM deliveries d, generate_series(1, $2::int / 4) g WHERE d.event_id = $1`,
      [model.id, DELIVERIES],
    );

    const dry = await ops('webhooks', 'recover', '--business', String(shop.id), '--since', since, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`${DELIVERIES} failed or skipped deliveries`);
    expect(dry.out.match(/^ {2}dlv_[0-9a-f]{32} +callback \d+ +transaction\.success +failed/gm)).toHaveLength(
      DELIVERIES,
    );

    const sent = await ops('webhooks', 'recover', '--business', String(shop.id), '--since', since);
    expect(sent.code).toBe(0);
    expect(sent.out).toContain(`${DELIVERIES} deliveries queued again`);
    process.stderr.write(
      `ops webhooks recover over ${DELIVERIES} deliveries: ` +
        `peak memory ${peakRss(sent.out)} MB (dry run ${peakRss(dry.out)} MB)\n`,
    );
    expect(peakRss(dry.out)).toBeLessThan(MAX_RSS_MB);
    expect(peakRss(sent.out)).toBeLessThan(MAX_RSS_MB);

    const arrived = () => paths.reduce((n, p) => n + receiver.at(p).length, 0) - paths.length;
    await waitFor(`${DELIVERIES} webhooks`, () => arrived() >= DELIVERIES, { timeoutMs: 900_000, intervalMs: 1_000 });
    // An event's webhook-id is the same at every endpoint: once per endpoint and event.
    const ids = paths.flatMap((p) => receiver.at(p).map((h) => `${p} ${h.headers['webhook-id']}`));
    expect(ids).toHaveLength(DELIVERIES + paths.length);
    expect(new Set(ids).size).toBe(ids.length);
    const {
      rows: [left],
    } = await dispatcher.query(
      `SELECT count(*)::int AS n FROM deliveries WHERE status <> 'succeeded' AND created_at >= $1`,
      [since],
    );
    expect(left.n).toBe(0);
    expect(
      (await ops('webhooks', 'recover', '--business', String(shop.id), '--since', since, '--dry-run')).out,
    ).toContain('0 failed or skipped deliveries');
  }, 1_800_000);

  it(`shows the lag of a group on a topic of ${PARTITIONS} partitions, every partition and the total`, async () => {
    const admin = stack.kafka().admin();
    await admin.connect();
    const topic = `${stack.topicPrefix}lag.scale`;
    const group = 'lag-scale-readers';
    try {
      await admin.createTopics({
        topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }],
        waitForLeaders: true,
      });
      // Idempotent: a retried request (a fresh partition's leader not ready yet) writes nothing twice.
      // A thousand new partitions can take the single broker's controller a while on a busy
      // machine after createTopics has seen their leaders: retries over about a minute.
      const producer = stack.kafka().producer({
        idempotent: true,
        maxInFlightRequests: 1,
        retry: { retries: 12, initialRetryTime: 300, maxRetryTime: 8_000 },
      });
      await producer.connect();
      // Three events on every partition; the group has read one of them on each.
      const messages = Array.from({ length: PARTITIONS * 3 }, (_, i) => ({
        partition: i % PARTITIONS,
        value: `event ${i}`,
      }));
      for (let i = 0; i < messages.length; i += 3_000)
        await producer.send({ topic, acks: -1, messages: messages.slice(i, i + 3_000) });
      await producer.disconnect();
      expect((await admin.fetchTopicOffsets(topic)).every((p) => p.high === '3')).toBe(true);
      await admin.setOffsets({
        groupId: `${stack.topicPrefix}${group}`,
        topic,
        partitions: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, offset: '1' })),
      });

      const one = await ops('lag', '--group', group);
      expect(one.code).toBe(0);
      const rows = [...one.out.matchAll(/^ {2}lag\.scale +(\d+) +1 +3 +2$/gm)].map((m) => Number(m[1]));
      expect(rows).toEqual(Array.from({ length: PARTITIONS }, (_, p) => p));
      expect(one.out).toContain(`total lag ${2 * PARTITIONS}`);
      const all = await ops('lag');
      expect(all.out).toContain(`group ${group}: state Empty, 0 member(s)`);
      expect(all.out).toContain(`total lag ${2 * PARTITIONS}`);
      process.stderr.write(`ops lag over ${PARTITIONS} partitions: peak memory ${peakRss(one.out)} MB\n`);

      await admin.setOffsets({
        groupId: `${stack.topicPrefix}${group}`,
        topic,
        partitions: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, offset: '3' })),
      });
      const caughtUp = await ops('lag', '--group', group, '--follow', '--timeout', '60');
      expect(caughtUp).toMatchObject({ code: 0 });
      expect(caughtUp.out).toContain(`lag of ${group} is 0`);
    } finally {
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  }, 600_000);
});
