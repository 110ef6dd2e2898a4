import { describeForLog } from './ozow-log';

describe('what may be logged of an Ozow message', () => {
  it('keeps allow-listed fields only: no hash, site code, bank account or optional fields', () => {
    const fields = new URLSearchParams({
      SiteCode: 'TSTSTE0001',
      TransactionId: 'f2b2…',
      TransactionReference: 'txn_1',
      Amount: '25.00',
      Status: 'Complete',
      Optional1: 'customer@example.com',
      CurrencyCode: 'ZAR',
      IsTest: 'false',
      StatusMessage: 'Paid from 0821234567 by jane@example.com',
      Hash: 'abc',
      BankName: 'Standard Bank',
      AccountNumber: '0123456789',
      RefundId: 'r-1',
    });
    const { fields: logged, omitted } = describeForLog(fields);
    const text = JSON.stringify(logged);
    expect(logged).toMatchObject({
      TransactionReference: 'txn_1',
      Amount: '25.00',
      Status: 'Complete',
      RefundId: 'r-1',
    });
    for (const secret of [
      'TSTSTE0001',
      'abc',
      'Standard Bank',
      '0123456789',
      '0821234567',
      'jane@example.com',
      'customer@example.com',
    ])
      expect(text).not.toContain(secret);
    expect(omitted.sort()).toEqual(['AccountNumber', 'BankName', 'Hash', 'Optional1', 'SiteCode']);
  });

  it('matches names without regard to case and reads JSON values', () => {
    expect(describeForLog(Object.entries({ status: 'Complete', amount: 25, accountNumber: '123' }))).toEqual({
      fields: { status: 'Complete', amount: '25' },
      omitted: ['accountNumber'],
    });
  });
});
