import { type PaynowFields, encodePaynowMessage } from './paynow-form';
import { withHash } from './paynow-hash';
import { interpretInitiateReply, interpretSyncReply } from './paynow-reply';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const POLL = 'https://www.paynow.co.zw/Interface/CheckPayment/?guid=c7ed41da-0159-46da-b428-69549f770413';
const signed = (fields: PaynowFields, key = KEY) => encodePaynowMessage(withHash(fields, key));

// The docs' reply with its hash (Validating Hash): keys capitalised as in the initiate example.
const DOC_REPLY =
  'Status=Ok&BrowserUrl=https%3a%2f%2fstaging.paynow.co.zw%2fPayment%2fConfirmPayment%2f9510' +
  '&PollUrl=https%3a%2f%2fstaging.paynow.co.zw%2fInterface%2fCheckPayment%2f' +
  '%3fguid%3dc7ed41da-0159-46da-b428-69549f770413&PaynowReference=9510' +
  '&Hash=750DD0B0DF374678707BB5AF915AF81C228B9058AD57BB7120569EC68BBB9C2E' +
  'FC1B26C6375D2BC562AC909B3CD6B2AF1D42E1A5E479FFAC8F4FB3FDCE71DF4D';

describe('reading the initiate reply', () => {
  it('web flow: the docs reply is accepted, pending, with its redirect', () => {
    expect(interpretInitiateReply(DOC_REPLY, KEY, 'pending')).toEqual({
      kind: 'accepted',
      status: 'pending',
      providerReference: '9510',
      pollUrl: POLL.replace('www', 'staging'),
      redirectUrl: 'https://staging.paynow.co.zw/Payment/ConfirmPayment/9510',
      instructions: null,
      authorizationCode: null,
      authorizationExpires: null,
    });
  });

  it('ecocash: instructions, reference and poll URL', () => {
    const body = signed([
      ['status', 'Ok'],
      ['instructions', 'Dial *151*2*4# and enter your EcoCash PIN'],
      ['paynowreference', '12345'],
      ['pollurl', POLL],
    ]);
    expect(interpretInitiateReply(body, KEY, 'processing')).toMatchObject({
      kind: 'accepted',
      status: 'processing',
      instructions: 'Dial *151*2*4# and enter your EcoCash PIN',
      providerReference: '12345',
      pollUrl: POLL,
      redirectUrl: null,
    });
  });

  it('innbucks: the authorization code and its expiry', () => {
    const body = signed([
      ['status', 'Ok'],
      ['pollurl', POLL],
      ['paynowreference', '777'],
      ['authorizationcode', '123456789'],
      ['authorizationexpires', '5-Mar-2025 14:30'],
    ]);
    expect(interpretInitiateReply(body, KEY, 'pending')).toMatchObject({
      kind: 'accepted',
      status: 'pending',
      authorizationCode: '123456789',
      authorizationExpires: '5-Mar-2025 14:30',
      instructions: null,
    });
  });

  it.each([
    ['Status=Error&Error=Invalid+amount+field', 'Invalid amount field'],
    ['status=error&error=Insufficient+balance', 'Insufficient balance'],
    ['Status=Error&Error=Invalid+id.', 'Invalid id.'],
    ['Status=Error', 'Paynow answered Error without a message'],
    ['Status=Error&Error=Invalid+phone+0771234567', 'Invalid phone [number]'],
  ])('an Error reply without a hash is declined: %s', (body, reason) => {
    expect(interpretInitiateReply(body, KEY, 'processing')).toEqual({ kind: 'declined', source: 'provider', reason });
  });

  it('an Error reply with a hash is declined only when the hash verifies', () => {
    const error: PaynowFields = [
      ['status', 'Error'],
      ['error', 'Insufficient balance'],
    ];
    expect(interpretInitiateReply(signed(error), KEY, 'processing')).toMatchObject({ kind: 'declined' });
    expect(interpretInitiateReply(signed(error, '00000000-0000-0000-0000-000000000000'), KEY, 'processing')).toEqual({
      kind: 'unknown',
      sent: true,
      reason: 'Error reply whose hash does not verify',
    });
  });

  it.each([
    [
      'an Ok reply with a forged hash',
      DOC_REPLY.replace('9510&Hash', '9511&Hash'),
      'Ok reply whose hash does not verify',
    ],
    [
      'an Ok reply signed with another key',
      signed(
        [
          ['status', 'Ok'],
          ['pollurl', POLL],
        ],
        '00000000-0000-0000-0000-000000000000',
      ),
      'Ok reply whose hash does not verify',
    ],
    ['an Ok reply without a hash', DOC_REPLY.slice(0, DOC_REPLY.indexOf('&Hash')), 'Ok reply without a hash'],
    [
      'an HTML page',
      '<!DOCTYPE html><html><body><h1>Paynow</h1></body></html>',
      'reply unreadable: not a form-encoded message',
    ],
    ['an empty body', '', 'reply unreadable: empty message'],
    ['JSON', '{"status":"Ok"}', 'reply unreadable: not a form-encoded message'],
    ['garbage bytes', '\u0000\u00ff%%%', 'reply unreadable: not a form-encoded message'],
    ['a message without a status', signed([['pollurl', POLL]]), 'reply without a status'],
    ['another status', signed([['status', 'Paid']]), 'unexpected reply status paid'],
  ])('%s is unknown, sent', (_what, body, reason) => {
    expect(interpretInitiateReply(body, KEY, 'processing')).toEqual({ kind: 'unknown', sent: true, reason });
  });
});

describe('reading a poll or trace reply', () => {
  // The docs' poll example, field order and all (its own hash is for another key).
  const pollFields: PaynowFields = [
    ['reference', 'siteid123'],
    ['paynowreference', '1,082'],
    ['amount', '100.00'],
    ['status', 'Created'],
    ['pollurl', POLL],
  ];

  it('a signed status message is a status', () => {
    expect(interpretSyncReply(signed(pollFields), KEY, false)).toEqual({
      kind: 'status',
      update: {
        providerStatus: 'Created',
        status: 'processing',
        recognized: true,
        refunded: false,
        reference: 'siteid123',
        amountMinor: 10000,
        providerReference: '1,082',
        pollUrl: POLL,
      },
    });
  });

  it('NotFound is not_found for a trace, only with a hash that verifies', () => {
    expect(interpretSyncReply(signed([['status', 'NotFound']]), KEY, true)).toEqual({ kind: 'not_found' });
    expect(interpretSyncReply('status=NotFound', KEY, true)).toEqual({
      kind: 'unknown',
      reason: 'NotFound reply: no hash',
    });
    expect(
      interpretSyncReply(signed([['status', 'NotFound']], '00000000-0000-0000-0000-000000000000'), KEY, true),
    ).toEqual({
      kind: 'unknown',
      reason: 'NotFound reply: hash does not verify',
    });
    // The docs' NotFound example carries the poll example's hash: it verifies with no key we know.
    expect(interpretSyncReply(signed([['status', 'NotFound']]), KEY, false)).toMatchObject({ kind: 'unknown' });
  });

  it.each([
    ['status=Error&error=Trace+failed', 'Paynow answered Error: Trace failed'],
    ['<html></html>', 'reply unreadable: not a form-encoded message'],
    [encodePaynowMessage(pollFields), 'status reply refused: no hash'],
    [signed(pollFields).replace('100.00', '1.00'), 'status reply refused: hash does not verify'],
    [signed(pollFields.filter(([k]) => k !== 'amount')), 'status reply refused: field amount missing'],
    [
      signed(pollFields.map(([k, v]) => [k, k === 'amount' ? '100,00' : v] as const)),
      'status reply refused: amount malformed',
    ],
  ])('%s is unknown', (body, reason) => {
    expect(interpretSyncReply(body, KEY, true)).toEqual({ kind: 'unknown', reason });
  });
});
