import type { CheckoutView } from '@payments/contracts';
import { renderForm, renderInactive } from './checkout.view';

const view: CheckoutView = {
  kind: 'transaction',
  checkout_id: 'chk_1',
  business_id: 1,
  mode: 'test',
  amount: 1000,
  charges: 25,
  total: 1025,
  currency: 'USD',
  description: null,
  status: 'pending',
  message: 'pending',
  payment_method_code: null,
  email: 'buyer@example.com',
  transaction_reference: 'ref-1',
  success_url: null,
  failure_url: null,
};

describe('checkout form', () => {
  it('offers every payment method by its name, and asks for the number of the mobile-money ones', () => {
    const html = renderForm({ view, merchant: 'Acme' });
    const offered = [...html.matchAll(/name="payment_method_code" value="([a-z]+)"[^>]*> ([^<]+)<\/label>/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(offered).toEqual([
      ['ecocash', 'EcoCash'],
      ['innbucks', 'InnBucks'],
      ['zimswitch', 'ZimSwitch card'],
      ['dpo', 'Card (DPO)'],
      ['ozow', 'Ozow bank payment'],
    ]);
    expect(html).toContain('<span class="hint">(EcoCash and InnBucks)</span>');
    expect(html).toContain('pattern="0[0-9 -]{6,20}"');
  });

  it('names a method fixed by the merchant and asks for a number only for mobile money', () => {
    const card = renderForm({ view: { ...view, payment_method_code: 'dpo' }, merchant: 'Acme' });
    expect(card).toContain('Payment method: <strong>Card (DPO)</strong>');
    expect(card).not.toContain('mobile_money_number');
    const mobile = renderForm({ view: { ...view, payment_method_code: 'innbucks' }, merchant: 'Acme' });
    expect(mobile).toContain('Payment method: <strong>InnBucks</strong>');
    expect(mobile).toMatch(/id="mobile_money_number"[^>]* required>/);
  });
});

describe('inactive payment link page', () => {
  it('says the link is no longer active, escapes the merchant and offers nothing to submit', () => {
    const html = renderInactive({
      view: { ...view, kind: 'link', checkout_id: 'plink_1', status: 'inactive', description: 'Ticket' },
      merchant: '<Acme>',
    });
    expect(html).toContain('This payment link is no longer active');
    expect(html).toContain('&lt;Acme&gt; no longer accepts payments');
    expect(html).not.toContain('<form');
    expect(html).not.toContain('<button');
  });
});
