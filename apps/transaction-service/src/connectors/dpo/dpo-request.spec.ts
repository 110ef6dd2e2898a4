import type { InitiateRequest, RefundRequest } from '../connector';
import { dpoServiceDate, planCreateToken, planRefundToken, planVerifyToken } from './dpo-request';
import { fieldOf, parseApi3g } from './dpo-xml';

const C = { companyToken: '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A', serviceType: '3854' };
const NOW = new Date('2026-03-04T05:06:59Z');

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  return {
    transactionId: 'txn_01HXYZ',
    reference: 'ORD-1',
    amountMinor: 1050,
    currency: 'USD',
    method: 'dpo',
    phone: '+263 77 123-4567',
    email: 'buyer@example.com',
    description: 'Two <mugs> & a "pot"',
    resultUrl: 'https://pay.example.com/v1/provider-notifications/dpo/txn_01HXYZ',
    returnUrl: 'https://pay.example.com/v1/provider-returns/dpo/txn_01HXYZ?a=1&b=2',
    ...over,
  };
}

describe('DPO requests', () => {
  it('createToken: the exact document, every text escaped', () => {
    const planned = planCreateToken(C, request(), NOW);
    expect(planned).toEqual({
      ok: true,
      xml:
        '<?xml version="1.0" encoding="utf-8"?>' +
        '<API3G><CompanyToken>9F416C11-127B-4DE2-AC7F-D5710E4C5E0A</CompanyToken><Request>createToken</Request>' +
        '<Transaction><PaymentAmount>10.50</PaymentAmount><PaymentCurrency>USD</PaymentCurrency>' +
        '<CompanyRef>txn_01HXYZ</CompanyRef>' +
        '<RedirectURL>https://pay.example.com/v1/provider-returns/dpo/txn_01HXYZ?a=1&amp;b=2</RedirectURL>' +
        '<BackURL>https://pay.example.com/v1/provider-returns/dpo/txn_01HXYZ?a=1&amp;b=2</BackURL>' +
        '<DeclinedURL>https://pay.example.com/v1/provider-returns/dpo/txn_01HXYZ?a=1&amp;b=2</DeclinedURL>' +
        '<CompanyRefUnique>1</CompanyRefUnique><PTL>1</PTL><PTLtype>hours</PTLtype>' +
        '<customerEmail>buyer@example.com</customerEmail><customerPhone>263771234567</customerPhone></Transaction>' +
        '<Services><Service><ServiceType>3854</ServiceType>' +
        '<ServiceDescription>Two &lt;mugs&gt; &amp; a &quot;pot&quot;</ServiceDescription>' +
        '<ServiceDate>2026/03/04 05:06</ServiceDate></Service></Services></API3G>',
    });
  });

  it('createToken, no phone, bad e-mail, no description: no customer fields, reference as description', () => {
    const planned = planCreateToken(C, request({ phone: null, email: 'not-an-email', description: '  ' }), NOW);
    if (!planned.ok) throw new Error(planned.reason);
    expect(planned.xml).not.toContain('customerEmail');
    expect(planned.xml).not.toContain('customerPhone');
    expect(planned.xml).toContain('<ServiceDescription>ORD-1</ServiceDescription>');
  });

  it.each<[Partial<InitiateRequest>, RegExp]>([
    [{ method: 'ecocash' }, /not a DPO Pay method/],
    [{ currency: 'KWD' }, /currency "KWD"/],
    [{ currency: 'usd' }, /currency "usd"/],
    [{ amountMinor: 0 }, /positive whole number/],
    [{ amountMinor: 10.5 }, /positive whole number/],
    [{ transactionId: 'has space' }, /CompanyRef/],
    [{ returnUrl: 'javascript:alert(1)' }, /return URL/],
  ])('refuses to send %o', (over, reason) => {
    const planned = planCreateToken(C, request(over), NOW);
    expect(planned.ok).toBe(false);
    if (!planned.ok) expect(planned.reason).toMatch(reason);
  });

  it('formats ServiceDate as YYYY/MM/DD HH:MM in UTC', () => {
    expect(dpoServiceDate(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026/12/31 23:59');
  });

  it('verifyToken by token or by CompanyRef', () => {
    expect(planVerifyToken(C, { token: 'T&1' })).toBe(
      '<?xml version="1.0" encoding="utf-8"?>' +
        '<API3G><CompanyToken>9F416C11-127B-4DE2-AC7F-D5710E4C5E0A</CompanyToken><Request>verifyToken</Request>' +
        '<TransactionToken>T&amp;1</TransactionToken></API3G>',
    );
    const byRef = parseApi3g(planVerifyToken(C, { companyRef: 'txn_1' }));
    if (!byRef.ok) throw new Error(byRef.reason);
    expect(fieldOf(byRef.fields, 'CompanyRef')).toBe('txn_1');
    expect(fieldOf(byRef.fields, 'TransactionToken')).toBeUndefined();
  });

  const refund: RefundRequest = {
    providerReference: 'TOK-1',
    transactionId: 'txn_1',
    amountMinor: 400,
    currency: 'USD',
    reason: 'Damaged <item>',
    refundId: 'rfd_9',
    notifyUrl: 'https://x.test/n',
  };

  it('refundToken: token, amount in major units, details, our refund id as refundRef', () => {
    expect(planRefundToken(C, refund)).toEqual({
      ok: true,
      xml:
        '<?xml version="1.0" encoding="utf-8"?>' +
        '<API3G><CompanyToken>9F416C11-127B-4DE2-AC7F-D5710E4C5E0A</CompanyToken><Request>refundToken</Request>' +
        '<TransactionToken>TOK-1</TransactionToken><refundAmount>4.00</refundAmount>' +
        '<refundDetails>Damaged &lt;item&gt;</refundDetails><refundRef>rfd_9</refundRef></API3G>',
    });
    const planned = planRefundToken(C, { ...refund, reason: null });
    expect(planned.ok && planned.xml).toContain('<refundDetails>Refund rfd_9 of txn_1</refundDetails>');
  });

  it('refundToken refuses a zero amount or an empty token', () => {
    expect(planRefundToken(C, { ...refund, amountMinor: 0 }).ok).toBe(false);
    expect(planRefundToken(C, { ...refund, providerReference: ' ' }).ok).toBe(false);
  });
});
