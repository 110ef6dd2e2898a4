import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import {
  Topics,
  type EventEnvelope,
  type LinkSplit,
  type RefundStatusChangedData,
  type TransactionStatusChangedData,
} from '@payments/contracts';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

let nextId = 70_000;

/** A `transaction.status_changed` success event as transaction-service publishes it. */
function success(t: {
  id: number;
  business: number;
  amount: number;
  mode?: 'test' | 'live';
  currency?: string;
  splits: LinkSplit[];
}): EventEnvelope<string, TransactionStatusChangedData> {
  const now = new Date().toISOString();
  const mode = t.mode ?? 'test';
  return {
    id: randomUUID(),
    type: Topics.TransactionStatusChanged,
    version: 1,
    occurred_at: now,
    producer: 'transaction-service',
    mode,
    business_id: t.business,
    correlation_id: null,
    data: {
      previous_status: 'processing',
      status: 'success',
      transaction: {
        id: t.id,
        transaction_id: `txn_settle${t.id}`,
        transaction_reference: `ref-${t.id}`,
        business_id: t.business,
        mode,
        amount: t.amount,
        charges: 0,
        total: t.amount,
        currency: t.currency ?? 'USD',
        status: 'success',
        message: 'paid',
        email: 'b@example.com',
        payment_method_type: 'card',
        payment_method_code: 'zimswitch',
        checkout_id: null,
        payment_link_id: 'plink_x',
        link_splits: t.splits,
        version: 3,
        date_created: now,
        date_updated: now,
      },
    },
  };
}

function refundSucceeded(r: {
  id: number;
  transactionId: number;
  business: number;
  amount: number;
  transactionAmount: number;
}): EventEnvelope<string, RefundStatusChangedData> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type: Topics.RefundStatusChanged,
    version: 1,
    occurred_at: now,
    producer: 'transaction-service',
    mode: 'test',
    business_id: r.business,
    correlation_id: null,
    data: {
      previous_status: 'pending',
      status: 'success',
      refund: {
        id: r.id,
        refund_id: `rfd_settle${r.id}`,
        business_id: r.business,
        mode: 'test',
        amount: r.amount,
        currency: 'USD',
        status: 'success',
        message: 'refunded',
        transaction: {
          id: r.transactionId,
          transaction_id: `txn_settle${r.transactionId}`,
          transaction_reference: `ref-${r.transactionId}`,
          amount: r.transactionAmount,
        },
        version: 2,
        date_created: now,
        date_updated: now,
      },
    },
  };
}

/**
 * The ledger fed straight from Kafka (events shaped as transaction-service publishes them), and settlement through the
 * gateway's admin API: runs at the same time never invoice an entry twice, the weekly BullMQ job runs on its cron, and
 * the ledger stays right whatever order refund and transaction events arrive in.
 */
describe('ledger settlement and event handling', () => {
  let stack: Stack;
  let producer: Producer;

  beforeAll(async () => {
    stack = await Stack.start(['split-ledger-service', 'gateway']);
    producer = stack.kafka().producer();
    await producer.connect();
  }, 120_000);

  afterAll(async () => {
    await producer?.disconnect();
    await stack?.stop();
  }, 120_000);

  const publish = (topic: string, key: string, events: EventEnvelope[]) =>
    producer.send({
      topic: `${stack.topicPrefix}${topic}`,
      messages: events.map((e) => ({ key, value: JSON.stringify(e) })),
    });
  const db = () => stack.db('split-ledger-service');
  const count = async (sql: string, params: unknown[] = []) => (await db().query(sql, params)).rows[0].n as number;
  const runSettlement = () =>
    stack.api<{
      invoices: { invoice_reference: string; amount: number; entry_count: number }[];
      entries_invoiced: number;
    }>('POST', '/admin/v1/settlements/run', { headers: { authorization: `Bearer ${stack.adminToken}` } });

  it('never invoices an entry twice when runs overlap, and nets each pair into one invoice', async () => {
    const events: EventEnvelope[] = [];
    for (let i = 0; i < 15; i++) {
      events.push(
        success({
          id: ++nextId,
          business: 101,
          amount: 10_000,
          splits: [
            { business_id: 102, type: 'percentage', value: 250 },
            { business_id: 103, type: 'fixed', value: 120 },
          ],
        }),
      );
    }
    // The other direction of one pair, and live mode: netted and invoiced apart.
    events.push(
      success({
        id: ++nextId,
        business: 102,
        amount: 8_000,
        splits: [{ business_id: 101, type: 'fixed', value: 1_000 }],
      }),
    );
    events.push(
      success({
        id: ++nextId,
        business: 101,
        amount: 5_000,
        mode: 'live',
        splits: [{ business_id: 102, type: 'fixed', value: 50 }],
      }),
    );
    for (const e of events)
      await publish(
        Topics.TransactionStatusChanged,
        (e.data as TransactionStatusChangedData).transaction.transaction_id,
        [e],
      );
    await waitFor(
      'all entries',
      async () => (await count("SELECT count(*)::int AS n FROM ledger_entries WHERE status = 'pending'")) === 32,
    );

    const runs = await Promise.all([runSettlement(), runSettlement(), runSettlement()]);
    for (const r of runs) expect(r.status).toBe(200);
    expect(runs.reduce((n, r) => n + r.body.entries_invoiced, 0)).toBe(32);
    const invoices = runs.flatMap((r) => r.body.invoices);
    expect(invoices).toHaveLength(3);
    for (const i of invoices) expect(i.invoice_reference).toMatch(/^INV-\d{8}-\d+-\d+-USD-(TEST|LIVE)-1$/);
    // Pair 101/102 in test mode nets both directions: 15 × 250 owed by 101, 1 000 owed by 102.
    const byRef = Object.fromEntries(
      invoices.map((i) => [
        i.invoice_reference.replace(/^INV-\d{8}-/, ''),
        { amount: i.amount, entries: i.entry_count },
      ]),
    );
    expect(byRef).toEqual({
      '101-102-USD-TEST-1': { amount: 15 * 250 - 1_000, entries: 16 },
      '101-103-USD-TEST-1': { amount: 15 * 120, entries: 15 },
      '101-102-USD-LIVE-1': { amount: 50, entries: 1 },
    });
    // Every entry belongs to exactly one invoice, and the invoice totals are the entries' net.
    expect(
      await count(
        "SELECT count(*)::int AS n FROM ledger_entries WHERE status <> 'invoiced' OR invoice_reference IS NULL",
      ),
    ).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM settlement_invoices')).toBe(3);

    const again = await runSettlement();
    expect(again.body).toMatchObject({ invoices: [], entries_invoiced: 0 });
  }, 60_000);

  it('writes a refund’s reversals even when the refund is handled before the transaction’s success', async () => {
    const txn = ++nextId;
    await publish(Topics.RefundStatusChanged, `txn_settle${txn}`, [
      refundSucceeded({ id: txn, transactionId: txn, business: 201, amount: 2_500, transactionAmount: 10_000 }),
    ]);
    await waitFor(
      'the refund to be recorded',
      async () => (await count('SELECT count(*)::int AS n FROM ledger_refunds WHERE transaction_id = $1', [txn])) === 1,
    );
    expect(await count('SELECT count(*)::int AS n FROM ledger_entries WHERE transaction_id = $1', [txn])).toBe(0);

    await publish(Topics.TransactionStatusChanged, `txn_settle${txn}`, [
      success({ id: txn, business: 201, amount: 10_000, splits: [{ business_id: 202, type: 'fixed', value: 999 }] }),
    ]);
    const amounts = await waitFor('the split and its reversal', async () => {
      const { rows } = await db().query(
        'SELECT amount::int AS amount FROM ledger_entries WHERE transaction_id = $1 ORDER BY id',
        [txn],
      );
      return rows.length === 2 ? rows.map((r) => r.amount) : undefined;
    });
    expect(amounts).toEqual([999, -249]); // floor(999 × 2 500 / 10 000) = 249
  });

  it('writes a transaction’s entries once even if its success arrives again as a new event', async () => {
    const txn = ++nextId;
    const first = success({
      id: txn,
      business: 301,
      amount: 4_000,
      splits: [{ business_id: 302, type: 'percentage', value: 500 }],
    });
    const copy = { ...first, id: randomUUID() }; // a different event id: the inbox cannot tell
    await publish(Topics.TransactionStatusChanged, `txn_settle${txn}`, [first, copy]);
    await waitFor(
      'both events to be consumed',
      async () =>
        (await count('SELECT count(*)::int AS n FROM processed_events WHERE event_id = ANY($1)', [
          [first.id, copy.id],
        ])) === 2,
    );
    expect(await count('SELECT count(*)::int AS n FROM ledger_entries WHERE transaction_id = $1', [txn])).toBe(1);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM outbox_events WHERE topic = 'ledger.entry_created' AND message_key = $1",
        [`txn_settle${txn}`],
      ),
    ).toBe(1);
  });

  it('runs the settlement from the BullMQ schedule (SETTLEMENT_CRON)', async () => {
    await stack.app('split-ledger-service').stop();
    await stack.startApp('split-ledger-service', { SETTLEMENT_CRON: '* * * * *' });
    const txn = ++nextId;
    await publish(Topics.TransactionStatusChanged, `txn_settle${txn}`, [
      success({ id: txn, business: 401, amount: 3_000, splits: [{ business_id: 402, type: 'fixed', value: 300 }] }),
    ]);
    await waitFor(
      'the entry',
      async () => (await count('SELECT count(*)::int AS n FROM ledger_entries WHERE transaction_id = $1', [txn])) === 1,
    );
    // Nobody calls the admin API: the every-minute schedule invoices it.
    const invoice = await waitFor(
      'the scheduled run to invoice the entry',
      async () => {
        const { rows } = await db().query(
          'SELECT i.invoice_reference, i.amount::int AS amount, i.status ' +
            'FROM ledger_entries e JOIN settlement_invoices i USING (invoice_reference) WHERE e.transaction_id = $1',
          [txn],
        );
        return rows[0];
      },
      { timeoutMs: 75_000, intervalMs: 1_000 },
    );
    expect(invoice).toEqual({
      invoice_reference: expect.stringMatching(/^INV-\d{8}-401-402-USD-TEST-1$/),
      amount: 300,
      status: 'issued',
    });
  }, 120_000);
});
