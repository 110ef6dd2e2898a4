import { describeForLog, safeReason } from './dpo-log';
import { parseApi3g } from './dpo-xml';

const TOKEN = '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A';

describe('DPO log redaction', () => {
  it('keeps only allow-listed elements of a request or reply: never the company token, e-mail or phone', () => {
    const parsed = parseApi3g(
      `<API3G><CompanyToken>${TOKEN}</CompanyToken><Request>verifyToken</Request><Result>000</Result>` +
        '<ResultExplanation>Transaction Paid</ResultExplanation>' +
        '<CustomerName>Jane Doe</CustomerName><CustomerPhone>263771234567</CustomerPhone>' +
        '<customerEmail>jane@example.com</customerEmail><CustomerCredit>5436</CustomerCredit>' +
        '<TransactionAmount>10.50</TransactionAmount><TransactionCurrency>USD</TransactionCurrency>' +
        '<Transaction><CompanyRef>x</CompanyRef></Transaction></API3G>',
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    const summary = describeForLog(parsed.fields);
    expect(summary.fields).toEqual({
      Request: 'verifyToken',
      Result: '000',
      ResultExplanation: 'Transaction Paid',
      TransactionAmount: '10.50',
      TransactionCurrency: 'USD',
    });
    expect(summary.omitted).toEqual([
      'CompanyToken',
      'CustomerName',
      'CustomerPhone',
      'customerEmail',
      'CustomerCredit',
      'Transaction',
    ]);
    const text = JSON.stringify(summary.fields);
    for (const secret of [TOKEN, '263771234567', 'jane@example.com', 'Jane']) expect(text).not.toContain(secret);
  });

  it('cleans provider text: e-mails, phone and card numbers, tokens, control characters, length', () => {
    expect(safeReason(`Error for ${TOKEN}: mail a@b.co or call +263 77 123 4567\u0000, card 5436886269848367`)).toBe(
      'Error for [token]: mail [email] or call [number] , card [number]',
    );
    expect(safeReason('x'.repeat(300))).toHaveLength(200);
    expect(safeReason('  Transaction   declined \n')).toBe('Transaction declined');
  });
});
