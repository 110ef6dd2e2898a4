import type { InitializeTransactionBody } from '@payments/contracts';
import { initializeProblems } from './initialize-rules';

const mobileMoney: InitializeTransactionBody = {
  amount: 1000,
  email: 'payer@example.com',
  currency: 'USD',
  payment_method_type: 'mobile_money',
  payment_method_code: 'ecocash',
  mobile_money_number: '0771234567',
};

const body = (over: Partial<InitializeTransactionBody> & Record<string, unknown>): InitializeTransactionBody =>
  ({ ...mobileMoney, ...over }) as InitializeTransactionBody;
const fields = (b: InitializeTransactionBody, mode: 'test' | 'live' = 'test') =>
  initializeProblems(b, mode).map((e) => e.field);

describe('initializeProblems', () => {
  it('finds nothing wrong with a valid mobile-money body, in either mode', () => {
    expect(initializeProblems(mobileMoney, 'test')).toEqual([]);
    expect(initializeProblems(mobileMoney, 'live')).toEqual([]);
  });

  it('finds nothing wrong with a valid card body (no number needed)', () => {
    const card = {
      amount: 2500,
      email: 'a@b.co',
      currency: 'ZAR',
      payment_method_type: 'card',
      payment_method_code: 'zimswitch',
    } as const;
    expect(initializeProblems(card, 'live')).toEqual([]);
  });

  it('finds nothing wrong with a body that names no payment method (chosen at checkout)', () => {
    expect(initializeProblems({ amount: 1, email: 'a@b.co', currency: 'JPY' }, 'live')).toEqual([]);
  });

  it('requires mobile_money_number for payment_method_type mobile_money', () => {
    const problems = initializeProblems(body({ mobile_money_number: undefined }), 'test');
    expect(problems).toEqual([{ field: 'mobile_money_number', message: expect.stringMatching(/required/) }]);
  });

  it('treats an empty mobile_money_number as missing', () => {
    expect(initializeProblems(body({ mobile_money_number: '' }), 'test')).toEqual([
      { field: 'mobile_money_number', message: expect.stringMatching(/required/) },
    ]);
  });

  it.each(['771234567', '+263771234567', '07712x4567', '012345', '0123456789012345', ' 0771234567'])(
    'rejects the mobile number %p',
    (n) => {
      const problems = initializeProblems(body({ mobile_money_number: n }), 'test');
      expect(problems).toEqual([{ field: 'mobile_money_number', message: expect.stringMatching(/start with 0/) }]);
    },
  );

  it.each(['0123456', '012345678901234'])('accepts the mobile number %p (7 and 15 digits)', (n) => {
    expect(initializeProblems(body({ mobile_money_number: n }), 'test')).toEqual([]);
  });

  it('refuses a code that does not belong to the type (ecocash with card)', () => {
    const problems = initializeProblems(body({ payment_method_type: 'card', mobile_money_number: undefined }), 'test');
    expect(problems).toEqual([{ field: 'payment_method_code', message: 'ecocash is a mobile_money method, not card' }]);
  });

  it('refuses a card code with type mobile_money (and still wants a number for the stated type)', () => {
    expect(fields(body({ payment_method_code: 'zimswitch', mobile_money_number: undefined }))).toEqual([
      'payment_method_code',
      'mobile_money_number',
    ]);
  });

  it('refuses an unknown payment_method_code and lists the known ones', () => {
    const problems = initializeProblems(body({ payment_method_code: 'paypal' }), 'test');
    expect(problems).toHaveLength(1);
    expect(problems[0].field).toBe('payment_method_code');
    expect(problems[0].message).toContain('ecocash');
    expect(problems[0].message).toContain('zimswitch');
  });

  it.each(['XXX', 'usd', '', 'toString'])('refuses the currency %p', (currency) => {
    expect(fields(body({ currency }))).toEqual(['currency']);
  });

  it('words a refusal as the API does (the gateway answers with these problems)', () => {
    const [problem] = initializeProblems(body({ currency: 'XXX' }), 'test');
    expect(problem).toEqual({ field: 'currency', message: expect.stringMatching(/^must be one of USD, /) });
  });

  it.each([0, -1, 1.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])('refuses the amount %p', (amount) => {
    expect(fields(body({ amount }))).toEqual(['amount']);
  });

  it('refuses an amount sent as a string', () => {
    expect(fields(body({ amount: '1000' as unknown as number }))).toEqual(['amount']);
  });

  it('accepts the smallest amount, 1 minor unit', () => {
    expect(initializeProblems(body({ amount: 1 }), 'test')).toEqual([]);
  });

  it.each(['success', 'failed'] as const)('allows requested_response %p in test mode only', (requested_response) => {
    expect(initializeProblems(body({ requested_response }), 'test')).toEqual([]);
    expect(initializeProblems(body({ requested_response }), 'live')).toEqual([
      { field: 'requested_response', message: expect.stringMatching(/test mode/) },
    ]);
  });

  it('infers mobile_money from an ecocash code without a type and still needs a number', () => {
    expect(fields(body({ payment_method_type: undefined, mobile_money_number: undefined }))).toEqual([
      'mobile_money_number',
    ]);
    expect(fields(body({ payment_method_type: undefined, mobile_money_number: '12345' }))).toEqual([
      'mobile_money_number',
    ]);
    expect(initializeProblems(body({ payment_method_type: undefined }), 'test')).toEqual([]);
  });

  it('does not ask for a number when the code without a type is a card code', () => {
    expect(
      initializeProblems(
        body({ payment_method_type: undefined, payment_method_code: 'dpo', mobile_money_number: undefined }),
        'test',
      ),
    ).toEqual([]);
  });

  it('reports every problem at once, not just the first', () => {
    const problems = initializeProblems(
      body({
        amount: -5,
        currency: 'XXX',
        payment_method_code: 'zimswitch',
        mobile_money_number: undefined,
        requested_response: 'success',
      }),
      'live',
    );
    expect(problems.map((p) => p.field).sort()).toEqual([
      'amount',
      'currency',
      'mobile_money_number',
      'payment_method_code',
      'requested_response',
    ]);
    for (const p of problems) expect(p.message.length).toBeGreaterThan(0);
  });
});
