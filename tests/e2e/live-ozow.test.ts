import { OzowFake } from '../support/fakes/ozow-fake';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

type Body = Record<string, unknown>;

const SITE = { siteCode: 'TSTSTE0001', privateKey: '215114531AFF7134A94C88CEEA48E', apiKey: 'ozow-e2e-api-key' };

/**
 * Live payments through a fake Ozow that follows its published API (PostPaymentRequest with
 * HashCheck, the customer's page, signed notifications, status by our reference, token, refunds):
 * pay, notification, return or poll, exactly one success webhook; what must change nothing; Ozow
 * down or its answer lost; a refund completed by Ozow's refund notification.
 */
describe('live payments through Ozow', () => {
  let stack: Stack;
  let fake: OzowFake;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;
  const receiver = new WebhookReceiver(selfSignedCertificate());

  beforeAll(async () => {
    fake = await OzowFake.start({ sites: [SITE], notificationRetryMs: 100 });
    await receiver.start();
    stack = await Stack.start(undefined, {
      OZOW_API_URL: fake.url,
      PROVIDER_POLL_INTERVAL_MS: '300',
      PROVIDER_TIMEOUT_MS: '2000',
      ...receiver.dispatcherEnv(),
    });
    keys = await stack.createBusiness('Cape Town Coffee');
    const connected = await stack.api('PUT', '/v1/connections/ozow', {
      key: keys.live.secret,
      body: { site_code: SITE.siteCode, private_key: SITE.privateKey, api_key: SITE.apiKey },
    });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ provider: 'ozow', account: 'site_…0001', methods: ['ozow'] });
    expect(JSON.stringify(connected.body)).not.toContain(SITE.privateKey);
    const callback = await stack.api('POST', '/v1/callback', {
      key: keys.live.secret,
      body: { url: receiver.url('/live'), events: ['transaction.success', 'transaction.failed'] },
    });
    expect(callback.status).toBeLessThan(300);
  }, 120_000);

  afterEach(async () => {
    await fake.online();
    fake.setMode('all', 'normal');
    fake.notifications = 'on';
    fake.duplicates = 1;
    fake.pendingFirst = false;
    await fake.idle();
  });

  afterAll(async () => {
    await stack?.stop();
    await fake?.stop();
    await receiver.stop();
  }, 120_000);

  const pay = (reference: string, extra: Body = {}) =>
    stack.api('POST', '/v1/transactions', {
      key: keys.live.secret,
      body: {
        amount: 1000,
        currency: 'ZAR',
        email: 'buyer@example.com',
        payment_method_code: 'ozow',
        transaction_reference: reference,
        ...extra,
      },
    });
  const verify = (reference: string) =>
    stack.api('GET', `/v1/transactions/verify?reference=${reference}`, { key: keys.live.secret });
  const statusOf = async (reference: string) => (await verify(reference)).body.status;
  const webhooksOf = (transactionId: unknown, event: string) =>
    receiver.at('/live').filter((w) => {
      const body = JSON.parse(w.body) as { event?: string; type?: string; data?: Body };
      return (body.event ?? body.type) === event && JSON.stringify(body.data).includes(String(transactionId));
    });
  const settledAs = (reference: string, status: string) =>
    waitFor(`${reference} to be ${status}`, async () => ((await statusOf(reference)) === status ? true : undefined), {
      timeoutMs: 30_000,
    });
  const oneSuccessWebhook = async (transactionId: unknown) => {
    await waitFor('the success webhook', () => webhooksOf(transactionId, 'transaction.success').length > 0);
    expect(webhooksOf(transactionId, 'transaction.success')).toHaveLength(1);
  };

  it('pays at authorization_url; notified: success, one success webhook; a duplicate changes nothing', async () => {
    const res = await pay('oz-notify-1');
    expect(res.status).toBe(200);
    const txn = String(res.body.transaction_id);
    const p = fake.payment(txn)!;
    expect(res.body).toMatchObject({ authorization_url: p.url });
    expect(await statusOf('oz-notify-1')).toBe('pending');
    // The customer pays the total, in rand with two decimals; every URL is ours.
    expect(p.request).toMatchObject({
      amount: Number(res.body.total).toFixed(2),
      transactionReference: txn,
      bankReference: 'oz-notify-1',
      isTest: false,
      notifyUrl: `${stack.gatewayUrl}/v1/provider-notifications/ozow/${txn}`,
      successUrl: `${stack.gatewayUrl}/v1/provider-returns/ozow/${txn}`,
      cancelUrl: `${stack.gatewayUrl}/v1/provider-returns/ozow/${txn}`,
      errorUrl: `${stack.gatewayUrl}/v1/provider-returns/ozow/${txn}`,
    });
    expect(fake.requestsTo('PostPaymentRequest').at(-1)!.headers.apikey).toBe(SITE.apiKey);
    const page = await fetch(`${p.url}?choose=Complete`);
    expect(await page.text()).toContain(`action="${stack.gatewayUrl}/v1/provider-returns/ozow/${txn}"`);
    await settledAs('oz-notify-1', 'success');
    await fake.idle();
    expect(fake.notificationAttempts.filter((a) => a.key === txn).map((a) => a.httpStatus)).toEqual([200]);
    const events = async () =>
      (
        await stack
          .db('transaction-service')
          .query(
            'SELECT count(*)::int AS n FROM outbox_events ' +
              "WHERE payload->'data'->'transaction'->>'transaction_reference' = 'oz-notify-1'",
          )
      ).rows[0].n as number;
    const before = await events();
    // Ozow may send it again: taken, nothing changes.
    expect((await fake.sendNotification(txn)).httpStatus).toBe(200);
    // The same notification posted to the account-wide URL (set in Ozow's merchant admin) finds its
    // payment by TransactionReference.
    const accountWide = await fetch(`${stack.gatewayUrl}/v1/provider-notifications/ozow`, {
      method: 'POST',
      body: new URLSearchParams(fake.responseFor(txn)),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(accountWide.status).toBe(200);
    await oneSuccessWebhook(txn);
    expect(await events()).toBe(before);
  }, 60_000);

  it('the return URL: back from Ozow without any notification, the customer finds the payment settled', async () => {
    fake.notifications = 'off';
    const res = await pay('oz-return-1');
    const txn = String(res.body.transaction_id);
    const back = fake.customerChooses(txn, 'Complete');
    expect(back.target).toBe(`${stack.gatewayUrl}/v1/provider-returns/ozow/${txn}`);
    // The browser posts Ozow's response variables to the return URL; they are not trusted, Ozow is asked.
    const before = fake.requestsTo('GetTransactionByReference').length;
    const returned = await fetch(back.target, {
      method: 'POST',
      body: back.body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(returned.status).toBe(303);
    expect(new URL(String(returned.headers.get('location')), stack.gatewayUrl).searchParams.get('checkout_id')).toMatch(
      /^chk_/,
    );
    expect(fake.requestsTo('GetTransactionByReference').length).toBeGreaterThan(before);
    expect(await statusOf('oz-return-1')).toBe('success');
    await oneSuccessWebhook(txn);
  }, 60_000);

  it('the poll: no notification and no return, the poller finds it by our reference', async () => {
    fake.notifications = 'off';
    const res = await pay('oz-poll-1');
    const txn = String(res.body.transaction_id);
    fake.customerChooses(txn, 'Complete');
    await settledAs('oz-poll-1', 'success');
    expect(fake.notificationAttempts.filter((a) => a.key === txn)).toEqual([]);
    expect(
      fake.requestsTo('GetTransactionByReference').some((r) => r.path.includes(`transactionReference=${txn}`)),
    ).toBe(true);
    await oneSuccessWebhook(txn);
  }, 60_000);

  it('Cancelled at Ozow: failed, with a transaction.failed webhook', async () => {
    const res = await pay('oz-cancel-1');
    const txn = String(res.body.transaction_id);
    fake.customerChooses(txn, 'Cancelled');
    await settledAs('oz-cancel-1', 'failed');
    await waitFor('the failed webhook', () => webhooksOf(txn, 'transaction.failed').length > 0);
  }, 60_000);

  it('Pending first, then Complete three times: applied once, one webhook', async () => {
    fake.pendingFirst = true;
    fake.duplicates = 3;
    const res = await pay('oz-dup-1');
    const txn = String(res.body.transaction_id);
    fake.customerChooses(txn, 'Complete');
    await fake.idle();
    expect(fake.notificationAttempts.filter((a) => a.key === txn).map((a) => [a.status, a.httpStatus])).toEqual([
      ['Pending', 200],
      ['Complete', 200],
      ['Complete', 200],
      ['Complete', 200],
    ]);
    await settledAs('oz-dup-1', 'success');
    await oneSuccessWebhook(txn);
  }, 60_000);

  it('notifications with a bad hash, a status altered under the old hash or another amount do nothing', async () => {
    fake.notifications = 'off';
    const res = await pay('oz-forged-1');
    const txn = String(res.body.transaction_id);
    fake.setStatus(txn, 'Cancelled');
    expect((await fake.sendNotification(txn, { Status: 'Complete' })).httpStatus).toBe(400);
    expect((await fake.sendNotification(txn, { Status: 'Complete', Hash: 'ab'.repeat(64) })).httpStatus).toBe(400);
    // Not success: at most Ozow's own Cancelled, found by the poller.
    expect(['pending', 'processing', 'failed']).toContain(await statusOf('oz-forged-1'));
    expect(webhooksOf(txn, 'transaction.success')).toEqual([]);

    const other = await pay('oz-mismatch-1');
    const otherTxn = String(other.body.transaction_id);
    fake.overrideAmount(otherTxn, '0.01');
    fake.customerChooses(otherTxn, 'Complete');
    expect((await fake.sendNotification(otherTxn)).httpStatus).toBe(400);
    expect(['pending', 'processing']).toContain(await statusOf('oz-mismatch-1'));
    expect(webhooksOf(otherTxn, 'transaction.success')).toEqual([]);
  }, 60_000);

  it('Ozow not reachable at all: 503, failed, nothing charged', async () => {
    await fake.offline();
    const res = await pay('oz-down-1');
    await fake.online();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'provider_unavailable' });
    expect(await statusOf('oz-down-1')).toBe('failed');
  }, 60_000);

  it('an answer lost on the way back: 502, pending; the poller asks Ozow by our reference, finds it paid', async () => {
    fake.setMode('PostPaymentRequest', 'drop-reply');
    const res = await pay('oz-lost-1');
    fake.setMode('PostPaymentRequest', 'normal');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'provider_error' });
    expect(await statusOf('oz-lost-1')).toBe('pending');
    // Ozow has the payment request (it was handled); it is paid there.
    const txn = fake.payments.at(-1)!.request.transactionReference;
    fake.notifications = 'off';
    fake.setStatus(txn, 'Complete');
    await settledAs('oz-lost-1', 'success');
    await oneSuccessWebhook(txn);
  }, 60_000);

  it('garbage answer: 502, pending; unknown to Ozow, it fails after three checks, nothing charged', async () => {
    fake.setMode('PostPaymentRequest', 'garbage');
    const res = await pay('oz-garbage-1');
    fake.setMode('PostPaymentRequest', 'normal');
    expect(res.status).toBe(502);
    expect(await statusOf('oz-garbage-1')).toBe('pending');
    await settledAs('oz-garbage-1', 'failed');
    const { rows } = await stack
      .db('transaction-service')
      .query(
        'SELECT p.state, p.last_error, p.not_found_checks FROM provider_payments p ' +
          'JOIN transactions t ON t.id = p.transaction_id WHERE t.reference = $1',
        ['oz-garbage-1'],
      );
    expect(rows[0]).toMatchObject({ state: 'final', last_error: 'not found at the provider' });
  }, 60_000);

  it("a refund goes to Ozow (token, submit), waits, and Ozow's refund notification completes it", async () => {
    const refund = await stack.api('POST', '/v1/transactions/refund', {
      key: keys.live.secret,
      body: { transaction_reference: 'oz-notify-1', amount: 400 },
    });
    expect(refund.status).toBe(200);
    const id = String(refund.body.refund_id);
    const submitted = await waitFor('the refund at Ozow', () =>
      fake.refunds.find((r) => r.notifyUrl.endsWith(`/${id}`)),
    );
    const paid = fake.payment(String((await verify('oz-notify-1')).body.transaction_id))!;
    expect(submitted).toMatchObject({
      transactionId: paid.transactions[0].transactionId,
      amount: '4.00',
      notifyUrl: `${stack.gatewayUrl}/v1/provider-notifications/ozow/${id}`,
      status: 'Pending',
    });
    const read = async () => (await stack.api('GET', `/v1/transactions/refunds/${id}`, { key: keys.live.secret })).body;
    expect(await read()).toMatchObject({ status: 'pending' });
    fake.settleRefund(submitted.refundId, 'Complete');
    await waitFor('the refund to succeed', async () => ((await read()).status === 'success' ? true : undefined));
    await fake.idle();
    expect(
      fake.notificationAttempts
        .filter((a) => a.kind === 'refund' && a.key === submitted.refundId)
        .map((a) => a.httpStatus),
    ).toEqual([200]);
  }, 60_000);

  it('live payment without a method: customer picks Ozow on the hosted checkout, is sent there and pays', async () => {
    const res = await stack.api('POST', '/v1/transactions', {
      key: keys.live.secret,
      body: { amount: 1500, currency: 'ZAR', email: 'buyer@example.com', transaction_reference: 'oz-chk-1' },
    });
    expect(res).toMatchObject({
      status: 200,
      body: { checkout_url: expect.stringContaining('/checkout?checkout_id=chk_') },
    });
    const checkoutId = String(new URL(String(res.body.checkout_url)).searchParams.get('checkout_id'));
    const sent = await fetch(`${stack.gatewayUrl}/checkout/pay`, {
      method: 'POST',
      body: new URLSearchParams({ checkout_id: checkoutId, action: 'pay', payment_method_code: 'ozow' }),
      redirect: 'manual',
    });
    expect(sent.status).toBe(303);
    const txn = String(
      (await verify('oz-chk-1')).body.transaction_id ?? fake.payments.at(-1)!.request.transactionReference,
    );
    const p = fake.payment(txn)!;
    expect(p.request.bankReference).toBe('oz-chk-1');
    const page = await (
      await fetch(`${stack.gatewayUrl}/checkout?checkout_id=${checkoutId}`, { redirect: 'manual' })
    ).text();
    expect(page).toMatch(/Ozow/);
    expect(page).toContain(p.url);
    expect(page).not.toContain('action="/checkout/pay"');
    await fetch(`${p.url}?choose=Complete`);
    await settledAs('oz-chk-1', 'success');
  }, 60_000);

  it("a test-mode connection sends the business's test payments to Ozow with IsTest=true", async () => {
    expect(
      (
        await stack.api('PUT', '/v1/connections/ozow', {
          key: keys.test.secret,
          body: { site_code: SITE.siteCode, private_key: SITE.privateKey, api_key: SITE.apiKey },
        })
      ).status,
    ).toBe(200);
    // The credentials cache of a process keeps a business's answer for up to 5 s.
    const res = await waitFor(
      'a test payment to reach Ozow',
      async () => {
        const before = fake.requestsTo('PostPaymentRequest').length;
        const r = await stack.api('POST', '/v1/transactions', {
          key: keys.test.secret,
          body: { amount: 500, currency: 'ZAR', email: 'buyer@example.com', payment_method_code: 'ozow' },
        });
        return fake.requestsTo('PostPaymentRequest').length > before ? r : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 1_000 },
    );
    expect(res.status).toBe(200);
    const txn = String(res.body.transaction_id);
    expect(fake.payment(txn)!.request.isTest).toBe(true);
    fake.notifications = 'off';
    fake.customerChooses(txn, 'Complete');
    await waitFor('the test payment to succeed by the poller (asking with isTest=true)', async () => {
      const r = await stack.api('GET', `/v1/transactions/verify?reference=${String(res.body.transaction_reference)}`, {
        key: keys.test.secret,
      });
      return r.body.status === 'success' ? true : undefined;
    });
    expect(
      fake
        .requestsTo('GetTransactionByReference')
        .some((r) => r.path.includes(`transactionReference=${txn}`) && r.path.includes('isTest=true')),
    ).toBe(true);
  }, 60_000);

  it("after all of it, no service's log line holds an Ozow key, hash, token or the customer's bank account", () => {
    const output = [...stack.processes.values()].map((p) => p.output).join('\n');
    const hashes = fake.notificationAttempts
      .map((a) => new URLSearchParams(a.body).get('Hash') ?? '')
      .filter((h) => h !== '');
    const hashChecks = fake
      .requestsTo('PostPaymentRequest')
      .map((r) => /"HashCheck":"([0-9a-f]+)"/.exec(r.body)?.[1] ?? '')
      .filter((h) => h !== '');
    expect(hashes.length).toBeGreaterThan(0);
    expect(hashChecks.length).toBeGreaterThan(0);
    for (const secret of [
      SITE.privateKey,
      SITE.apiKey,
      '62000000001',
      'Fake Bank',
      ...fake.tokens.keys(),
      ...hashes,
      ...hashChecks,
    ])
      expect(output).not.toContain(secret);
  });

  it('after all of it, no payment got two success webhooks and every webhook-id arrived once', () => {
    const ids = receiver.at('/live').map((w) => w.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const successes = receiver
      .at('/live')
      .filter((w) => (JSON.parse(w.body) as { event?: string }).event === 'transaction.success');
    const byPayment = successes.map((w) => (JSON.parse(w.body) as { data: Body }).data.transaction_id);
    expect(new Set(byPayment).size).toBe(byPayment.length);
    expect(successes.length).toBeGreaterThanOrEqual(5);
  });
});
