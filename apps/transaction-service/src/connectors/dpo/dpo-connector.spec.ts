import type { InitiateRequest } from '../connector';
import { DpoConnector } from './dpo-connector';

const C = { companyToken: '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A', serviceType: '3854' };
const OPTS = { timeoutMs: 1000 };
const api3g = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><API3G>${inner}</API3G>`;

const REQ: InitiateRequest = {
  transactionId: 'txn_1',
  reference: 'ORD-1',
  amountMinor: 2500,
  currency: 'USD',
  method: 'dpo',
  phone: null,
  email: 'buyer@example.com',
  description: null,
  resultUrl: 'https://pay.example.com/v1/provider-notifications/dpo/txn_1',
  returnUrl: 'https://pay.example.com/v1/provider-returns/dpo/txn_1',
};

function connectorAnswering(status: number, body: string) {
  const sent: Array<{ url: string; body: string }> = [];
  const connector = new DpoConnector('https://dpo.test/', {
    fetch: async (url, init) => (sent.push({ url, body: String(init.body) }), new Response(body, { status })),
    now: () => new Date('2026-01-02T03:04:05Z'),
  });
  return { connector, sent };
}

describe('DpoConnector', () => {
  it('refuses an API URL that is not http(s)', () => {
    expect(() => new DpoConnector('ftp://dpo.test')).toThrow();
  });

  it('initiate: createToken to /API/v6/, accepted with the payment page', async () => {
    const { connector, sent } = connectorAnswering(
      200,
      api3g('<Result>000</Result><TransToken>T-1</TransToken><TransRef>R1</TransRef>'),
    );
    expect(await connector.initiate(C, REQ, OPTS)).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      providerReference: 'T-1',
      redirectUrl: 'https://dpo.test/payv2.php?ID=T-1',
      pollUrl: null,
    });
    expect(sent[0].url).toBe('https://dpo.test/API/v6/');
    expect(sent[0].body).toContain('<Request>createToken</Request>');
    expect(sent[0].body).toContain('<ServiceDate>2026/01/02 03:04</ServiceDate>');
  });

  it('initiate: a request DPO could not take is declined by the connector, nothing sent', async () => {
    const { connector, sent } = connectorAnswering(200, '');
    expect(await connector.initiate(C, { ...REQ, currency: 'KWD' }, OPTS)).toMatchObject({
      kind: 'declined',
      source: 'connector',
    });
    expect(sent).toEqual([]);
  });

  it.each([500, 502, 404])('initiate: HTTP %i is unknown, sent', async (status) => {
    const { connector } = connectorAnswering(status, api3g('<Result>000</Result><TransToken>T</TransToken>'));
    expect(await connector.initiate(C, REQ, OPTS)).toEqual({ kind: 'unknown', sent: true, reason: `HTTP ${status}` });
  });

  it('sync: by TransactionToken when known, else by CompanyRef', async () => {
    const { connector, sent } = connectorAnswering(
      200,
      api3g(
        '<Result>900</Result><ResultExplanation>Transaction not paid yet</ResultExplanation>' +
          '<TransactionAmount>25.00</TransactionAmount>',
      ),
    );
    expect(
      await connector.sync(C, { pollUrl: null, providerReference: 'T-1', transactionId: 'txn_1' }, OPTS),
    ).toMatchObject({ kind: 'status', update: { status: 'pending', providerReference: 'T-1', amountMinor: 2500 } });
    expect(sent[0].body).toContain('<TransactionToken>T-1</TransactionToken>');
    expect(sent[0].body).not.toContain('CompanyRef');
    await connector.sync(C, { pollUrl: null, providerReference: null, transactionId: 'txn_1' }, OPTS);
    expect(sent[1].body).toContain('<CompanyRef>txn_1</CompanyRef>');
    expect(sent[1].body).not.toContain('TransactionToken');
  });

  it('sync: 5xx and unreachable are unknown', async () => {
    expect(await connectorAnswering(503, '').connector.sync(C, { pollUrl: null, transactionId: 't' }, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'HTTP 503',
    });
    const down = new DpoConnector('https://dpo.test', {
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    });
    expect(await down.sync(C, { pollUrl: null, transactionId: 't' }, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(
      await down.refund(
        C,
        {
          providerReference: 'T',
          transactionId: 't',
          amountMinor: 1,
          currency: 'USD',
          reason: null,
          refundId: 'r',
          notifyUrl: 'https://x.test',
        },
        OPTS,
      ),
    ).toEqual({
      kind: 'unknown',
      reason: 'could not connect (ECONNREFUSED); nothing was sent',
    });
  });

  it('verifyNotification: a push naming a payment asks for a recheck, whatever its Result says', () => {
    const { connector } = connectorAnswering(200, '');
    expect(
      connector.verifyNotification(
        C,
        api3g(
          '<Result>000</Result><TransactionToken>T-1</TransactionToken><TransactionRef>R</TransactionRef>' +
            '<CompanyRef>txn_1</CompanyRef>',
        ),
        'application/xml',
      ),
    ).toEqual({
      kind: 'recheck',
      providerReference: 'T-1',
      transactionId: 'txn_1',
    });
    expect(connector.verifyNotification(C, api3g('<CompanyRef>txn_1</CompanyRef>'), undefined)).toEqual({
      kind: 'recheck',
      providerReference: null,
      transactionId: 'txn_1',
    });
    expect(connector.verifyNotification(C, api3g('<TransactionToken>T</TransactionToken>'), 'text/plain')).toEqual({
      kind: 'recheck',
      providerReference: 'T',
      transactionId: null,
    });
  });

  it.each([
    ['TransactionToken=T&CompanyRef=x', 'not an API3G XML document'],
    ['', 'empty reply'],
    [api3g('<Result>000</Result>'), 'push without TransactionToken or CompanyRef'],
    [
      api3g('<TransactionToken> </TransactionToken><CompanyRef></CompanyRef>'),
      'push without TransactionToken or CompanyRef',
    ],
    [
      api3g(`<TransactionToken>${'x'.repeat(101)}</TransactionToken>`),
      'push with an oversized TransactionToken or CompanyRef',
    ],
  ])('verifyNotification: %j is invalid (%s)', (body, reason) => {
    expect(connectorAnswering(200, '').connector.verifyNotification(C, body, 'application/xml')).toEqual({
      kind: 'invalid',
      reason,
    });
  });

  it('identifyNotification: the CompanyRef a push names (our transaction id), or null', () => {
    const { connector } = connectorAnswering(200, '');
    expect(
      connector.identifyNotification(
        api3g('<TransactionToken>T</TransactionToken><CompanyRef>txn_1</CompanyRef>'),
        'application/xml',
      ),
    ).toBe('txn_1');
    expect(connector.identifyNotification(api3g('<TransactionToken>T</TransactionToken>'), undefined)).toBeNull();
    expect(connector.identifyNotification('CompanyRef=txn_1', undefined)).toBeNull();
    expect(connector.identifyNotification(api3g(`<CompanyRef>${'x'.repeat(101)}</CompanyRef>`), undefined)).toBeNull();
  });

  it('refund: refundToken, 000 succeeded, 999 declined, garbage unknown', async () => {
    const req = {
      providerReference: 'T-1',
      transactionId: 'txn_1',
      amountMinor: 1000,
      currency: 'USD',
      reason: null,
      refundId: 'rfd_1',
      notifyUrl: 'https://x.test',
    };
    const ok = connectorAnswering(
      200,
      api3g('<Result>000</Result><ResultExplanation>Refund successful</ResultExplanation>'),
    );
    expect(await ok.connector.refund(C, req, OPTS)).toEqual({ kind: 'succeeded', providerRefundId: null });
    expect(ok.sent[0].body).toContain('<refundAmount>10.00</refundAmount>');
    expect(
      await connectorAnswering(
        200,
        api3g('<Result>999</Result><ResultExplanation>Refund failed</ResultExplanation>'),
      ).connector.refund(C, req, OPTS),
    ).toEqual({ kind: 'declined', reason: 'Refund failed (DPO 999)' });
    expect(await connectorAnswering(200, '<html/>').connector.refund(C, req, OPTS)).toMatchObject({ kind: 'unknown' });
    expect(await connectorAnswering(500, '').connector.refund(C, req, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'HTTP 500',
    });
  });

  it('masks the company token', () => {
    expect(new DpoConnector().maskedId(C)).toBe('ct_…5E0A');
  });
});
