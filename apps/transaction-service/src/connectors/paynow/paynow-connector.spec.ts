import type { Connector, InitiateRequest } from '../connector';
import type { PaynowCredentials } from './paynow-credentials';
import { PaynowConnector, isPaynowUrl } from './paynow-connector';
import { type PaynowFields, encodePaynowMessage, parsePaynowMessage } from './paynow-form';
import { withHash } from './paynow-hash';
import type { FetchLike } from './paynow-http';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const C = { integrationId: '1201', integrationKey: KEY };
const BASE = 'https://paynow.test';
const POLL = `${BASE}/Interface/CheckPayment/?guid=c7ed41da-0159-46da-b428-69549f770413`;
const signed = (fields: PaynowFields, key = KEY) => encodePaynowMessage(withHash(fields, key));
const OPTS = { timeoutMs: 2000 };

const REQ: InitiateRequest = {
  transactionId: 'txn_1',
  reference: 'ORD-1',
  amountMinor: 1050,
  currency: 'USD',
  method: 'ecocash',
  phone: '0771111111',
  email: 'buyer@example.com',
  description: null,
  resultUrl: 'https://api.example.com/paynow/result',
  returnUrl: 'https://shop.example.com/done',
};

/** A fetch that records calls and answers with `reply` (or throws it). */
function stubFetch(reply: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Array<{ url: string; body: string }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, body: String(init.body) });
    return reply(url, init);
  };
  return { fetch, calls };
}

function connectError(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('PaynowConnector', () => {
  it('is the Paynow connector, without a refund (Paynow has no refund API)', () => {
    const connector: Connector<PaynowCredentials> = new PaynowConnector();
    expect(connector.provider).toBe('paynow');
    expect(connector.methods).toEqual(['ecocash', 'onemoney', 'innbucks', 'zimswitch', 'vmc']);
    expect(connector.refund).toBeUndefined();
    expect('refund' in connector).toBe(false);
    expect(() => new PaynowConnector('ftp://paynow.test')).toThrow(/http/);
  });

  it('posts an express checkout to {base}/interface/remotetransaction and accepts the signed Ok', async () => {
    const { fetch, calls } = stubFetch(
      () =>
        new Response(
          signed([
            ['status', 'Ok'],
            ['instructions', 'Approve on your phone'],
            ['paynowreference', '42'],
            ['pollurl', POLL],
          ]),
        ),
    );
    const outcome = await new PaynowConnector(`${BASE}/`, { fetch }).initiate(C, REQ, OPTS);
    expect(outcome).toMatchObject({
      kind: 'accepted',
      status: 'processing',
      providerReference: '42',
      pollUrl: POLL,
      instructions: 'Approve on your phone',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${BASE}/interface/remotetransaction`);
    const sent = parsePaynowMessage(calls[0].body);
    expect(sent.ok && sent.fields.map(([k]) => k)).toEqual([
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
  });

  it('posts a card payment to {base}/interface/initiatetransaction, keeping a path prefix', async () => {
    const { fetch, calls } = stubFetch(
      () =>
        new Response(
          signed([
            ['status', 'Ok'],
            ['browserurl', `${BASE}/Payment/ConfirmPayment/1`],
            ['pollurl', POLL],
          ]),
        ),
    );
    const outcome = await new PaynowConnector(`${BASE}/gw`, { fetch }).initiate(
      C,
      { ...REQ, method: 'zimswitch', phone: null },
      OPTS,
    );
    expect(outcome).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      redirectUrl: `${BASE}/Payment/ConfirmPayment/1`,
    });
    expect(calls[0].url).toBe(`${BASE}/gw/interface/initiatetransaction`);
  });

  it('refuses a request Paynow cannot take without sending it', async () => {
    const { fetch, calls } = stubFetch(() => new Response(''));
    expect(await new PaynowConnector(BASE, { fetch }).initiate(C, { ...REQ, currency: 'ZAR' }, OPTS)).toEqual({
      kind: 'declined',
      source: 'connector',
      reason: 'currency "ZAR" is not one Paynow takes',
    });
    expect(calls).toHaveLength(0);
  });

  it.each<[string, () => Response | Promise<Response>, object]>([
    [
      'connection refused',
      () => Promise.reject(connectError('ECONNREFUSED')),
      { kind: 'unknown', sent: false, reason: 'could not connect (ECONNREFUSED)' },
    ],
    [
      'DNS failure',
      () => Promise.reject(connectError('ENOTFOUND')),
      { kind: 'unknown', sent: false, reason: 'could not connect (ENOTFOUND)' },
    ],
    [
      'DNS try again',
      () => Promise.reject(connectError('EAI_AGAIN')),
      { kind: 'unknown', sent: false, reason: 'could not connect (EAI_AGAIN)' },
    ],
    [
      'connection reset',
      () => Promise.reject(connectError('ECONNRESET')),
      { kind: 'unknown', sent: true, reason: 'request failed (ECONNRESET)' },
    ],
    [
      'a 500',
      () => new Response('status=Error&error=oops', { status: 500 }),
      { kind: 'unknown', sent: true, reason: 'HTTP 500' },
    ],
    [
      'a 503 HTML page',
      () => new Response('<html>busy</html>', { status: 503 }),
      { kind: 'unknown', sent: true, reason: 'HTTP 503' },
    ],
    [
      'a redirect',
      () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/' } }),
      { kind: 'unknown', sent: true, reason: 'HTTP 302' },
    ],
    [
      'an HTML 200',
      () => new Response('<html><body>maintenance</body></html>'),
      { kind: 'unknown', sent: true, reason: 'reply unreadable: not a form-encoded message' },
    ],
    [
      'an Error reply',
      () => new Response('Status=Error&Error=Insufficient+balance'),
      { kind: 'declined', source: 'provider', reason: 'Insufficient balance' },
    ],
  ])('initiate: %s', async (_what, reply, expected) => {
    const { fetch } = stubFetch(reply);
    expect(await new PaynowConnector(BASE, { fetch }).initiate(C, REQ, OPTS)).toEqual(expected);
  });

  it('initiate: no reply within the timeout is unknown, sent', async () => {
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    expect(await new PaynowConnector(BASE, { fetch }).initiate(C, REQ, { timeoutMs: 30 })).toEqual({
      kind: 'unknown',
      sent: true,
      reason: 'no complete reply within 30 ms',
    });
  });

  describe('sync', () => {
    const status: PaynowFields = [
      ['reference', 'ORD-1'],
      ['paynowreference', '42'],
      ['amount', '10.50'],
      ['status', 'Paid'],
      ['pollurl', POLL],
    ];

    it('polls the poll URL with an empty POST', async () => {
      const { fetch, calls } = stubFetch(() => new Response(signed(status)));
      const outcome = await new PaynowConnector(BASE, { fetch }).sync(
        C,
        { pollUrl: POLL, transactionId: 'txn_1' },
        OPTS,
      );
      expect(outcome).toEqual({
        kind: 'status',
        update: expect.objectContaining({
          status: 'success',
          providerStatus: 'Paid',
          amountMinor: 1050,
          reference: 'ORD-1',
        }),
      });
      expect(calls).toEqual([{ url: POLL, body: '' }]);
    });

    it.each([
      ['https://www.paynow.co.zw', 'https://www.paynow.co.zw/Interface/CheckPayment/?guid=1', true],
      ['https://www.paynow.co.zw', 'https://paynow.co.zw/Interface/CheckPayment/?guid=1', true],
      ['https://www.paynow.co.zw', 'https://staging.paynow.co.zw/Interface/CheckPayment/?guid=1', true],
      ['https://www.paynow.co.zw', 'http://www.paynow.co.zw/Interface/CheckPayment/?guid=1', false],
      ['https://www.paynow.co.zw', 'https://www.paynow.co.zw:8443/Interface/CheckPayment/?guid=1', false],
      ['https://www.paynow.co.zw', 'https://paynow.co.zw.evil.test/x', false],
      ['https://www.paynow.co.zw', 'https://evilpaynow.co.zw/x', false],
      ['https://www.paynow.co.zw', 'https://user:pw@www.paynow.co.zw/x', false],
      ['http://127.0.0.1:8089', 'http://127.0.0.1:8089/Interface/CheckPayment/?guid=1', true],
      ['http://127.0.0.1:8089', 'http://127.0.0.1:8090/Interface/CheckPayment/?guid=1', false],
    ])('with the API at %s, %s is a Paynow URL: %s', (api, url, expected) => {
      expect(isPaynowUrl(new URL(url), new URL(api))).toBe(expected);
    });

    it.each([
      'https://evil.test/Interface/CheckPayment/?guid=1',
      'http://paynow.test/Interface/CheckPayment/?guid=1',
      'not a url',
    ])('never polls %s, off the API origin', async (pollUrl) => {
      const { fetch, calls } = stubFetch(() => new Response(signed(status)));
      expect(
        await new PaynowConnector(BASE, { fetch }).sync(C, { pollUrl, transactionId: 'txn_1' }, OPTS),
      ).toMatchObject({ kind: 'unknown' });
      expect(calls).toHaveLength(0);
    });

    it('traces by merchanttrace without a poll URL', async () => {
      const { fetch, calls } = stubFetch(() => new Response(signed([['status', 'NotFound']])));
      expect(
        await new PaynowConnector(BASE, { fetch }).sync(C, { pollUrl: null, transactionId: 'txn_1' }, OPTS),
      ).toEqual({ kind: 'not_found' });
      expect(calls).toEqual([
        {
          url: `${BASE}/interface/trace`,
          body: signed([
            ['id', '1201'],
            ['merchanttrace', 'txn_1'],
            ['status', 'Message'],
          ]),
        },
      ]);
    });

    it.each<[string, () => Response | Promise<Response>, string]>([
      ['trace failed', () => new Response('status=Error&error=Trace+failed'), 'Paynow answered Error: Trace failed'],
      ['a 502', () => new Response('', { status: 502 }), 'HTTP 502'],
      ['refused', () => Promise.reject(connectError('ECONNREFUSED')), 'could not connect (ECONNREFUSED)'],
    ])('%s is unknown', async (_what, reply, reason) => {
      const { fetch } = stubFetch(reply);
      expect(
        await new PaynowConnector(BASE, { fetch }).sync(C, { pollUrl: null, transactionId: 'txn_1' }, OPTS),
      ).toEqual({ kind: 'unknown', reason });
    });
  });

  describe('verifyNotification', () => {
    const connector = new PaynowConnector(BASE, { fetch: () => Promise.reject(new Error('no network here')) });
    const update: PaynowFields = [
      ['reference', 'ORD-1'],
      ['amount', '10.50'],
      ['paynowreference', '42'],
      ['pollurl', POLL],
      ['status', 'Paid'],
    ];
    const FORM = 'application/x-www-form-urlencoded';

    it('accepts a status update signed with the integration key, extra fields included', () => {
      const body = signed([...update, ['paymentchannel', 'Ecocash'], ['token', 'tok']]);
      expect(connector.verifyNotification(C, body, `${FORM}; charset=UTF-8`)).toEqual({
        kind: 'valid',
        update: {
          providerStatus: 'Paid',
          status: 'success',
          recognized: true,
          refunded: false,
          reference: 'ORD-1',
          amountMinor: 1050,
          providerReference: '42',
          pollUrl: POLL,
        },
      });
      expect(connector.verifyNotification(C, body, undefined).kind).toBe('valid');
    });

    it.each([
      ['a forged hash', `${encodePaynowMessage(update)}&hash=${'A'.repeat(128)}`, FORM, 'hash does not verify'],
      ['another key', signed(update, '00000000-0000-0000-0000-000000000000'), FORM, 'hash does not verify'],
      ['a tampered amount', signed(update).replace('amount=10.50', 'amount=0.01'), FORM, 'hash does not verify'],
      ['a tampered status', signed(update).replace('status=Paid', 'status=Cancelled'), FORM, 'hash does not verify'],
      ['no hash', encodePaynowMessage(update), FORM, 'no hash'],
      ['no reference', signed(update.filter(([k]) => k !== 'reference')), FORM, 'field reference missing'],
      ['no amount', signed(update.filter(([k]) => k !== 'amount')), FORM, 'field amount missing'],
      [
        'no paynowreference',
        signed(update.filter(([k]) => k !== 'paynowreference')),
        FORM,
        'field paynowreference missing',
      ],
      ['no pollurl', signed(update.filter(([k]) => k !== 'pollurl')), FORM, 'field pollurl missing'],
      ['no status', signed(update.filter(([k]) => k !== 'status')), FORM, 'field status missing'],
      [
        'a malformed amount',
        signed(update.map(([k, v]) => [k, k === 'amount' ? '10.5.0' : v] as const)),
        FORM,
        'amount malformed',
      ],
      ['JSON', JSON.stringify({ status: 'Paid' }), 'application/json', 'not a form post'],
      ['an empty body', '', FORM, 'empty message'],
      ['HTML', '<html></html>', FORM, 'not a form-encoded message'],
    ])('refuses %s', (_what, body, contentType, reason) => {
      expect(connector.verifyNotification(C, body, contentType)).toEqual({ kind: 'invalid', reason });
    });

    it('keeps an unknown status not final and flagged', () => {
      const body = signed(update.map(([k, v]) => [k, k === 'status' ? 'On Hold' : v] as const));
      expect(connector.verifyNotification(C, body, FORM)).toMatchObject({
        kind: 'valid',
        update: { status: 'processing', recognized: false, providerStatus: 'On Hold' },
      });
    });

    it('marks a refund made at Paynow', () => {
      const body = signed(update.map(([k, v]) => [k, k === 'status' ? 'Refunded' : v] as const));
      expect(connector.verifyNotification(C, body, FORM)).toMatchObject({
        kind: 'valid',
        update: { status: 'success', refunded: true, providerStatus: 'Refunded' },
      });
    });
  });
});
