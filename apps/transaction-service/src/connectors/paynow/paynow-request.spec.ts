import type { InitiateRequest } from '../connector';
import { encodePaynowMessage } from './paynow-form';
import { paynowHash } from './paynow-hash';
import { planInitiate, traceFields } from './paynow-request';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const C = { integrationId: '1201', integrationKey: KEY };

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  return {
    transactionId: 'txn_0123456789abcdef0123456789ab',
    reference: 'ORD 1',
    amountMinor: 1050,
    currency: 'USD',
    method: 'ecocash',
    phone: '0771111111',
    email: 'buyer@example.com',
    description: 'Two tickets',
    resultUrl: 'https://api.example.com/paynow/result',
    returnUrl: 'https://shop.example.com/done?o=1',
    ...over,
  };
}

function plan(over: Partial<InitiateRequest> = {}) {
  const planned = planInitiate(C, request(over));
  if (!planned.ok) throw new Error(planned.reason);
  return planned.plan;
}

const COMMON = ['resulturl', 'returnurl', 'reference', 'amount', 'id', 'additionalinfo', 'authemail', 'status'];

describe('Paynow initiate request', () => {
  it.each(['ecocash', 'onemoney', 'innbucks'])(
    '%s: remotetransaction, PHP SDK order, phone and method after status',
    (method) => {
      const p = plan({ method });
      expect(p.endpoint).toBe('remotetransaction');
      expect(p.fields.map(([k]) => k)).toEqual([...COMMON, 'phone', 'method', 'merchanttrace', 'hash']);
      expect(p.fields.find(([k]) => k === 'method')?.[1]).toBe(method);
      expect(p.acceptedStatus).toBe(method === 'innbucks' ? 'pending' : 'processing');
    },
  );

  it.each(['zimswitch', 'vmc'])('%s without a token: initiatetransaction, no method nor phone', (method) => {
    const p = plan({ method, phone: null });
    expect(p.endpoint).toBe('initiatetransaction');
    expect(p.fields.map(([k]) => k)).toEqual([...COMMON, 'merchanttrace', 'hash']);
    expect(p.acceptedStatus).toBe('pending');
  });

  it.each(['zimswitch', 'vmc'])('%s with a stored card token: remotetransaction with method and token', (method) => {
    const p = plan({ method, phone: null, paymentToken: '{11111111-1111-1111-1111-111111111111}' });
    expect(p.endpoint).toBe('remotetransaction');
    expect(p.fields.map(([k]) => k)).toEqual([...COMMON, 'method', 'token', 'merchanttrace', 'hash']);
    expect(p.acceptedStatus).toBe('processing');
  });

  it('writes every value as the protocol wants it, and the hash over the values in send order', () => {
    const p = plan({ method: ' EcoCash ' });
    expect(p.fields).toEqual([
      ['resulturl', 'https://api.example.com/paynow/result'],
      ['returnurl', 'https://shop.example.com/done?o=1'],
      ['reference', 'ORD 1'],
      ['amount', '10.50'],
      ['id', '1201'],
      ['additionalinfo', 'Two tickets'],
      ['authemail', 'buyer@example.com'],
      ['status', 'Message'],
      ['phone', '0771111111'],
      ['method', 'ecocash'],
      ['merchanttrace', 'txn_0123456789abcdef0123456789ab'],
      [
        'hash',
        paynowHash(
          p.fields.slice(0, -1).map(([, v]) => v),
          KEY,
        ),
      ],
    ]);
    expect(encodePaynowMessage(p.fields)).toBe(
      'resulturl=https%3A%2F%2Fapi.example.com%2Fpaynow%2Fresult' +
        '&returnurl=https%3A%2F%2Fshop.example.com%2Fdone%3Fo%3D1' +
        '&reference=ORD+1&amount=10.50&id=1201&additionalinfo=Two+tickets&authemail=buyer%40example.com' +
        '&status=Message' +
        `&phone=0771111111&method=ecocash&merchanttrace=txn_0123456789abcdef0123456789ab&hash=${p.fields.at(-1)?.[1]}`,
    );
  });

  it('sends an empty additionalinfo without a description', () => {
    expect(plan({ description: null }).fields.find(([k]) => k === 'additionalinfo')).toEqual(['additionalinfo', '']);
  });

  it.each<[Partial<InitiateRequest>, RegExp]>([
    [{ method: 'paypal' }, /not a Paynow method/],
    [{ currency: 'ZAR' }, /not one Paynow takes/],
    [{ currency: 'JPY' }, /not one Paynow takes/],
    [{ amountMinor: 0 }, /positive/],
    [{ amountMinor: 10.5 }, /positive/],
    [{ transactionId: 'x'.repeat(33) }, /32/],
    [{ transactionId: '' }, /32/],
    [{ transactionId: 'txn 1' }, /32/],
    [{ reference: '' }, /reference/],
    [{ reference: ' ORD' }, /reference/],
    [{ resultUrl: 'ftp://x' }, /URLs/],
    [{ returnUrl: 'not a url' }, /URLs/],
    [{ phone: null }, /phone/],
    [{ phone: '  ' }, /phone/],
    [{ email: '' }, /authemail/],
    [{ email: 'nobody' }, /authemail/],
    [{ method: 'vmc', phone: null, paymentToken: 'tok', email: '' }, /authemail/],
    [{ method: 'ecocash', paymentToken: 'tok' }, /zimswitch or vmc/],
  ])('refuses %p before sending', (over, reason) => {
    const planned = planInitiate(C, request(over));
    expect(planned.ok).toBe(false);
    if (!planned.ok) expect(planned.reason).toMatch(reason);
  });

  it('builds the trace request: id, merchanttrace, status, hash', () => {
    const fields = traceFields(C, 'txn_1');
    expect(fields).toEqual([
      ['id', '1201'],
      ['merchanttrace', 'txn_1'],
      ['status', 'Message'],
      ['hash', paynowHash(['1201', 'txn_1', 'Message'], KEY)],
    ]);
  });
});
