import { readFileSync, readdirSync } from 'node:fs';
import { describeForLog, safeReason } from './paynow-log';
import { planInitiate } from './paynow-request';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';

describe('what may be logged of a Paynow message', () => {
  it('drops the hash, the integration id, the e-mail, the phone, tokens and URLs from a real request', () => {
    const planned = planInitiate(
      { integrationId: '987654', integrationKey: KEY },
      {
        transactionId: 'txn_abc',
        reference: 'ORD-1',
        amountMinor: 1050,
        currency: 'USD',
        method: 'ecocash',
        phone: '0771234567',
        email: 'buyer@example.com',
        description: 'Order 1',
        resultUrl: 'https://api.example.com/paynow/result?t=secret-token',
        returnUrl: 'https://shop.example.com/return',
      },
    );
    if (!planned.ok) throw new Error(planned.reason);
    const described = describeForLog(planned.plan.fields);
    expect(described.fields).toEqual({
      reference: 'ORD-1',
      amount: '10.50',
      status: 'Message',
      method: 'ecocash',
      merchanttrace: 'txn_abc',
    });
    expect(described.omitted).toEqual(['resulturl', 'returnurl', 'id', 'additionalinfo', 'authemail', 'phone', 'hash']);
    const text = JSON.stringify(described);
    const hash = planned.plan.fields.find(([k]) => k === 'hash')?.[1] as string;
    for (const secret of [hash, '987654', 'buyer@example.com', '0771234567', KEY, 'secret-token'])
      expect(text).not.toContain(secret);
  });

  it('drops a card token, an InnBucks code and any field it does not know', () => {
    const described = describeForLog([
      ['status', 'Paid'],
      ['token', '{11111111-1111-1111-1111-111111111111}'],
      ['authorizationcode', '123456789'],
      ['paymentinstrument', '4111********1111'],
      ['somethingnew', 'x'],
    ]);
    expect(described.fields).toEqual({ status: 'Paid' });
    expect(described.omitted).toEqual(['token', 'authorizationcode', 'paymentinstrument', 'somethingnew']);
  });

  it('cleans an error text of e-mails, phone and card numbers and control characters', () => {
    expect(safeReason('Invalid phone 0771234567 for buyer@example.com\r\n')).toBe('Invalid phone [number] for [email]');
    expect(safeReason('Card 4111 1111 1111 1111 declined')).toBe('Card [number] declined');
    expect(safeReason('+263 77 123 4567 busy')).toBe('[number] busy');
    expect(safeReason('Invalid Hash.  Hash should start with: 0BF21B')).toBe(
      'Invalid Hash.  Hash should start with: 0BF21B',
    );
    expect(safeReason('x'.repeat(500))).toHaveLength(200);
  });
});

describe('the Paynow connector module', () => {
  it('logs nothing itself: no console, no logger', () => {
    const sources = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    expect(sources.length).toBeGreaterThan(5);
    for (const file of sources) {
      const text = readFileSync(`${__dirname}/${file}`, 'utf8');
      expect({ file, logs: /\bconsole\.|logger|pino|@payments\/platform/i.test(text) }).toEqual({ file, logs: false });
    }
  });
});
