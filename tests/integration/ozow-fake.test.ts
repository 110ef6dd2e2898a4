/**
 * The fake Ozow driven by the real Ozow connector over HTTP on loopback (no database, Kafka or
 * Redis): payment requests, the customer's choice, notifications, the status API and refunds.
 */
import type { InitiateRequest } from '../../apps/transaction-service/src/connectors/connector';
import { OzowConnector } from '../../apps/transaction-service/src/connectors/ozow';
import { OzowFake } from '../support/fakes/ozow-fake';
import { ResultReceiver } from '../support/fakes/result-receiver';
import { waitFor } from '../support/wait';

const SITE = { siteCode: 'TSTSTE0001', privateKey: '215114531AFF7134A94C88CEEA48E', apiKey: 'ak-1a2b3c4d5e6f' };
const C = { ...SITE };
const OPTS = { timeoutMs: 5000 };
const FORM = 'application/x-www-form-urlencoded';

let fake: OzowFake;
let receiver: ResultReceiver;
let connector: OzowConnector;
let seq = 0;

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  seq += 1;
  return {
    transactionId: `txn_${seq}_${Date.now()}`,
    reference: `ORD-${seq}`,
    amountMinor: 2500,
    currency: 'ZAR',
    method: 'ozow',
    phone: null,
    email: 'merchant@example.com',
    description: null,
    resultUrl: `${receiver.url}/notify/${seq}`,
    returnUrl: `${receiver.url}/return/${seq}`,
    ...over,
  };
}

/** Verified notifications the receiver got at a path. */
function verifiedAt(path: string) {
  return receiver.at(path).map((r) => connector.verifyNotification(C, r.body, r.contentType));
}

beforeAll(async () => {
  receiver = await ResultReceiver.start();
  fake = await OzowFake.start({ sites: [SITE], notificationRetryMs: 20 });
  connector = new OzowConnector(fake.url);
});

afterEach(async () => {
  await fake.idle();
  fake.notifications = 'on';
  fake.pendingFirst = false;
  fake.duplicates = 1;
});

afterAll(async () => {
  await fake?.stop();
  await receiver?.stop();
});

describe('the fake Ozow, driven by the connector', () => {
  it('a payment request: accepted, pending, the page URL; sent as JSON with the ApiKey', async () => {
    const req = request();
    const out = await connector.initiate(C, req, OPTS);
    const p = fake.payment(req.transactionId)!;
    expect(out).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      providerReference: p.paymentRequestId,
      redirectUrl: `${fake.url}/${p.paymentRequestId}/Secure`,
      pollUrl: null,
    });
    const sent = fake.requestsTo('PostPaymentRequest').at(-1)!;
    expect(sent.headers).toMatchObject({
      apikey: SITE.apiKey,
      accept: 'application/json',
      'content-type': 'application/json',
    });
    expect(p.request).toMatchObject({
      amount: '25.00',
      bankReference: `ORD-${seq}`,
      isTest: false,
      notifyUrl: req.resultUrl,
      successUrl: req.returnUrl,
      cancelUrl: req.returnUrl,
      errorUrl: req.returnUrl,
    });
  });

  it('not found before the page opens; processing on it; Complete notified, signed, new TransactionId', async () => {
    const req = request();
    const out = await connector.initiate(C, req, OPTS);
    const target = { pollUrl: null, transactionId: req.transactionId };
    expect(await connector.sync(C, target, OPTS)).toEqual({ kind: 'not_found' });
    const page = await fetch(out.kind === 'accepted' ? out.redirectUrl! : '');
    expect(await page.text()).toContain('choose=Complete');
    expect(await connector.sync(C, target, OPTS)).toMatchObject({
      kind: 'status',
      update: { providerStatus: 'Pending', status: 'processing' },
    });
    const back = fake.customerChooses(req.transactionId, 'Complete');
    expect(back.target).toBe(req.returnUrl);
    const notified = await waitFor('the notification', () => verifiedAt(`/notify/${seq}`)[0]);
    const t = fake.payment(req.transactionId)!.transactions[0];
    expect(notified).toEqual({
      kind: 'valid',
      update: {
        providerStatus: 'Complete',
        status: 'success',
        recognized: true,
        refunded: false,
        reference: req.transactionId,
        amountMinor: 2500,
        providerReference: t.transactionId,
        pollUrl: null,
      },
    });
    expect(t.transactionId).not.toBe(out.kind === 'accepted' ? out.providerReference : '');
    // What the browser posts to the return URL verifies the same way.
    expect(connector.verifyNotification(C, back.body, FORM)).toEqual(notified);
    expect(await connector.sync(C, target, OPTS)).toMatchObject({
      kind: 'status',
      update: { status: 'success', providerReference: t.transactionId, amountMinor: 2500 },
    });
  });

  it('the page: choosing Cancelled answers a form that posts the signed variables to the cancel URL', async () => {
    const req = request();
    const out = await connector.initiate(C, req, OPTS);
    const html = await (await fetch(`${out.kind === 'accepted' ? out.redirectUrl : ''}?choose=Cancelled`)).text();
    expect(html).toContain(`action="${req.returnUrl}"`);
    const fields = [...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m): [string, string] => [
      m[1],
      m[2].replace(/&#(\d+);/g, (_x, n: string) => String.fromCharCode(Number(n))),
    ]);
    // A failed attempt is not the payment's outcome (the customer may try again): it makes us ask Ozow.
    expect(connector.verifyNotification(C, new URLSearchParams(fields).toString(), FORM)).toEqual({
      kind: 'recheck',
      providerReference: null,
      transactionId: req.transactionId,
    });
    expect(await waitFor('the notification', () => verifiedAt(`/notify/${seq}`)[0])).toMatchObject({
      kind: 'recheck',
      transactionId: req.transactionId,
    });
    expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)).toMatchObject({
      kind: 'status',
      update: { providerStatus: 'Cancelled', status: 'failed' },
    });
  });

  it('Error and Abandoned fail (their notifications make us ask Ozow); PendingInvestigation processing', async () => {
    for (const [status, mapped] of [
      ['Error', 'failed'],
      ['Abandoned', 'failed'],
      ['PendingInvestigation', 'processing'],
    ]) {
      const req = request();
      await connector.initiate(C, req, OPTS);
      fake.setStatus(req.transactionId, status);
      const notified =
        mapped === 'failed'
          ? { kind: 'recheck', transactionId: req.transactionId }
          : { kind: 'valid', update: { providerStatus: status, status: mapped } };
      expect(await waitFor('the notification', () => verifiedAt(`/notify/${seq}`)[0])).toMatchObject(notified);
      expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)).toMatchObject({
        kind: 'status',
        update: { status: mapped },
      });
    }
  });

  it('Pending first, then the final status twice (duplicates)', async () => {
    fake.pendingFirst = true;
    fake.duplicates = 2;
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.customerChooses(req.transactionId, 'Complete');
    await fake.idle();
    const statuses = verifiedAt(`/notify/${seq}`).map((o) => (o.kind === 'valid' ? o.update.providerStatus : o.kind));
    expect(statuses.sort()).toEqual(['Complete', 'Complete', 'Pending']);
  });

  it('a cancelled attempt, then a paid one: the status API answers the paid one', async () => {
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.customerChooses(req.transactionId, 'Cancelled');
    fake.customerChooses(req.transactionId, 'Complete');
    fake.setStatus(req.transactionId, 'Abandoned'); // a third, newer attempt
    expect(fake.payment(req.transactionId)!.transactions.map((t) => t.status)).toEqual([
      'Cancelled',
      'Complete',
      'Abandoned',
    ]);
    expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)).toMatchObject({
      kind: 'status',
      update: { providerStatus: 'Complete', status: 'success' },
    });
  });

  it('test mode: IsTest true, found only when asked with isTest', async () => {
    const req = request({ test: true });
    await connector.initiate(C, req, OPTS);
    expect(fake.payment(req.transactionId)!.request.isTest).toBe(true);
    fake.customerChooses(req.transactionId, 'Complete');
    expect(
      await connector.sync(C, { pollUrl: null, transactionId: req.transactionId, test: true }, OPTS),
    ).toMatchObject({ kind: 'status', update: { status: 'success' } });
    expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId, test: false }, OPTS)).toEqual({
      kind: 'not_found',
    });
  });

  it('a forged notification, bad hash or another key is invalid; an overridden amount is signed, says so', async () => {
    fake.notifications = 'off';
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.customerChooses(req.transactionId, 'Complete');
    await fake.sendNotification(req.transactionId, { Status: 'Cancelled' });
    await fake.sendNotification(req.transactionId, { Hash: 'ab'.repeat(64) });
    fake.overrideAmount(req.transactionId, '2.50');
    await fake.sendNotification(req.transactionId);
    const outcomes = verifiedAt(`/notify/${seq}`);
    expect(outcomes.slice(0, 2)).toEqual([
      { kind: 'invalid', reason: 'hash does not verify' },
      { kind: 'invalid', reason: 'hash does not verify' },
    ]);
    expect(outcomes[2]).toMatchObject({ kind: 'valid', update: { amountMinor: 250, providerStatus: 'Complete' } });
    expect(
      new OzowConnector(fake.url).verifyNotification(
        { ...C, privateKey: 'other' },
        receiver.at(`/notify/${seq}`)[2].body,
        FORM,
      ),
    ).toEqual({ kind: 'invalid', reason: 'hash does not verify' });
  });

  it('a wrong private key: Ozow refuses the HashCheck; a wrong API key: 401', async () => {
    expect(await connector.initiate({ ...C, privateKey: 'wrong' }, request(), OPTS)).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'HashCheck value has failed',
    });
    expect(await connector.initiate({ ...C, apiKey: 'wrong' }, request(), OPTS)).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'Ozow refused the API key (HTTP 401)',
    });
    expect(await connector.sync({ ...C, apiKey: 'wrong' }, { pollUrl: null, transactionId: 'x' }, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'HTTP 401',
    });
  });
});

describe('refunds at the fake Ozow', () => {
  async function paid(): Promise<{ req: InitiateRequest; transactionId: string }> {
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.notifications = 'off';
    fake.customerChooses(req.transactionId, 'Complete');
    fake.notifications = 'on';
    return { req, transactionId: fake.payment(req.transactionId)!.transactions[0].transactionId };
  }

  const refundOf = (transactionId: string, amountMinor: number, n: number) => ({
    providerReference: transactionId,
    transactionId: 'txn',
    amountMinor,
    currency: 'ZAR',
    reason: 'Customer returned the goods',
    refundId: `rfd_${n}`,
    notifyUrl: `${receiver.url}/refund/${n}`,
  });

  it('submitted, pending; then a signed refund notification completes it', async () => {
    const { transactionId } = await paid();
    const out = await connector.refund(C, refundOf(transactionId, 1000, 1), OPTS);
    expect(out).toMatchObject({ kind: 'pending' });
    const refundId = out.kind === 'pending' ? out.providerRefundId! : '';
    expect(fake.refunds.find((r) => r.refundId === refundId)).toMatchObject({
      amount: '10.00',
      transactionId,
      refundReason: 'Customer returned the goods',
    });
    fake.settleRefund(refundId, 'Complete');
    const notified = await waitFor('the refund notification', () => receiver.at('/refund/1')[0]);
    expect(connector.verifyNotification(C, notified.body, notified.contentType)).toEqual({
      kind: 'refund',
      update: {
        providerRefundId: refundId,
        providerPaymentReference: expect.any(String),
        providerStatus: 'Complete',
        status: 'success',
        amountMinor: 1000,
      },
    });
  });

  it('more than what is left, an unpaid payment, or a wrong private key: declined with Ozow errors', async () => {
    const { transactionId } = await paid();
    expect(await connector.refund(C, refundOf(transactionId, 2000, 2), OPTS)).toMatchObject({ kind: 'pending' });
    expect(await connector.refund(C, refundOf(transactionId, 600, 3), OPTS)).toEqual({
      kind: 'declined',
      reason: 'Refund amount exceeds the available amount',
    });
    expect(await connector.refund({ ...C, privateKey: 'wrong' }, refundOf(transactionId, 100, 4), OPTS)).toEqual({
      kind: 'declined',
      reason: 'Invalid hash check',
    });
    expect(await connector.refund(C, refundOf('no-such-transaction', 100, 5), OPTS)).toEqual({
      kind: 'declined',
      reason: 'Transaction not found',
    });
    expect(await connector.refund({ ...C, apiKey: 'wrong' }, refundOf(transactionId, 100, 6), OPTS)).toEqual({
      kind: 'declined',
      reason: 'Ozow gave no access token (HTTP 400); nothing was submitted',
    });
  });
});
