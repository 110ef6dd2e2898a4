import { PaynowFake } from '../support/fakes/paynow-fake';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

type Body = Record<string, unknown>;

const INTEGRATION = { id: '1201', key: '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977' };

/**
 * Live payments end to end through a fake Paynow that follows its published protocol (hashes,
 * test-mode numbers, status updates resent up to ten times, poll URLs and trace): connect, pay,
 * notification or poll, exactly one success webhook; and what must change nothing.
 */
describe('live payments through Paynow', () => {
  let stack: Stack;
  let fake: PaynowFake;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;
  const receiver = new WebhookReceiver(selfSignedCertificate());

  beforeAll(async () => {
    // 5 s and 30 s test-mode delays become 0.25 s and 1.5 s.
    fake = await PaynowFake.start({ integrations: [INTEGRATION], timeScale: 0.05, notificationRetryMs: 100 });
    await receiver.start();
    stack = await Stack.start(undefined, {
      PAYNOW_API_URL: fake.url,
      PROVIDER_POLL_INTERVAL_MS: '300',
      PROVIDER_TIMEOUT_MS: '2000',
      ...receiver.dispatcherEnv(),
    });
    keys = await stack.createBusiness('Harare Hardware');
    const connected = await stack.api('PUT', '/v1/connections/paynow', {
      key: keys.live.secret,
      body: { integration_id: INTEGRATION.id, integration_key: INTEGRATION.key },
    });
    expect(connected.status).toBe(200);
    const callback = await stack.api('POST', '/v1/callback', {
      key: keys.live.secret,
      body: { url: receiver.url('/live'), events: ['transaction.success', 'transaction.failed'] },
    });
    expect(callback.status).toBeLessThan(300);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await fake?.stop();
    await receiver.stop();
  }, 120_000);

  const pay = (reference: string, phone: string, extra: Body = {}) =>
    stack.api('POST', '/v1/transactions', {
      key: keys.live.secret,
      body: {
        amount: 1000,
        currency: 'USD',
        email: 'merchant@example.com',
        payment_method_code: 'ecocash',
        mobile_money_number: phone,
        transaction_reference: reference,
        ...extra,
      },
    });
  const verify = (reference: string) =>
    stack.api('GET', `/v1/transactions/verify?reference=${reference}`, { key: keys.live.secret });
  const webhooksOf = (transactionId: unknown, event: string) =>
    receiver.at('/live').filter((w) => {
      const body = JSON.parse(w.body) as { event?: string; type?: string; data?: Body };
      return (body.event ?? body.type) === event && JSON.stringify(body.data).includes(String(transactionId));
    });
  const settledAs = (reference: string, status: string) =>
    waitFor(
      `${reference} to be ${status}`,
      async () => ((await verify(reference)).body.status === status ? true : undefined),
      { timeoutMs: 30_000 },
    );

  it("live EcoCash payment: processing → success by Paynow's status update; exactly one success webhook", async () => {
    const res = await pay('live-notify-1', '0771111111');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', transaction_reference: 'live-notify-1', total: 10.15 });
    const sent = fake.requestsTo('remotetransaction').at(-1)!;
    // The customer is charged the total, in major units with two decimals; the result URL is ours.
    expect(Object.fromEntries(sent.fields)).toMatchObject({
      amount: '10.15',
      method: 'ecocash',
      phone: '0771111111',
      reference: 'live-notify-1',
      id: INTEGRATION.id,
    });
    expect(Object.fromEntries(sent.fields).resulturl).toBe(
      `${stack.gatewayUrl}/v1/provider-notifications/paynow/${res.body.transaction_id}`,
    );
    await settledAs('live-notify-1', 'success');
    await waitFor('the success webhook', () => webhooksOf(res.body.transaction_id, 'transaction.success').length > 0);
    await fake.idle();
    expect(fake.notificationAttempts.filter((a) => a.reference === 'live-notify-1').map((a) => a.httpStatus)).toEqual([
      200,
    ]);
    // A resent update (Paynow resends) is taken again and changes nothing.
    const again = await fake.sendNotification('live-notify-1');
    expect(again.httpStatus).toBe(200);
    const { rows } = await stack
      .db('transaction-service')
      .query(
        'SELECT count(*)::int AS n FROM outbox_events ' +
          "WHERE payload->'data'->'transaction'->>'transaction_reference' = 'live-notify-1'",
      );
    expect(rows[0].n).toBe(3); // created, processing, success
    expect(webhooksOf(res.body.transaction_id, 'transaction.success')).toHaveLength(1);
  }, 60_000);

  it('without any status update, the poller finds the outcome at the poll URL', async () => {
    fake.notifications = 'off';
    try {
      const res = await pay('live-poll-1', '0772222222');
      expect(res.status).toBe(200);
      await settledAs('live-poll-1', 'success');
      expect(fake.notificationAttempts.filter((a) => a.reference === 'live-poll-1')).toEqual([]);
      expect(fake.requestsTo('checkpayment').length).toBeGreaterThan(0);
      await waitFor('the success webhook', () => webhooksOf(res.body.transaction_id, 'transaction.success').length > 0);
      expect(webhooksOf(res.body.transaction_id, 'transaction.success')).toHaveLength(1);
    } finally {
      fake.notifications = 'on';
    }
  }, 60_000);

  it('a payment Paynow fails (test number 0773333333) ends failed', async () => {
    const res = await pay('live-fail-1', '0773333333');
    expect(res.status).toBe(200);
    await settledAs('live-fail-1', 'failed');
  }, 60_000);

  it("immediate refusal (Insufficient balance): 402 naming Paynow's reason; failed, never processing", async () => {
    const res = await pay('live-declined-1', '0774444444');
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      code: 'payment_declined',
      message: expect.stringContaining('Insufficient balance'),
    });
    expect((await verify('live-declined-1')).body.status).toBe('failed');
  });

  it('a forged update (bad hash) and one whose amount does not match change nothing', async () => {
    fake.notifications = 'off';
    try {
      const res = await pay('live-forged-1', '0770000001');
      expect(res.status).toBe(200);
      const forged = await fake.sendNotification('live-forged-1', { status: 'Paid', hash: 'A'.repeat(128) });
      expect(forged.httpStatus).toBe(400);
      const mismatch = await fake.sendNotification('live-forged-1', { status: 'Paid', amount: '0.01' });
      expect(mismatch.httpStatus).toBe(400);
      expect((await verify('live-forged-1')).body.status).toBe('processing');
      // The real one, twice (Paynow resends): applied once.
      fake.settle('live-forged-1', 'Paid');
      expect((await fake.sendNotification('live-forged-1')).httpStatus).toBe(200);
      expect((await fake.sendNotification('live-forged-1')).httpStatus).toBe(200);
      await settledAs('live-forged-1', 'success');
      await waitFor('the success webhook', () => webhooksOf(res.body.transaction_id, 'transaction.success').length > 0);
      expect(webhooksOf(res.body.transaction_id, 'transaction.success')).toHaveLength(1);
    } finally {
      fake.notifications = 'on';
    }
  }, 60_000);

  it('an answer with a bad hash is a 502; the payment stays pending, is found by trace, then completes', async () => {
    fake.setMode('remotetransaction', 'bad-hash');
    let res;
    try {
      res = await pay('live-badhash-1', '0771111111');
    } finally {
      fake.setMode('remotetransaction', 'normal');
    }
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'provider_error', message: expect.stringContaining('stays pending') });
    expect(['pending', 'processing', 'success']).toContain((await verify('live-badhash-1')).body.status);
    await settledAs('live-badhash-1', 'success');
  }, 60_000);

  it('Paynow down: 503 and the payment is failed, never stuck in processing', async () => {
    fake.setMode('remotetransaction', 'down');
    try {
      const res = await pay('live-down-1', '0771111111');
      expect([502, 503]).toContain(res.status);
      expect((res.body as Body).code).toMatch(/^provider_(error|unavailable)$/);
      expect((await verify('live-down-1')).body.status).not.toBe('processing');
    } finally {
      fake.setMode('remotetransaction', 'normal');
    }
  }, 60_000);

  it('live payment via an unconnected provider: 422; test one without a test connection stays in sandbox', async () => {
    const other = await stack.createBusiness('Not Connected');
    const res = await stack.api('POST', '/v1/transactions', {
      key: other.live.secret,
      body: {
        amount: 1000,
        currency: 'USD',
        email: 'a@example.com',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771111111',
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'payment_method_unavailable',
      message: expect.stringContaining('PUT /v1/connections/paynow'),
    });
    const before = fake.requests.length;
    const sandbox = await stack.api('POST', '/v1/transactions', {
      key: keys.test.secret,
      body: {
        amount: 1000,
        currency: 'USD',
        email: 'a@example.com',
        payment_method_code: 'ecocash',
        mobile_money_number: '0771111111',
        transaction_reference: 'sandbox-1',
      },
    });
    expect(sandbox.status).toBe(200);
    expect(fake.requests.length).toBe(before);
    // Without a method, a business with no live connection has nothing to offer: 422 too.
    const noMethod = await stack.api('POST', '/v1/transactions', {
      key: other.live.secret,
      body: { amount: 1000, currency: 'USD', email: 'a@example.com' },
    });
    expect(noMethod).toMatchObject({
      status: 422,
      body: { code: 'payment_method_unavailable', message: expect.stringContaining('PUT /v1/connections') },
    });
  });

  it("live payment without a method: the hosted checkout sends the customer's choice to its provider", async () => {
    const res = await stack.api('POST', '/v1/transactions', {
      key: keys.live.secret,
      body: { amount: 1000, currency: 'USD', email: 'merchant@example.com', transaction_reference: 'live-chk-1' },
    });
    expect(res).toMatchObject({
      status: 200,
      body: { checkout_url: expect.stringContaining('/checkout?checkout_id=chk_') },
    });
    const checkoutId = String(new URL(String(res.body.checkout_url)).searchParams.get('checkout_id'));
    const choose = (fields: Record<string, string>) =>
      fetch(`${stack.gatewayUrl}/checkout/pay`, {
        method: 'POST',
        body: new URLSearchParams({ checkout_id: checkoutId, action: 'pay', ...fields }),
        redirect: 'manual',
      });
    // DPO Pay is not connected: the page says so and nothing is kept.
    const refused = await choose({ payment_method_code: 'dpo' });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('PUT /v1/connections/dpo');
    expect((await verify('live-chk-1')).body).toMatchObject({ status: 'pending' });
    // Paid after 1.5 s here.
    const sent = await choose({ payment_method_code: 'ecocash', mobile_money_number: '0772222222' });
    expect(sent.status).toBe(303);
    const total = (await verify('live-chk-1')).body.total as number;
    expect(Object.fromEntries(fake.requestsTo('remotetransaction').at(-1)!.fields)).toMatchObject({
      reference: 'live-chk-1',
      method: 'ecocash',
      amount: (total / 100).toFixed(2),
    });
    // While Paynow has it, the page shows who has it, never the form.
    const page = await (
      await fetch(`${stack.gatewayUrl}/checkout?checkout_id=${checkoutId}`, { redirect: 'manual' })
    ).text();
    expect(page).toMatch(/Paynow/);
    expect(page).not.toContain('action="/checkout/pay"');
    await settledAs('live-chk-1', 'success');
  }, 60_000);

  it("a test-mode connection sends the business's test payments to Paynow's test mode", async () => {
    expect(
      (
        await stack.api('PUT', '/v1/connections/paynow', {
          key: keys.test.secret,
          body: { integration_id: INTEGRATION.id, integration_key: INTEGRATION.key },
        })
      ).status,
    ).toBe(200);
    // The credentials cache of a process keeps a business's answer for up to 5 s.
    const res = await waitFor(
      'a test payment to reach Paynow',
      async () => {
        const before = fake.requestsTo('remotetransaction').length;
        const r = await stack.api('POST', '/v1/transactions', {
          key: keys.test.secret,
          body: {
            amount: 500,
            currency: 'USD',
            email: 'merchant@example.com',
            payment_method_code: 'ecocash',
            mobile_money_number: '0771111111',
          },
        });
        return fake.requestsTo('remotetransaction').length > before ? r : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 1_000 },
    );
    expect(res.status).toBe(200);
    await waitFor('the test payment to succeed', async () => {
      const r = await stack.api('GET', `/v1/transactions/verify?reference=${String(res.body.transaction_reference)}`, {
        key: keys.test.secret,
      });
      return r.body.status === 'success' ? true : undefined;
    });
  }, 60_000);

  it("ZimSwitch web flow: authorization_url; checkout can't decline; pay at Paynow, back to outcome", async () => {
    fake.notifications = 'off';
    try {
      const res = await pay('live-web-1', '', { payment_method_code: 'zimswitch', mobile_money_number: undefined });
      expect(res.status).toBe(200);
      const url = String(res.body.authorization_url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payment\/confirmpayment\/\d+/i);
      expect(fake.requestsTo('initiatetransaction').length).toBeGreaterThan(0);
      expect((await verify('live-web-1')).body.status).toBe('pending');
      // Paynow sends the customer back to our return URL, which asks Paynow and goes on to the checkout page.
      const back = Object.fromEntries(fake.requestsTo('initiatetransaction').at(-1)!.fields).returnurl;
      expect(back).toBe(`${stack.gatewayUrl}/v1/provider-returns/paynow/${res.body.transaction_id}`);
      const early = await fetch(back, { redirect: 'manual' });
      expect(early.status).toBe(303);
      const checkoutId = new URL(String(early.headers.get('location')), stack.gatewayUrl).searchParams.get(
        'checkout_id',
      );
      expect(checkoutId).toMatch(/^chk_/);
      // Back before paying: not final (Paynow says Created), and the checkout page must not end the payment itself.
      const open = ['pending', 'processing'];
      expect(open).toContain((await verify('live-web-1')).body.status);
      await fetch(`${stack.gatewayUrl}/checkout/pay`, {
        method: 'POST',
        body: new URLSearchParams({ checkout_id: String(checkoutId), action: 'decline' }),
        redirect: 'manual',
      });
      expect(open).toContain((await verify('live-web-1')).body.status);
      expect(
        (await fetch(`${url}${url.includes('?') ? '&' : '?'}outcome=paid`, { redirect: 'manual' })).status,
      ).toBeLessThan(400);
      // Back after paying: the outcome is known when the customer arrives (no status update was sent).
      const checksBefore = fake.requestsTo('checkpayment').length;
      expect((await fetch(back, { redirect: 'manual' })).status).toBe(303);
      expect(fake.requestsTo('checkpayment').length).toBeGreaterThan(checksBefore);
      expect((await verify('live-web-1')).body.status).toBe('success');
      // Forged returns change nothing: an unknown payment or provider is a 404.
      expect(
        (await fetch(`${stack.gatewayUrl}/v1/provider-returns/paynow/txn_doesnotexist`, { redirect: 'manual' })).status,
      ).toBe(404);
      expect(
        (
          await fetch(`${stack.gatewayUrl}/v1/provider-returns/ozow/${res.body.transaction_id}`, {
            redirect: 'manual',
          })
        ).status,
      ).toBe(404);
    } finally {
      fake.notifications = 'on';
    }
  }, 60_000);

  it('a live Paynow refund waits for an operator, who completes or fails it through the admin API', async () => {
    const admin = { authorization: `Bearer ${stack.adminToken}` };
    const refund = await stack.api('POST', '/v1/transactions/refund', {
      key: keys.live.secret,
      body: { transaction_reference: 'live-notify-1', amount: 400 },
    });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({ status: 'pending', amount: 400 });
    const id = String(refund.body.refund_id);
    const read = async () => (await stack.api('GET', `/v1/transactions/refunds/${id}`, { key: keys.live.secret })).body;
    expect(await read()).toMatchObject({ status: 'pending', message: expect.stringContaining('operator') });
    const done = await stack.api('POST', `/admin/v1/refunds/${id}/complete`, {
      headers: admin,
      body: { note: 'Refunded at Paynow, ref 9510' },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ refund_id: id, status: 'success', message: 'Refunded at Paynow, ref 9510' });
    const again = await stack.api('POST', `/admin/v1/refunds/${id}/fail`, { headers: admin, body: {} });
    expect(again.status).toBe(400);
    expect(await read()).toMatchObject({ status: 'success' });

    const second = await stack.api('POST', '/v1/transactions/refund', {
      key: keys.live.secret,
      body: { transaction_reference: 'live-notify-1', amount: 100 },
    });
    const failed = await stack.api('POST', `/admin/v1/refunds/${String(second.body.refund_id)}/fail`, {
      headers: admin,
      body: {},
    });
    expect(failed.body).toMatchObject({ status: 'failed' });
    // A merchant key cannot resolve refunds; an unknown id is a 404.
    expect(
      (await stack.api('POST', `/admin/v1/refunds/${id}/complete`, { key: keys.live.secret, body: {} })).status,
    ).toBe(401);
    expect(
      (await stack.api('POST', '/admin/v1/refunds/rfd_unknown/complete', { headers: admin, body: {} })).status,
    ).toBe(404);
  }, 60_000);

  it('after all of it, no payment got two success webhooks and every webhook-id arrived once', () => {
    const ids = receiver.at('/live').map((w) => w.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const successes = receiver
      .at('/live')
      .filter((w) => (JSON.parse(w.body) as { event?: string }).event === 'transaction.success');
    const byPayment = successes.map((w) => (JSON.parse(w.body) as { data: Body }).data.transaction_id);
    expect(new Set(byPayment).size).toBe(byPayment.length);
    expect(successes.length).toBeGreaterThanOrEqual(4);
  });
});
