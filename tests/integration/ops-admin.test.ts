import { runOps } from '../support/ops';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { settled, startPayment } from '../support/payments';

/** ops commands that work through the gateway's admin API: webhook recovery and reconciliation. */
describe('ops CLI: admin API commands', () => {
  let stack: Stack;
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  const ops = (...args: string[]) => runOps(stack, args);

  beforeAll(async () => {
    await receiver.start();
    stack = await Stack.start(undefined, { ...receiver.dispatcherEnv() });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  it('recovers deliveries skipped while a callback was disabled, through the admin API, after a dry run', async () => {
    const keys = await stack.createBusiness('Outage');
    const key = keys.test.secret;
    await stack.api('POST', '/v1/callback', {
      key,
      body: { url: receiver.url('/ops'), events: ['transaction.success'] },
    });
    const [cb] = (await stack.api<{ callbacks: { id: number }[] }>('GET', '/v1/callback/list', { key })).body.callbacks;
    await stack.api('PUT', `/v1/callback/${cb.id}`, { key, body: { is_active: false } });
    const since = new Date(Date.now() - 1000).toISOString();
    for (const ref of ['ops-hook-1', 'ops-hook-2']) await startPayment(stack, key, ref, { amount: 900 });
    await waitFor(
      'two skipped deliveries',
      async () =>
        (await stack.api<{ total_count: number }>('GET', `/v1/callback/${cb.id}/deliveries?status=skipped`, { key }))
          .body.total_count === 2,
      { timeoutMs: 30_000 },
    );
    await stack.api('PUT', `/v1/callback/${cb.id}`, { key, body: { is_active: true } });

    const admin = { authorization: `Bearer ${stack.adminToken}` };
    const noZone = await stack.api('POST', '/admin/v1/webhooks/recover', {
      headers: admin,
      body: { business_id: keys.id, mode: 'test', since: '2026-01-01T00:00:00' },
    });
    expect(noZone.status).toBe(400);
    expect(noZone.body).toMatchObject({ result: 'error', errors: [expect.objectContaining({ field: 'since' })] });
    expect(
      (
        await stack.api('POST', '/admin/v1/webhooks/recover', {
          key,
          body: { business_id: keys.id, mode: 'test', since },
        })
      ).status,
    ).toBe(401);

    const dry = await ops('webhooks', 'recover', '--business', String(keys.id), '--since', since, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('2 failed or skipped deliveries');
    expect(dry.out.match(/dlv_[0-9a-f]{32} +callback \d+ +transaction\.success +skipped/g)).toHaveLength(2);
    expect(
      (await stack.api<{ total_count: number }>('GET', `/v1/callback/${cb.id}/deliveries?status=skipped`, { key })).body
        .total_count,
    ).toBe(2);
    expect(receiver.at('/ops')).toEqual([]);

    const sent = await ops('webhooks', 'recover', '--business', String(keys.id), '--since', since);
    expect(sent.code).toBe(0);
    expect(sent.out).toContain('2 deliveries queued again');
    const hits = await waitFor(
      'both webhooks',
      () => (receiver.at('/ops').length >= 2 ? receiver.at('/ops') : undefined),
      { timeoutMs: 30_000 },
    );
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(2);
    expect(
      (await ops('webhooks', 'recover', '--business', String(keys.id), '--since', since, '--dry-run')).out,
    ).toContain('0 failed or skipped deliveries');
  }, 90_000);

  it('reconciles: 0 differences when the services agree, and names a reversal the ledger lost', async () => {
    const shop = await stack.createBusiness('Reconciled');
    const partner = await stack.createBusiness('Reconciled Partner');
    const key = shop.test.secret;
    const config = await stack.api('POST', '/v1/splits/config', {
      key,
      body: {
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 330,
        split_role: 'fee',
        currency: 'USD',
      },
    });
    expect(config.status).toBe(200);
    await stack.api('POST', '/v1/callback', {
      key,
      body: { url: receiver.url('/reconcile'), events: ['transaction.success', 'refund.success'] },
    });
    for (const ref of ['rec-1', 'rec-2']) await startPayment(stack, key, ref, { amount: 1_001 });
    const [refunded] = await Promise.all(['rec-1', 'rec-2'].map((ref) => settled(stack, key, ref)));
    for (const amount of [300, 701])
      expect(
        (await stack.api('POST', '/v1/transactions/refund', { key, body: { transaction_reference: 'rec-1', amount } }))
          .status,
      ).toBe(200);

    // The ledger applies refunds from Kafka, after their API answers: wait until it has, so the
    // clean run compares the refunded state (reconcile does not see a refund the ledger has not consumed yet).
    const ledger = stack.db('split-ledger-service');
    await waitFor(
      'the ledger to write the reversals',
      async () => {
        const { rows } = await ledger.query(
          "SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'reversal' AND transaction_public_id = $1",
          [refunded.transaction_id],
        );
        return rows[0].n >= 2 ? true : undefined; // one per refund (one split)
      },
      { timeoutMs: 30_000 },
    );
    const clean = await waitFor(
      'reconcile to find no difference',
      async () => {
        const r = await ops('reconcile');
        return r.code === 0 ? r : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    expect(clean.out).toMatch(/^0 differences \(\d+ transactions, \d+ webhook events\)$/m);
    expect(Number(/\((\d+) transactions/.exec(clean.out)?.[1])).toBeGreaterThanOrEqual(2);

    // Lose the reversals of the fully refunded payment behind the services' backs.
    const removed = await ledger.query("DELETE FROM ledger_entries WHERE kind = 'reversal' RETURNING id");
    expect(removed.rowCount).toBeGreaterThan(0);
    const dirty = await ops('reconcile');
    expect(dirty.code).toBe(1);
    expect(dirty.out).toMatch(
      /transaction \S+ \(success\): split config:\d+ of 33 reversed by 0; 1001 refunded makes it 33/,
    );
    expect(dirty.out).toContain('1 differences');
  }, 120_000);

  it('explains what is wrong with a command', async () => {
    const extra = await ops('reconcile', '--fix');
    expect(extra.code).toBe(2);
    expect(extra.out).toContain("unknown option '--fix'");
    expect(extra.out).toContain('Usage: ops reconcile');
    expect((await ops('reconcile', '--help')).out).toMatch(/exits 1\s+if there is any/);

    const noZone = await ops('webhooks', 'recover', '--business', '1', '--since', '2026-01-01T00:00:00');
    expect(noZone.code).toBe(2);
    expect(noZone.out).toContain("option '--since <iso>' argument '2026-01-01T00:00:00' is invalid");
    const unknown = await ops('webhooks', 'recover', '--business', '1', '--since', '2026-01-01T00:00:00Z', '--force');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain("unknown option '--force'");
    const mode = await ops(
      'webhooks',
      'recover',
      '--business',
      '1',
      '--since',
      '2026-01-01T00:00:00Z',
      '--mode',
      'prod',
    );
    expect(mode.code).toBe(2);
    expect(mode.out).toContain('Allowed choices are test, live');
    const help = await ops('webhooks', 'recover', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--dry-run');
  }, 60_000);
});
