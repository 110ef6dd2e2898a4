/**
 * The fake Paynow driven by the real Paynow connector over HTTP on loopback (no database, Kafka or
 * Redis): the happy paths of every flow, test-mode numbers, polling, trace and hash checks.
 */
import type { InitiateRequest } from '../../apps/transaction-service/src/connectors/connector';
import { PaynowConnector } from '../../apps/transaction-service/src/connectors/paynow';
import { PaynowFake } from '../support/fakes/paynow-fake';
import { ResultReceiver } from '../support/fakes/result-receiver';
import { waitFor } from '../support/wait';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const C = { integrationId: '1201', integrationKey: KEY };
const OPTS = { timeoutMs: 5000 };
const FORM = 'application/x-www-form-urlencoded';

let fake: PaynowFake;
let receiver: ResultReceiver;
let connector: PaynowConnector;
let seq = 0;

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  seq += 1;
  return {
    transactionId: `txn_${seq}_${Date.now()}`,
    reference: `ORD-${seq}`,
    amountMinor: 1050,
    currency: 'USD',
    method: 'ecocash',
    phone: '0771234567',
    email: 'merchant@example.com',
    description: 'Test order',
    resultUrl: `${receiver.url}/paynow/result`,
    returnUrl: 'https://shop.example.com/return',
    ...over,
  };
}

/** The status updates the receiver got for a reference, verified by the connector. */
function updatesFor(reference: string) {
  return receiver.received
    .map((r) => connector.verifyNotification(C, r.body, r.contentType))
    .filter((o) => o.kind === 'valid' && o.update.reference === reference)
    .map((o) => (o.kind === 'valid' ? o.update : null));
}

beforeAll(async () => {
  receiver = await ResultReceiver.start();
  fake = await PaynowFake.start({ integrations: [{ id: '1201', key: KEY }], timeScale: 0.01, notificationRetryMs: 20 });
  connector = new PaynowConnector(fake.url);
});

afterAll(async () => {
  await fake?.stop();
  await receiver?.stop();
});

describe('the fake Paynow, driven by the connector', () => {
  it('ecocash with 0771111111: accepted, then a signed Paid status update (5 s, scaled)', async () => {
    const req = request({ phone: '0771111111' });
    const started = Date.now();
    const outcome = await connector.initiate(C, req, OPTS);
    expect(outcome).toMatchObject({ kind: 'accepted', status: 'processing', redirectUrl: null });
    if (outcome.kind !== 'accepted') throw new Error('not accepted');
    expect(outcome.pollUrl).toMatch(new RegExp(`^${fake.url}/Interface/CheckPayment/\\?guid=`));
    expect(outcome.instructions).toMatch(/ecocash/);

    const sent = fake.requestsTo('remotetransaction').at(-1);
    expect(sent?.fields.map(([k]) => k)).toEqual([
      'resulturl',
      'returnurl',
      'reference',
      'amount',
      'id',
      'additionalinfo',
      'authemail',
      'status',
      'phone',
      'method',
      'merchanttrace',
      'hash',
    ]);
    expect(sent?.fields.find(([k]) => k === 'amount')?.[1]).toBe('10.50');

    const [update] = await waitFor(
      'the Paid status update',
      () => (updatesFor(req.reference).length > 0 ? updatesFor(req.reference) : undefined),
      { intervalMs: 20, timeoutMs: 5000 },
    );
    expect(update).toEqual({
      providerStatus: 'Paid',
      status: 'success',
      recognized: true,
      refunded: false,
      reference: req.reference,
      amountMinor: 1050,
      providerReference: outcome.providerReference,
      pollUrl: outcome.pollUrl,
    });
    const posted = receiver.at('/paynow/result').find((r) => r.body.includes(encodeURIComponent(req.reference)));
    expect(posted?.contentType).toBe(FORM);
    expect(posted!.at - started).toBeGreaterThanOrEqual(50); // 5 s × timeScale 0.01
    expect(posted?.body.split('&').map((p) => p.split('=')[0])).toEqual([
      'reference',
      'amount',
      'paynowreference',
      'pollurl',
      'status',
      'hash',
    ]);
  });

  it('ecocash with 0774444444: declined, Insufficient balance, nothing created', async () => {
    const req = request({ phone: '0774444444' });
    expect(await connector.initiate(C, req, OPTS)).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'Insufficient balance',
    });
    expect(fake.payment(req.reference)).toBeUndefined();
  });

  it.each([
    ['0773333333', 'ecocash', null, 'Failed', 'failed', 300],
    ['0772222222', 'onemoney', null, 'Paid', 'success', 300],
    [null, 'vmc', '{11111111-1111-1111-1111-111111111111}', 'Paid', 'success', 50],
    [null, 'zimswitch', '33333333333333333333333333333333', 'Failed', 'failed', 300],
  ])(
    'test number %s / %s token %s ends %s',
    async (phone, method, paymentToken, providerStatus, status, notBeforeMs) => {
      const req = request({ phone, method, paymentToken });
      const started = Date.now();
      expect(await connector.initiate(C, req, OPTS)).toMatchObject({ kind: 'accepted', status: 'processing' });
      const [update] = await waitFor(
        'the final status update',
        () => (updatesFor(req.reference).length > 0 ? updatesFor(req.reference) : undefined),
        { intervalMs: 20, timeoutMs: 5000 },
      );
      expect(update).toMatchObject({ providerStatus, status });
      expect(Date.now() - started).toBeGreaterThanOrEqual(notBeforeMs); // the documented 5 s or 30 s × timeScale 0.01
    },
  );

  it('the vmc token 4444…: declined, Insufficient balance', async () => {
    const req = request({ method: 'vmc', phone: null, paymentToken: '{44444444-4444-4444-4444-444444444444}' });
    expect(await connector.initiate(C, req, OPTS)).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'Insufficient balance',
    });
  });

  it('innbucks: an authorization code to show, pending until the customer uses it', async () => {
    const outcome = await connector.initiate(C, request({ method: 'innbucks' }), OPTS);
    expect(outcome).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      authorizationCode: expect.stringMatching(/^\d{9}$/),
    });
    if (outcome.kind === 'accepted')
      expect(outcome.authorizationExpires).toMatch(/^\d{1,2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}$/);
  });

  it('polling alone: Sent, then Paid once settled, and no status update posted', async () => {
    fake.notifications = 'off';
    try {
      const req = request();
      const outcome = await connector.initiate(C, req, OPTS);
      if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
      expect(
        await connector.sync(C, { pollUrl: outcome.pollUrl, transactionId: req.transactionId }, OPTS),
      ).toMatchObject({
        kind: 'status',
        update: { providerStatus: 'Sent', status: 'processing', reference: req.reference, amountMinor: 1050 },
      });
      fake.settle(req.reference, 'Paid');
      expect(
        await connector.sync(C, { pollUrl: outcome.pollUrl, transactionId: req.transactionId }, OPTS),
      ).toMatchObject({ kind: 'status', update: { providerStatus: 'Paid', status: 'success' } });
      await fake.idle();
      expect(fake.notificationAttempts.filter((a) => a.reference === req.reference)).toEqual([]);
      expect(fake.requestsTo('checkpayment').at(-1)).toMatchObject({ method: 'POST', body: '' });
    } finally {
      fake.notifications = 'on';
    }
  });

  it('trace finds a payment by merchanttrace, and answers NotFound otherwise', async () => {
    const req = request();
    expect(await connector.initiate(C, req, OPTS)).toMatchObject({ kind: 'accepted' });
    expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)).toMatchObject({
      kind: 'status',
      update: {
        providerStatus: 'Sent',
        status: 'processing',
        reference: req.reference,
        providerReference: fake.payment(req.reference)?.paynowReference,
      },
    });
    expect(
      fake
        .requestsTo('trace')
        .at(-1)
        ?.fields.map(([k]) => k),
    ).toEqual(['id', 'merchanttrace', 'status', 'hash']);
    expect(await connector.sync(C, { pollUrl: null, transactionId: 'txn_never_sent' }, OPTS)).toEqual({
      kind: 'not_found',
    });
  });

  it('web flow (zimswitch): a redirect, the customer pays on the page, a Paid update', async () => {
    const req = request({ method: 'zimswitch', phone: null });
    const outcome = await connector.initiate(C, req, OPTS);
    expect(outcome).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      redirectUrl: expect.stringMatching(/\/Payment\/ConfirmPayment\/\d+$/),
    });
    if (outcome.kind !== 'accepted') throw new Error('not accepted');
    expect(
      fake
        .requestsTo('initiatetransaction')
        .at(-1)
        ?.fields.map(([k]) => k),
    ).toEqual([
      'resulturl',
      'returnurl',
      'reference',
      'amount',
      'id',
      'additionalinfo',
      'authemail',
      'status',
      'merchanttrace',
      'hash',
    ]);
    expect(await connector.sync(C, { pollUrl: outcome.pollUrl, transactionId: req.transactionId }, OPTS)).toMatchObject(
      { kind: 'status', update: { providerStatus: 'Created' } },
    );
    const page = await fetch(`${outcome.redirectUrl}?outcome=paid`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(req.returnUrl);
    const [update] = await waitFor(
      'the Paid status update',
      () => (updatesFor(req.reference).length > 0 ? updatesFor(req.reference) : undefined),
      { intervalMs: 20, timeoutMs: 5000 },
    );
    expect(update).toMatchObject({ providerStatus: 'Paid', status: 'success' });
    expect((await fetch(`${outcome.redirectUrl}?outcome=cancelled`, { redirect: 'manual' })).status).toBe(409);
  });

  it('refuses a wrong-key signature, an unknown integration, a bad amount or a missing authemail', async () => {
    const wrongKey = { integrationId: '1201', integrationKey: '00000000-0000-4000-8000-000000000000' };
    const bad = await connector.initiate(wrongKey, request(), OPTS);
    expect(bad).toMatchObject({
      kind: 'declined',
      source: 'provider',
      reason: expect.stringMatching(/^Invalid Hash\. {2}Hash should start with: [0-9A-F]{6}$/),
    });
    expect(await connector.initiate({ integrationId: '999', integrationKey: KEY }, request(), OPTS)).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'Invalid id.',
    });

    // Requests the connector would never build, sent by hand, signed correctly.
    const { encodePaynowMessage, withHash } = await import('../../apps/transaction-service/src/connectors/paynow');
    const post = async (fields: Array<[string, string]>) =>
      (
        await fetch(`${fake.url}/interface/remotetransaction`, {
          method: 'POST',
          headers: { 'content-type': FORM },
          body: encodePaynowMessage(withHash(fields, KEY)),
        })
      ).text();
    const base: Array<[string, string]> = [
      ['resulturl', `${receiver.url}/r`],
      ['returnurl', 'https://x.test/'],
      ['reference', 'HAND-1'],
      ['amount', '1.999'],
      ['id', '1201'],
      ['additionalinfo', ''],
      ['authemail', 'a@b.co'],
      ['status', 'Message'],
      ['phone', '0771234567'],
      ['method', 'ecocash'],
    ];
    expect(await post(base)).toBe('Status=Error&Error=Invalid+amount+field');
    const noEmail = base.map(([k, v]): [string, string] => [k, k === 'amount' ? '1.99' : k === 'authemail' ? '' : v]);
    expect(await post(noEmail)).toBe('Status=Error&Error=Invalid+authemail');
  });
});
