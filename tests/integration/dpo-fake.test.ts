/**
 * The fake DPO Pay driven by the real DPO connector over HTTP on loopback (no database, Kafka or
 * Redis): createToken, the payment page and its redirects, verifyToken's transitions, the push,
 * refunds and cancellations, and the fake's refusals.
 */
import type { InitiateRequest } from '../../apps/transaction-service/src/connectors/connector';
import { DpoConnector } from '../../apps/transaction-service/src/connectors/dpo';
import { DECLINING_CARD, DpoFake } from '../support/fakes/dpo-fake';
import { ResultReceiver } from '../support/fakes/result-receiver';

const COMPANY = '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A';
const C = { companyToken: COMPANY, serviceType: '3854' };
const OPTS = { timeoutMs: 5000 };

let fake: DpoFake;
let receiver: ResultReceiver;
let connector: DpoConnector;
let seq = 0;

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  seq += 1;
  const id = `txn_dpo_${seq}_${Date.now()}`;
  return {
    transactionId: id,
    reference: `ORD-${seq}`,
    amountMinor: 1050,
    currency: 'USD',
    method: 'dpo',
    phone: '263771234567',
    email: 'buyer@example.com',
    description: 'Mugs & <pots>',
    resultUrl: `${receiver.url}/unused`,
    returnUrl: `https://shop.example.com/v1/provider-returns/dpo/${id}`,
    ...over,
  };
}

async function created(req: InitiateRequest): Promise<string> {
  const outcome = await connector.initiate(C, req, OPTS);
  if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(outcome)}`);
  return outcome.providerReference as string;
}

const verify = (token: string | null, transactionId = 'txn_x') =>
  connector.sync(C, { pollUrl: null, providerReference: token, transactionId }, OPTS);

beforeAll(async () => {
  receiver = await ResultReceiver.start();
  receiver.okBody = 'OK';
  fake = await DpoFake.start({ companies: [COMPANY], pushUrl: `${receiver.url}/dpo/push`, pushRetryMs: 20 });
  connector = new DpoConnector(fake.url);
});

afterAll(async () => {
  await fake?.stop();
  await receiver?.stop();
});

describe('the fake DPO Pay, driven by the connector', () => {
  it('createToken: accepted with the payment page; the request as documented', async () => {
    const req = request();
    const outcome = await connector.initiate(C, req, OPTS);
    expect(outcome).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      pollUrl: null,
      providerReference: expect.stringMatching(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/),
    });
    if (outcome.kind !== 'accepted') return;
    expect(outcome.redirectUrl).toBe(`${fake.url}/payv2.php?ID=${outcome.providerReference}`);
    const sent = fake.requestsTo('createToken').at(-1)!;
    expect(sent.path).toBe('/API/v6/');
    expect(sent.contentType).toBe('application/xml; charset=utf-8');
    expect(sent.fields).toMatchObject({
      CompanyToken: COMPANY,
      Request: 'createToken',
      PaymentAmount: '10.50',
      PaymentCurrency: 'USD',
      CompanyRef: req.transactionId,
      CompanyRefUnique: '1',
      RedirectURL: req.returnUrl,
      BackURL: req.returnUrl,
      ServiceType: '3854',
      ServiceDescription: 'Mugs & <pots>',
      customerEmail: 'buyer@example.com',
      customerPhone: '263771234567',
    });
    expect(fake.payment(req.transactionId)?.transRef).toMatch(/^R\d+$/);
    const page = await fetch(outcome.redirectUrl!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pay 10.50 USD');
  });

  it('verifyToken 900, paid in browser, 5-param redirect, 000 by token/CompanyRef, one push answered OK', async () => {
    const req = request();
    const token = await created(req);
    expect(await verify(token)).toMatchObject({
      kind: 'status',
      update: {
        status: 'pending',
        providerStatus: 'Transaction not paid yet (900)',
        amountMinor: 1050,
        providerReference: token,
      },
    });
    const submit = await fetch(`${fake.url}/payv2.php`, {
      method: 'POST',
      body: new URLSearchParams({ ID: token, action: 'pay', card: '5436 8862 6984 8367' }),
      redirect: 'manual',
    });
    expect(submit.status).toBe(302);
    const back = new URL(submit.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(req.returnUrl);
    expect([...back.searchParams.keys()]).toEqual([
      'TransID',
      'CCDapproval',
      'PnrID',
      'TransactionToken',
      'CompanyRef',
    ]);
    expect(back.searchParams.get('TransactionToken')).toBe(token);
    expect(back.searchParams.get('CompanyRef')).toBe(req.transactionId);
    expect(await verify(token)).toEqual({
      kind: 'status',
      update: {
        providerStatus: 'Transaction Paid (000)',
        status: 'success',
        recognized: true,
        refunded: false,
        reference: null,
        amountMinor: 1050,
        currency: 'USD',
        providerReference: token,
        pollUrl: null,
      },
    });
    expect(await verify(null, req.transactionId)).toMatchObject({
      kind: 'status',
      update: { status: 'success', providerReference: null },
    });
    expect(fake.requestsTo('verifyToken').at(-1)?.fields).toMatchObject({ CompanyRef: req.transactionId });
    await fake.idle();
    const pushes = fake.pushes.filter((p) => p.token === token);
    expect(pushes.map((p) => [p.attempt, p.httpStatus, p.ok])).toEqual([[1, 200, true]]);
    const posted = receiver.at('/dpo/push').find((r) => r.body.includes(token))!;
    expect(posted.contentType).toBe('application/xml');
    expect(connector.verifyNotification(C, posted.body, posted.contentType)).toEqual({
      kind: 'recheck',
      providerReference: token,
      transactionId: req.transactionId,
    });
  });

  it('a return URL with a query gets the parameters joined with &', async () => {
    const token = await created(request({ returnUrl: 'https://shop.example.com/back?order=9' }));
    const location = fake.pay(token).location!;
    expect(location).toMatch(/^https:\/\/shop\.example\.com\/back\?order=9&TransID=/);
  });

  it('declining card: 901 failed; cancel: BackURL with 2 parameters, 904 failed; PTL passed: 903 failed', async () => {
    const declined = await created(request());
    expect(fake.pay(declined, DECLINING_CARD).status).toBe(302);
    expect(await verify(declined)).toMatchObject({
      kind: 'status',
      update: { status: 'failed', providerStatus: 'Transaction declined (901)' },
    });

    const req = request({ returnUrl: 'https://shop.example.com/back' });
    const cancelled = await created(req);
    const page = await fetch(`${fake.url}/payv2.php`, {
      method: 'POST',
      body: new URLSearchParams({ ID: cancelled, action: 'cancel' }),
      redirect: 'manual',
    });
    expect(page.headers.get('location')).toBe(
      `https://shop.example.com/back?TransactionToken=${cancelled}&CompanyRef=${req.transactionId}`,
    );
    expect(await verify(cancelled)).toMatchObject({
      kind: 'status',
      update: { status: 'failed', providerStatus: 'Transaction cancelled (904)' },
    });

    const late = await created(request());
    fake.expire(late);
    expect(await verify(late)).toMatchObject({
      kind: 'status',
      update: { status: 'failed', providerStatus: 'The transaction passed the Payment Time Limit (903)' },
    });
    expect(fake.pay(late).status).toBe(410);
    expect((await fetch(`${fake.url}/payv2.php?ID=${late}`)).status).toBe(410);
  });

  it('another card changes nothing; a paid page cannot be paid again', async () => {
    const token = await created(request());
    expect(fake.pay(token, '4111111111111111').status).toBe(400);
    expect(await verify(token)).toMatchObject({ update: { status: 'pending' } });
    fake.pay(token);
    expect(fake.pay(token).status).toBe(409);
    expect((await fetch(`${fake.url}/payv2.php?ID=${token}`)).status).toBe(409);
    await fake.idle();
  });

  it('an amount override makes verifyToken say another amount', async () => {
    const token = await created(request());
    fake.pay(token);
    fake.setVerifyAmount(token, '0.01');
    expect(await verify(token)).toMatchObject({ kind: 'status', update: { status: 'success', amountMinor: 1 } });
    await fake.idle();
  });

  it('an unknown token or CompanyRef is never not_found: DPO has no such code', async () => {
    expect(await verify('00000000-0000-0000-0000-000000000000')).toEqual({
      kind: 'unknown',
      reason: 'verifyToken answered 902: Data mismatch in one of the fields - TransactionToken',
    });
    expect(await verify(null, 'txn_never_sent')).toEqual({
      kind: 'unknown',
      reason: 'verifyToken answered 902: Data mismatch in one of the fields - CompanyRef',
    });
  });

  it('940: a second createToken for a paid CompanyRef is not a decline but unknown', async () => {
    const req = request();
    fake.pay(await created(req));
    expect(await connector.initiate(C, req, OPTS)).toMatchObject({ kind: 'unknown', sent: true });
    await fake.idle();
  });

  it('refundToken: 000 within the paid amount, 999 beyond it or for an unpaid token', async () => {
    const req = request();
    const token = await created(req);
    const refund = (amountMinor: number, refundId: string) =>
      connector.refund(
        C,
        {
          providerReference: token,
          transactionId: req.transactionId,
          amountMinor,
          currency: 'USD',
          reason: null,
          refundId,
          notifyUrl: 'https://x.test/',
        },
        OPTS,
      );
    expect(await refund(100, 'rfd_0')).toEqual({
      kind: 'declined',
      reason: 'Refund failed - transaction not paid (DPO 999)',
    });
    fake.pay(token);
    expect(await refund(400, 'rfd_1')).toEqual({ kind: 'succeeded', providerRefundId: null });
    expect(await refund(700, 'rfd_2')).toEqual({
      kind: 'declined',
      reason: 'Refund failed - amount exceeds the paid amount (DPO 999)',
    });
    expect(await refund(650, 'rfd_3')).toMatchObject({ kind: 'succeeded' });
    expect(fake.payment(req.transactionId)?.refunds).toEqual([
      { amount: '4.00', ref: 'rfd_1', details: `Refund rfd_1 of ${req.transactionId}` },
      { amount: '6.50', ref: 'rfd_3', details: `Refund rfd_3 of ${req.transactionId}` },
    ]);
    await fake.idle();
  });

  it('a bad or missing company token: 802 / 801, declined by DPO; a verify with it is unknown', async () => {
    expect(await connector.initiate({ companyToken: 'NOT-A-COMPANY', serviceType: '3854' }, request(), OPTS)).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'Company token does not exist (DPO 802)',
    });
    expect(
      await connector.sync(
        { companyToken: 'NOT-A-COMPANY', serviceType: '3854' },
        { pollUrl: null, transactionId: 'x' },
        OPTS,
      ),
    ).toEqual({ kind: 'unknown', reason: 'verifyToken answered 802: Company token does not exist' });
    const post = (xml: string) =>
      fetch(`${fake.url}/API/v6/`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: xml }).then(
        (r) => r.text(),
      );
    expect(await post('<API3G><Request>createToken</Request></API3G>')).toContain('<Result>801</Result>');
    expect(await post('<API3G><CompanyToken>x</CompanyToken>')).toContain('<Result>804</Result>');
    expect(await post(`<API3G><CompanyToken>${COMPANY}</CompanyToken><Request>payNow</Request></API3G>`)).toContain(
      '<Result>803</Result>',
    );
  });

  it('createToken refusals by hand: 904 currency, 902 amount, 950 service, 960 a repeated tag', async () => {
    const post = (
      transaction: string,
      services = '<Services><Service><ServiceType>3854</ServiceType><ServiceDescription>x</ServiceDescription>' +
        '<ServiceDate>2026/01/01 10:00</ServiceDate></Service></Services>',
    ) =>
      fetch(`${fake.url}/API/v6/`, {
        method: 'POST',
        body:
          `<API3G><CompanyToken>${COMPANY}</CompanyToken><Request>createToken</Request>` +
          `<Transaction>${transaction}</Transaction>${services}</API3G>`,
      }).then((r) => r.text());
    expect(await post('<PaymentAmount>1.00</PaymentAmount><PaymentCurrency>XYZ</PaymentCurrency>')).toContain(
      '<Result>904</Result>',
    );
    expect(await post('<PaymentAmount>1.001</PaymentAmount><PaymentCurrency>USD</PaymentCurrency>')).toContain(
      '<Result>902</Result>',
    );
    expect(await post('<PaymentCurrency>USD</PaymentCurrency>')).toContain(
      '<ResultExplanation>Request missing transaction level mandatory fields - PaymentAmount</ResultExplanation>',
    );
    expect(await post('<PaymentAmount>1.00</PaymentAmount><PaymentCurrency>USD</PaymentCurrency>', '')).toContain(
      '<Result>950</Result>',
    );
    expect(
      await post(
        '<PaymentAmount>1.00</PaymentAmount><PaymentAmount>2.00</PaymentAmount><PaymentCurrency>USD</PaymentCurrency>',
      ),
    ).toContain('<Result>960</Result>');
    // The connector refuses what DPO would, before sending.
    expect(await connector.initiate(C, request({ currency: 'KWD' }), OPTS)).toMatchObject({
      kind: 'declined',
      source: 'connector',
    });
  });

  it('cancelToken: an unpaid token is cancelled (verifyToken 904), a paid one is not', async () => {
    const token = await created(request());
    const cancel = (t: string) =>
      fetch(`${fake.url}/API/v6/`, {
        method: 'POST',
        body:
          `<API3G><CompanyToken>${COMPANY}</CompanyToken><Request>cancelToken</Request>` +
          `<TransactionToken>${t}</TransactionToken></API3G>`,
      }).then((r) => r.text());
    expect(await cancel(token)).toContain('<Result>000</Result>');
    expect(await verify(token)).toMatchObject({
      update: { status: 'failed', providerStatus: 'Transaction cancelled (904)' },
    });
    const paid = await created(request());
    fake.pay(paid);
    expect(await cancel(paid)).toContain('<Result>999</Result>');
    await fake.idle();
  });
});
