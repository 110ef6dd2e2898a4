import {
  chooseTransaction,
  interpretPaymentRequestReply,
  interpretTransactionsReply,
  readTransaction,
} from './ozow-reply';

const ACCEPTED = JSON.stringify({
  paymentRequestId: '0f1e2d3c-aaaa-bbbb-cccc-000000000001',
  url: 'https://pay.ozow.com/0f1e2d3c-aaaa-bbbb-cccc-000000000001/Secure',
  errorMessage: null,
});

describe("Ozow's answer to a payment request", () => {
  it('a url and a paymentRequestId: accepted, pending, the customer sent to the url', () => {
    expect(interpretPaymentRequestReply(200, ACCEPTED)).toEqual({
      kind: 'accepted',
      status: 'pending',
      providerReference: '0f1e2d3c-aaaa-bbbb-cccc-000000000001',
      pollUrl: null,
      redirectUrl: 'https://pay.ozow.com/0f1e2d3c-aaaa-bbbb-cccc-000000000001/Secure',
      instructions: null,
      authorizationCode: null,
      authorizationExpires: null,
    });
  });

  it('an errorMessage: declined with its text, made safe', () => {
    expect(
      interpretPaymentRequestReply(
        200,
        JSON.stringify({ paymentRequestId: null, url: null, errorMessage: 'Invalid HashCheck' }),
      ),
    ).toEqual({ kind: 'declined', source: 'provider', reason: 'Invalid HashCheck' });
    expect(
      interpretPaymentRequestReply(400, JSON.stringify({ errorMessage: 'Bad amount for jane@example.com' })),
    ).toEqual({ kind: 'declined', source: 'provider', reason: 'Bad amount for [email]' });
  });

  it('a refused API key: declined, nothing created', () => {
    expect(interpretPaymentRequestReply(401, '')).toEqual({
      kind: 'declined',
      source: 'provider',
      reason: 'Ozow refused the API key (HTTP 401)',
    });
  });

  it.each<[number, string, string]>([
    [200, '<html>maintenance</html>', 'reply is not a JSON object'],
    [200, '[]', 'reply is not a JSON object'],
    [200, '{}', 'reply without a url and a paymentRequestId'],
    [200, JSON.stringify({ paymentRequestId: 'x', url: 'javascript:alert(1)' }), 'reply url is not an http(s) URL'],
    [
      200,
      JSON.stringify({ paymentRequestId: 'x', url: 'https://pay.ozow.com/x', errorMessage: 'odd' }),
      'reply has both a url and an errorMessage',
    ],
    [500, JSON.stringify({ errorMessage: 'boom' }), 'HTTP 500'],
    [502, '<html>Bad gateway</html>', 'HTTP 502'],
  ])('HTTP %d %s: unknown (%s)', (status, body, reason) => {
    expect(interpretPaymentRequestReply(status, body)).toEqual({ kind: 'unknown', sent: true, reason });
  });
});

function tx(over: Record<string, unknown> = {}) {
  return {
    transactionId: 't-1',
    merchantCode: 'M',
    siteCode: 'TSTSTE0001',
    transactionReference: 'txn_1',
    currencyCode: 'ZAR',
    amount: 25.0,
    status: 'Complete',
    statusMessage: '',
    createdDate: '2026-11-27T01:00:00',
    ...over,
  };
}

describe("Ozow's status answer (GetTransactionByReference)", () => {
  it('one transaction: its status, amount, reference, and its TransactionId as the provider reference', () => {
    expect(interpretTransactionsReply(200, JSON.stringify([tx()]), 'TSTSTE0001', 'txn_1')).toEqual({
      kind: 'status',
      update: {
        providerStatus: 'Complete',
        status: 'success',
        recognized: true,
        refunded: false,
        reference: 'txn_1',
        amountMinor: 2500,
        providerReference: 't-1',
        pollUrl: null,
      },
    });
  });

  it('an empty array: not found', () => {
    expect(interpretTransactionsReply(200, '[]', 'TSTSTE0001', 'txn_1')).toEqual({ kind: 'not_found' });
  });

  it('a Complete attempt wins over newer ones; otherwise the newest', () => {
    const list = [
      tx({ transactionId: 'a', status: 'Cancelled', createdDate: '2026-11-27T01:00:00' }),
      tx({ transactionId: 'b', status: 'Complete', createdDate: '2026-11-27T01:05:00' }),
      tx({ transactionId: 'c', status: 'Abandoned', createdDate: '2026-11-27T01:10:00' }),
    ];
    expect(interpretTransactionsReply(200, JSON.stringify(list), 'TSTSTE0001', 'txn_1')).toMatchObject({
      kind: 'status',
      update: { providerStatus: 'Complete', providerReference: 'b' },
    });
    const noComplete = [
      tx({ transactionId: 'n', status: 'Pending', createdDate: '2026-11-27T02:00:00' }),
      tx({ transactionId: 'o', status: 'Cancelled', createdDate: '2026-11-27T01:00:00' }),
    ];
    expect(interpretTransactionsReply(200, JSON.stringify(noComplete), 'TSTSTE0001', 'txn_1')).toMatchObject({
      kind: 'status',
      update: { providerStatus: 'Pending', status: 'processing', providerReference: 'n' },
    });
  });

  it('without dates, the last listed', () => {
    const list = [
      readTransaction(tx({ transactionId: 'x', status: 'Error', createdDate: null }))!,
      readTransaction(tx({ transactionId: 'y', status: 'Cancelled', createdDate: null }))!,
    ];
    expect(chooseTransaction(list).transactionId).toBe('y');
  });

  it.each<[number, string, string]>([
    [200, '<html/>', 'reply is not a JSON array'],
    [200, '{}', 'reply is not a JSON array'],
    [401, '', 'HTTP 401'],
    [500, '[]', 'HTTP 500'],
    [200, JSON.stringify([tx({ amount: 'lots' })]), 'a transaction in the reply is incomplete'],
    [200, JSON.stringify([tx({ status: '' })]), 'a transaction in the reply is incomplete'],
    [
      200,
      JSON.stringify([tx({ transactionReference: 'txn_2' })]),
      'a transaction in the reply is of another reference',
    ],
    [200, JSON.stringify([tx({ siteCode: 'OTHER' })]), 'a transaction in the reply is of another site'],
  ])('HTTP %d %s: unknown (%s)', (status, body, reason) => {
    expect(interpretTransactionsReply(status, body, 'TSTSTE0001', 'txn_1')).toEqual({ kind: 'unknown', reason });
  });

  it('reads PascalCase names and string amounts too', () => {
    const pascal = [{ TransactionId: 'P', TransactionReference: 'txn_1', Amount: '10.50', Status: 'Abandoned' }];
    expect(interpretTransactionsReply(200, JSON.stringify(pascal), 'TSTSTE0001', 'txn_1')).toMatchObject({
      kind: 'status',
      update: { status: 'failed', amountMinor: 1050, providerReference: 'P' },
    });
  });
});
