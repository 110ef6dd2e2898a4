import type { InitiateRequest } from '../connector';
import type { FetchLike } from './ozow-http';
import { OzowConnector } from './ozow-connector';

const C = { siteCode: 'TSTSTE0001', privateKey: 'PK', apiKey: 'api-key-1' };
const OPTS = { timeoutMs: 1000 };
const REQ: InitiateRequest = {
  transactionId: 'txn_1',
  reference: 'ORDER-1',
  amountMinor: 2500,
  currency: 'ZAR',
  method: 'ozow',
  phone: null,
  email: 'jane@example.com',
  description: null,
  resultUrl: 'https://pay.example.com/n',
  returnUrl: 'https://pay.example.com/r',
};

function recording(replies: Array<Response | Error>): {
  fetch: FetchLike;
  calls: Array<{ url: string; init: RequestInit }>;
} {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      const next = replies.shift();
      if (next === undefined) throw new Error('no reply scripted');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('OzowConnector', () => {
  it('initiates with PostPaymentRequest: JSON, ApiKey, Accept; accepted is pending with the url', async () => {
    const r = recording([
      json({ paymentRequestId: 'pr-1', url: 'https://pay.ozow.test/pr-1/Secure', errorMessage: null }),
    ]);
    const out = await new OzowConnector('https://api.ozow.test/', { fetch: r.fetch }).initiate(C, REQ, OPTS);
    expect(out).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      providerReference: 'pr-1',
      redirectUrl: 'https://pay.ozow.test/pr-1/Secure',
      pollUrl: null,
    });
    expect(r.calls[0].url).toBe('https://api.ozow.test/PostPaymentRequest');
    expect(r.calls[0].init).toMatchObject({
      method: 'POST',
      headers: { ApiKey: 'api-key-1', Accept: 'application/json', 'Content-Type': 'application/json' },
    });
    expect(JSON.parse(r.calls[0].init.body as string)).toMatchObject({
      SiteCode: 'TSTSTE0001',
      Amount: '25.00',
      TransactionReference: 'txn_1',
      IsTest: 'false',
    });
  });

  it('does not send what Ozow cannot take', async () => {
    const r = recording([]);
    expect(
      await new OzowConnector('https://api.ozow.test', { fetch: r.fetch }).initiate(
        C,
        { ...REQ, currency: 'USD' },
        OPTS,
      ),
    ).toEqual({
      kind: 'declined',
      source: 'connector',
      reason: 'currency "USD" is not one Ozow takes (ZAR only)',
    });
    expect(r.calls).toHaveLength(0);
  });

  it('a refused connection at initiate is unknown but certainly not sent', async () => {
    const err = new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    const out = await new OzowConnector('https://api.ozow.test', { fetch: recording([err]).fetch }).initiate(
      C,
      REQ,
      OPTS,
    );
    expect(out).toEqual({ kind: 'unknown', sent: false, reason: 'could not connect (ECONNREFUSED)' });
  });

  it('syncs by our transaction id with the test flag and the ApiKey', async () => {
    const r = recording([
      json([
        {
          transactionId: 'oz-1',
          transactionReference: 'txn_1',
          amount: 25,
          status: 'Complete',
          siteCode: 'TSTSTE0001',
        },
      ]),
    ]);
    const out = await new OzowConnector('https://api.ozow.test', { fetch: r.fetch }).sync(
      C,
      { pollUrl: null, providerReference: 'pr-1', transactionId: 'txn_1', test: true },
      OPTS,
    );
    expect(out).toMatchObject({
      kind: 'status',
      update: { status: 'success', providerReference: 'oz-1', amountMinor: 2500 },
    });
    expect(r.calls[0].url).toBe(
      'https://api.ozow.test/GetTransactionByReference?siteCode=TSTSTE0001&transactionReference=txn_1&isTest=true',
    );
    expect(r.calls[0].init).toMatchObject({
      method: 'GET',
      headers: { ApiKey: 'api-key-1', Accept: 'application/json' },
    });
  });

  it('refunds with a token, then the submission with the bearer token', async () => {
    const r = recording([
      json({ access_token: 'tok-1', token_type: 'bearer' }),
      json([{ refundId: 'R-1', transactionId: 'oz-1', refundAmount: 10, errors: [] }]),
    ]);
    const out = await new OzowConnector('https://api.ozow.test', { fetch: r.fetch }).refund(
      C,
      {
        providerReference: 'oz-1',
        transactionId: 'txn_1',
        amountMinor: 1000,
        currency: 'ZAR',
        reason: null,
        refundId: 'rfd_1',
        notifyUrl: 'https://pay.example.com/rn',
      },
      OPTS,
    );
    expect(out).toEqual({ kind: 'pending', providerRefundId: 'R-1' });
    expect(r.calls[0].url).toBe('https://api.ozow.test/token');
    expect(r.calls[0].init).toMatchObject({
      method: 'POST',
      body: 'grant_type=password&SiteCode=TSTSTE0001',
      headers: { ApiKey: 'api-key-1' },
    });
    expect(r.calls[1].url).toBe('https://api.ozow.test/secure/refunds/submit');
    expect(r.calls[1].init).toMatchObject({ headers: { Authorization: 'Bearer tok-1' } });
    expect(JSON.parse(r.calls[1].init.body as string)).toMatchObject([
      { transactionId: 'oz-1', amount: '10.00', notifyUrl: 'https://pay.example.com/rn', isRtc: false },
    ]);
  });

  it('no token: declined, nothing submitted', async () => {
    const r = recording([json({ error: 'invalid_client' }, 400)]);
    const out = await new OzowConnector('https://api.ozow.test', { fetch: r.fetch }).refund(
      C,
      {
        providerReference: 'oz-1',
        transactionId: 'txn_1',
        amountMinor: 1000,
        currency: 'ZAR',
        reason: 'x',
        refundId: 'rfd_1',
        notifyUrl: 'https://pay.example.com/rn',
      },
      OPTS,
    );
    expect(out).toEqual({ kind: 'declined', reason: 'Ozow gave no access token (HTTP 400); nothing was submitted' });
    expect(r.calls).toHaveLength(1);
  });

  it('refuses an API URL that is not http(s)', () => {
    expect(() => new OzowConnector('ftp://api.ozow.test')).toThrow('the Ozow API URL must be an http(s) URL');
  });
});
