import { freePort, startApp, type AppProcess } from '../support/processes';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';

/**
 * Two split-ledger-service instances share the consumer group; one is killed (kill -9) while
 * payments are being applied, so events it had applied but whose offsets it had not committed go
 * to the survivor. Every payment still gets its ledger entry exactly once.
 */
describe('split ledger with two consumer instances and a crash', () => {
  let stack: Stack;
  let second: AppProcess;

  beforeAll(async () => {
    stack = await Stack.start();
    const [rpc, http] = [await freePort(), await freePort()];
    second = startApp(
      'split-ledger-service',
      { ...stack.envFor('split-ledger-service'), RPC_PORT: String(rpc), HTTP_PORT: String(http) },
      http,
    );
    await second.waitReady();
  }, 120_000);

  afterAll(async () => {
    await second?.stop().catch(() => second.kill());
    await stack?.stop();
  }, 120_000);

  it('writes each payment’s split entry exactly once', async () => {
    const [merchant, partner] = [await stack.createBusiness('Merchant'), await stack.createBusiness('Partner')];
    const config = await stack.api('POST', '/v1/splits/config', {
      key: merchant.test.secret,
      body: {
        partner_business_id: partner.id,
        split_type: 'percentage',
        split_value: 1000,
        split_role: 'fee',
        currency: 'USD',
      },
    });
    expect(config.status).toBe(200);

    const payments = 24;
    const amounts = Array.from({ length: payments }, (_, i) => 1000 + i * 37);
    for (const [i, amount] of amounts.entries()) {
      const res = await stack.api('POST', '/v1/transactions', {
        key: merchant.test.secret,
        body: {
          amount,
          email: 'p@example.com',
          currency: 'USD',
          payment_method_code: 'ecocash',
          mobile_money_number: '0771234567',
          transaction_reference: `two-${i}`,
        },
      });
      expect(res.status).toBe(200);
    }
    const ledger = stack.db('split-ledger-service');
    const splits = async () =>
      (await ledger.query("SELECT count(*)::int AS n FROM ledger_entries WHERE kind = 'split'")).rows[0].n as number;
    await waitFor('some entries to be written', async () => (await splits()) >= 3, { timeoutMs: 30_000 });
    await stack.app('split-ledger-service').kill();

    await waitFor('every payment’s entry', async () => (await splits()) === payments, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const { rows } = await ledger.query(
      `SELECT t.amount::int AS amount, count(e.id)::int AS entries, sum(e.amount)::int AS owed
         FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id AND e.kind = 'split'
        GROUP BY t.id, t.amount`,
    );
    // Every payment made (by amount: they are distinct) has exactly one split entry of 10 %.
    const byAmount = rows.map((r) => [r.amount, r.entries, r.owed]).sort((a, b) => a[0] - b[0]);
    expect(byAmount).toEqual(amounts.map((a) => [a, 1, Math.floor((a * 1000) / 10_000)]));
    // The gateway talks to the killed instance's address: start it again, then read the summary.
    await stack.startApp('split-ledger-service');
    const summary = await stack.api<{ summary: { owed_to_you: { currency: string; total: number }[] } }>(
      'GET',
      '/v1/splits/ledger/summary',
      { key: partner.test.secret },
    );
    expect(summary.body.summary.owed_to_you).toEqual([
      { currency: 'USD', total: amounts.reduce((s, a) => s + Math.floor((a * 1000) / 10_000), 0) },
    ]);
  }, 120_000);
});
