import { DECLINING_CARD, DpoFake } from '../support/fakes/dpo-fake';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

type Body = Record<string, unknown>;

const COMPANY = '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A';
const SERVICE_TYPE = '3854';

/**
 * Live payments end to end through a fake DPO Pay that follows its published protocol (createToken,
 * the payment page and its redirects, verifyToken by token and by CompanyRef, the unsigned push,
 * refundToken): connect, pay, return / push / poll, exactly one success webhook; what must change
 * nothing; DPO down or its answer lost at initialize; refunds through DPO's API.
 */
describe('live payments through DPO Pay', () => {
  let stack: Stack;
  let fake: DpoFake;
  let keys: Awaited<ReturnType<Stack['createBusiness']>>;
  let pushUrl: string;
  const receiver = new WebhookReceiver(selfSignedCertificate());

  beforeAll(async () => {
    fake = await DpoFake.start({ companies: [COMPANY], pushRetryMs: 100, maxPushAttempts: 3 });
    await receiver.start();
    stack = await Stack.start(undefined, {
      DPO_API_URL: fake.url,
      PROVIDER_POLL_INTERVAL_MS: '300',
      PROVIDER_TIMEOUT_MS: '2000',
      ...receiver.dispatcherEnv(),
    });
    pushUrl = `${stack.gatewayUrl}/v1/provider-notifications/dpo`;
    keys = await stack.createBusiness('Lusaka Lighting');
    const connected = await stack.api('PUT', '/v1/connections/dpo', {
      key: keys.live.secret,
      body: { company_token: COMPANY, service_type: SERVICE_TYPE },
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

  afterEach(async () => {
    await fake.idle();
    fake.pushUrl = null;
    fake.setMode('all', 'normal');
    await fake.goOnline();
  });

  const pay = (reference: string, extra: Body = {}) =>
    stack.api('POST', '/v1/transactions', {
      key: keys.live.secret,
      body: {
        amount: 1000,
        currency: 'USD',
        email: 'buyer@example.com',
        payment_method_code: 'dpo',
        transaction_reference: reference,
        ...extra,
      },
    });
  const verify = (reference: string) =>
    stack.api('GET', `/v1/transactions/verify?reference=${reference}`, { key: keys.live.secret });
  const statusOf = async (reference: string) => String((await verify(reference)).body.status);
  const webhooksOf = (transactionId: unknown, event: string) =>
    receiver.at('/live').filter((w) => {
      const body = JSON.parse(w.body) as { event?: string; type?: string; data?: Body };
      return (body.event ?? body.type) === event && JSON.stringify(body.data).includes(String(transactionId));
    });
  const settledAs = (reference: string, status: string) =>
    waitFor(`${reference} to be ${status}`, async () => ((await statusOf(reference)) === status ? true : undefined), {
      timeoutMs: 30_000,
    });
  /** A payment at DPO, awaiting the customer: its transaction id and TransToken. */
  const started = async (
    reference: string,
  ): Promise<{ id: string; token: string; res: Awaited<ReturnType<typeof pay>> }> => {
    const res = await pay(reference);
    expect(res.status).toBe(200);
    const token = fake.payment(String(res.body.transaction_id))?.token;
    if (!token) throw new Error(`no token at the fake for ${reference}`);
    return { id: String(res.body.transaction_id), token, res };
  };

  it('initialize sends createToken; customer pays, returns via our URL to outcome; one success webhook', async () => {
    const { id, token, res } = await started('dpo-return-1');
    expect(res.body).toMatchObject({
      result: 'success',
      transaction_reference: 'dpo-return-1',
      authorization_url: `${fake.url}/payv2.php?ID=${token}`,
    });
    const sent = fake.requestsTo('createToken').at(-1)!.fields;
    const back = `${stack.gatewayUrl}/v1/provider-returns/dpo/${id}`;
    expect(sent).toMatchObject({
      CompanyToken: COMPANY,
      ServiceType: SERVICE_TYPE,
      CompanyRef: id,
      CompanyRefUnique: '1',
      PaymentCurrency: 'USD',
      RedirectURL: back,
      BackURL: back,
      customerEmail: 'buyer@example.com',
    });
    // The customer pays the total, in major units with two decimals.
    expect(sent.PaymentAmount).toBe(Number(res.body.total).toFixed(2));
    expect(await statusOf('dpo-return-1')).toBe('pending');

    const page = await fetch(String(res.body.authorization_url));
    expect(page.status).toBe(200);
    const submitted = await fetch(`${fake.url}/payv2.php`, {
      method: 'POST',
      body: new URLSearchParams({ ID: token, action: 'pay', card: '5436886269848367' }),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(302);
    const location = String(submitted.headers.get('location'));
    expect(location.startsWith(`${back}?TransID=`)).toBe(true);
    const returned = await fetch(location, { redirect: 'manual' });
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toMatch(/^\/checkout\?checkout_id=chk_/);
    // The return asked DPO at once: the outcome is known when the customer arrives.
    expect(await statusOf('dpo-return-1')).toBe('success');
    expect(fake.requestsTo('verifyToken').some((r) => r.fields.TransactionToken === token)).toBe(true);
    await waitFor('the success webhook', () => webhooksOf(id, 'transaction.success').length > 0);
    expect(webhooksOf(id, 'transaction.success')).toHaveLength(1);
  }, 60_000);

  it("DPO's push (no return, account-wide URL) gets OK and settles the payment; duplicates apply once", async () => {
    fake.pushUrl = pushUrl;
    const { id, token } = await started('dpo-push-1');
    fake.pay(token); // the customer never comes back
    await settledAs('dpo-push-1', 'success');
    await fake.idle();
    expect(fake.pushes.filter((p) => p.token === token).map((p) => [p.httpStatus, p.answer, p.ok])).toEqual([
      [200, 'OK', true],
    ]);
    expect((await fake.sendPush(token)).ok).toBe(true);
    expect((await fake.sendPush(token)).ok).toBe(true);
    await waitFor('the success webhook', () => webhooksOf(id, 'transaction.success').length > 0);
    const { rows } = await stack
      .db('transaction-service')
      .query(
        'SELECT count(*)::int AS n FROM outbox_events ' +
          "WHERE payload->'data'->'transaction'->>'transaction_reference' = 'dpo-push-1'",
      );
    expect(rows[0].n).toBe(3); // created, processing, success
    expect(webhooksOf(id, 'transaction.success')).toHaveLength(1);
  }, 60_000);

  it('without return or push, the poller finds the outcome with verifyToken', async () => {
    const { id, token } = await started('dpo-poll-1');
    await waitFor('a verifyToken by the poller', () =>
      fake.requestsTo('verifyToken').some((r) => r.fields.TransactionToken === token),
    );
    expect(await statusOf('dpo-poll-1')).toBe('pending'); // 900: not paid yet
    fake.pay(token);
    await settledAs('dpo-poll-1', 'success');
    await waitFor('the success webhook', () => webhooksOf(id, 'transaction.success').length > 0);
    expect(webhooksOf(id, 'transaction.success')).toHaveLength(1);
  }, 60_000);

  it('a declined card ends failed (verifyToken 901), with a transaction.failed webhook', async () => {
    const { id, token } = await started('dpo-declined-1');
    const back = fake.pay(token, DECLINING_CARD);
    expect(back.status).toBe(302);
    expect((await fetch(String(back.location), { redirect: 'manual' })).status).toBe(303);
    expect(await statusOf('dpo-declined-1')).toBe('failed');
    await waitFor('the failed webhook', () => webhooksOf(id, 'transaction.failed').length > 0);
  }, 60_000);

  it('a push for a payment not paid changes nothing: the recheck says 900', async () => {
    const { token } = await started('dpo-unpaid-push-1');
    const forged = await fake.sendPush(token, {}, pushUrl); // its Result says nothing we trust
    expect(forged.httpStatus).toBe(200);
    expect(fake.requestsTo('verifyToken').some((r) => r.fields.TransactionToken === token)).toBe(true);
    expect(await statusOf('dpo-unpaid-push-1')).toBe('pending');
    // A push naming no payment of ours, or none at all, is refused.
    expect((await fake.sendPush(token, { CompanyRef: 'txn_notours' }, pushUrl)).httpStatus).toBe(400);
    expect((await fake.sendPush(token, { CompanyRef: null }, pushUrl)).httpStatus).toBe(400);
    expect(await statusOf('dpo-unpaid-push-1')).toBe('pending');
  }, 60_000);

  it('a mismatched amount or currency in verifyToken changes nothing, until DPO says the right one', async () => {
    const { token } = await started('dpo-mismatch-1');
    fake.setVerifyAmount(token, '0.01');
    const back = fake.pay(token);
    expect((await fetch(String(back.location), { redirect: 'manual' })).status).toBe(303);
    // The push makes us ask DPO again: its answer does not match, so nothing is applied (the push
    // itself is answered OK: resending it would not change DPO's answer).
    const verifiesBefore = fake.requestsTo('verifyToken').length;
    expect(await fake.sendPush(token, {}, pushUrl)).toMatchObject({ httpStatus: 200 });
    expect(fake.requestsTo('verifyToken').length).toBeGreaterThan(verifiesBefore);
    expect(await statusOf('dpo-mismatch-1')).toBe('pending');
    // The right amount in another currency does not match either.
    fake.setVerifyAmount(token, null);
    fake.setVerifyCurrency(token, 'ZAR');
    expect(await fake.sendPush(token, {}, pushUrl)).toMatchObject({ httpStatus: 200 });
    expect(await statusOf('dpo-mismatch-1')).toBe('pending');
    fake.setVerifyCurrency(token, null);
    await settledAs('dpo-mismatch-1', 'success');
  }, 60_000);

  it('DPO refusing connections at initialize: 503, the payment failed, nothing at DPO', async () => {
    await fake.goOffline();
    const res = await pay('dpo-down-1');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'provider_unavailable' });
    expect(await statusOf('dpo-down-1')).toBe('failed');
    await fake.goOnline();
    expect(fake.payment(String(res.body.transaction_id ?? ''))).toBeUndefined();
  }, 60_000);

  it("createToken's answer lost: 502, pending; the poller finds it by CompanyRef, completes it once paid", async () => {
    fake.setMode('createToken', 'drop-reply');
    const res = await pay('dpo-lost-1');
    fake.setMode('createToken', 'normal');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'provider_error', message: expect.stringContaining('stays pending') });
    expect(await statusOf('dpo-lost-1')).toBe('pending');
    const { rows } = await stack
      .db('transaction-service')
      .query("SELECT public_id FROM transactions WHERE reference = 'dpo-lost-1'");
    const id = String(rows[0].public_id);
    const p = fake.payment(id)!;
    expect(p).toBeDefined(); // it reached DPO
    await waitFor('a verifyToken by CompanyRef', () =>
      fake.requestsTo('verifyToken').some((r) => r.fields.CompanyRef === id),
    );
    expect(await statusOf('dpo-lost-1')).toBe('pending');
    fake.pay(p.token);
    await settledAs('dpo-lost-1', 'success');
  }, 60_000);

  it('garbage answer to createToken: 502, payment stays pending (DPO has no not-found code to fail on)', async () => {
    fake.setMode('createToken', 'garbage');
    const res = await pay('dpo-garbage-1');
    fake.setMode('createToken', 'normal');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'provider_error' });
    expect(await statusOf('dpo-garbage-1')).toBe('pending');
  }, 60_000);

  it('a refund goes to DPO with refundToken: refunded → success; refused (999) → failed', async () => {
    const refund = await stack.api('POST', '/v1/transactions/refund', {
      key: keys.live.secret,
      body: { transaction_reference: 'dpo-return-1', amount: 400 },
    });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({ status: 'success', amount: 400 });
    const { rows } = await stack
      .db('transaction-service')
      .query("SELECT public_id FROM transactions WHERE reference = 'dpo-return-1'");
    const p = fake.payment(String(rows[0].public_id))!;
    expect(fake.requestsTo('refundToken').at(-1)?.fields).toMatchObject({
      TransactionToken: p.token,
      refundAmount: '4.00',
      refundRef: String(refund.body.refund_id),
    });
    expect(p.refunds).toHaveLength(1);
    // Refunded in full at DPO's dashboard meanwhile: DPO refuses the next one.
    p.refundedCents = Math.round(Number(p.request.amount) * 100);
    const refused = await stack.api('POST', '/v1/transactions/refund', {
      key: keys.live.secret,
      body: { transaction_reference: 'dpo-return-1', amount: 100 },
    });
    expect(refused.status).toBe(200);
    const read = async () =>
      (await stack.api('GET', `/v1/transactions/refunds/${String(refused.body.refund_id)}`, { key: keys.live.secret }))
        .body;
    expect(await read()).toMatchObject({ status: 'failed', message: expect.stringContaining('999') });
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
