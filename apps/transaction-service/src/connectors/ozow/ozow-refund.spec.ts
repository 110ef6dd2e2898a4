import { refundRequestHash } from './ozow-hash';
import { interpretRefundReply, planRefund, readToken, tokenForm } from './ozow-refund';

const C = { siteCode: 'TSTSTE0001', privateKey: 'PK123', apiKey: 'ak' };
const REQ = {
  providerReference: 'ozow-tx-1',
  transactionId: 'txn_1',
  amountMinor: 1250,
  currency: 'ZAR',
  reason: 'Damaged',
  refundId: 'rfd_1',
  notifyUrl: 'https://pay.example.com/v1/provider-notifications/ozow/rfd_1',
};
const ok = (status: number, body: unknown) => ({
  kind: 'response' as const,
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('planning an Ozow refund', () => {
  it('one refund of the payment with hashCheck over transactionId, amount, reason, notifyUrl', () => {
    const plan = planRefund(C, REQ);
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.body).toEqual([
      {
        transactionId: 'ozow-tx-1',
        amount: '12.50',
        refundReason: 'Damaged',
        notifyUrl: REQ.notifyUrl,
        hashCheck: refundRequestHash(
          { transactionId: 'ozow-tx-1', amount: '12.50', refundReason: 'Damaged', notifyUrl: REQ.notifyUrl },
          'PK123',
        ),
        isRtc: false,
      },
    ]);
  });

  it('gives a reason when the merchant gave none', () => {
    const plan = planRefund(C, { ...REQ, reason: null });
    expect(plan.ok && plan.body[0].refundReason).toBe('Refund rfd_1');
  });

  it('refuses another currency or a bad amount', () => {
    expect(planRefund(C, { ...REQ, currency: 'USD' })).toMatchObject({ ok: false });
    expect(planRefund(C, { ...REQ, amountMinor: 0 })).toMatchObject({ ok: false });
  });

  it('asks for the token with grant_type=password and the site code', () => {
    expect(tokenForm(C)).toBe('grant_type=password&SiteCode=TSTSTE0001');
  });
});

describe('reading the token', () => {
  it('takes access_token, and says why there is none otherwise', () => {
    expect(readToken(ok(200, { access_token: 'tok', token_type: 'bearer' }))).toEqual({ ok: true, token: 'tok' });
    expect(readToken(ok(400, { error: 'invalid_grant' }))).toEqual({
      ok: false,
      reason: 'Ozow gave no access token (HTTP 400); nothing was submitted',
    });
    expect(readToken({ kind: 'failed', sent: true, reason: 'no complete reply within 10 ms' })).toMatchObject({
      ok: false,
    });
  });
});

describe("reading Ozow's answer to a refund", () => {
  it('a refundId without errors: pending', () => {
    expect(
      interpretRefundReply(
        ok(200, [{ refundId: 'R-1', transactionId: 'ozow-tx-1', refundAmount: 12.5, errors: [] }]),
        'ozow-tx-1',
      ),
    ).toEqual({ kind: 'pending', providerRefundId: 'R-1' });
    expect(
      interpretRefundReply(
        ok(200, [{ refundId: 'R-1', transactionId: 'ozow-tx-1', refundAmount: 12.5, errors: null }]),
        'ozow-tx-1',
      ),
    ).toEqual({ kind: 'pending', providerRefundId: 'R-1' });
  });

  it('errors: declined with them', () => {
    expect(
      interpretRefundReply(
        ok(200, [
          {
            refundId: null,
            transactionId: 'ozow-tx-1',
            refundAmount: 0,
            errors: ['Refund amount exceeds available balance'],
          },
        ]),
        'ozow-tx-1',
      ),
    ).toEqual({
      kind: 'declined',
      reason: 'Refund amount exceeds available balance',
    });
    expect(interpretRefundReply(ok(400, [{ errors: [{ message: 'Invalid hash' }] }]), 'ozow-tx-1')).toEqual({
      kind: 'declined',
      reason: 'Invalid hash',
    });
    expect(interpretRefundReply(ok(401, ''), 'ozow-tx-1')).toEqual({
      kind: 'declined',
      reason: 'Ozow refused the refund (HTTP 401)',
    });
  });

  it('a refund that certainly never left: declined, nothing was submitted', () => {
    expect(
      interpretRefundReply({ kind: 'failed', sent: false, reason: 'could not connect (ECONNREFUSED)' }, 'ozow-tx-1'),
    ).toEqual({
      kind: 'declined',
      reason: 'could not reach Ozow (could not connect (ECONNREFUSED)); nothing was submitted',
    });
  });

  it.each<[Parameters<typeof interpretRefundReply>[0], string]>([
    [{ kind: 'failed', sent: true, reason: 'no complete reply within 10 ms' }, 'no complete reply within 10 ms'],
    [ok(500, ''), 'HTTP 500'],
    [ok(200, '<html/>'), 'reply is not an array of one refund'],
    [ok(200, []), 'reply is not an array of one refund'],
    [ok(200, [{ transactionId: 'ozow-tx-1', errors: [] }]), 'reply without a refundId or errors'],
    [ok(200, [{ refundId: 'R', transactionId: 'other', errors: [] }]), 'reply is about another transaction'],
    [ok(200, [{ refundId: 'R', errors: 'x' }]), 'reply errors are not a list'],
  ])('%o: unknown (%s)', (res, reason) => {
    expect(interpretRefundReply(res, 'ozow-tx-1')).toEqual({ kind: 'unknown', reason });
  });
});
