/**
 * The fake DPO Pay's faults, seen through the DPO connector: every uncertain answer is unknown
 * (sent unless no connection was made), a lost createToken answer is found again by CompanyRef,
 * a lost refund answer is never a success, and pushes are retried until answered OK.
 */
import type { InitiateRequest, RefundRequest } from '../../apps/transaction-service/src/connectors/connector';
import { DpoConnector } from '../../apps/transaction-service/src/connectors/dpo';
import { DpoFake, type FakeMode, type FakeVerb } from '../support/fakes/dpo-fake';
import { ResultReceiver, closedPort } from '../support/fakes/result-receiver';

const COMPANY = '9F416C11-127B-4DE2-AC7F-D5710E4C5E0A';
const C = { companyToken: COMPANY, serviceType: '3854' };
const OPTS = { timeoutMs: 3000 };

let fake: DpoFake;
let receiver: ResultReceiver;
let connector: DpoConnector;
let seq = 0;

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  seq += 1;
  return {
    transactionId: `txf_dpo_${seq}_${Date.now()}`,
    reference: `FAULT-${seq}`,
    amountMinor: 250,
    currency: 'USD',
    method: 'dpo',
    phone: null,
    email: 'buyer@example.com',
    description: null,
    resultUrl: `${receiver.url}/unused`,
    returnUrl: 'https://shop.example.com/return',
    ...over,
  };
}

async function withMode<T>(verb: FakeVerb, mode: FakeMode, run: () => Promise<T>): Promise<T> {
  fake.setMode(verb, mode);
  try {
    return await run();
  } finally {
    fake.setMode(verb, 'normal');
  }
}

async function paidToken(): Promise<{ token: string; req: InitiateRequest }> {
  const req = request();
  const outcome = await connector.initiate(C, req, OPTS);
  if (outcome.kind !== 'accepted') throw new Error('not accepted');
  fake.pay(outcome.providerReference!);
  return { token: outcome.providerReference!, req };
}

beforeAll(async () => {
  receiver = await ResultReceiver.start();
  receiver.okBody = 'OK';
  fake = await DpoFake.start({
    companies: [COMPANY],
    pushUrl: `${receiver.url}/push`,
    pushRetryMs: 10,
    maxPushAttempts: 3,
  });
  connector = new DpoConnector(fake.url);
});

afterEach(async () => {
  await fake.idle();
  receiver.status = 200;
  receiver.script = [];
  receiver.okBody = 'OK';
});

afterAll(async () => {
  await fake?.stop();
  await receiver?.stop();
});

describe('the fake DPO Pay in trouble, through the connector', () => {
  it.each<[FakeMode, object, boolean]>([
    ['down', { kind: 'unknown', sent: true }, false],
    ['garbage', { kind: 'unknown', sent: true, reason: 'reply unreadable: XML with a DOCTYPE is not taken' }, false],
    ['http-500', { kind: 'unknown', sent: true, reason: 'HTTP 500' }, false],
    ['drop-reply', { kind: 'unknown', sent: true }, true],
  ])(
    'createToken against %s: %o; verifyToken by CompanyRef then tells whether it exists',
    async (mode, expected, exists) => {
      const req = request();
      expect(await withMode('createToken', mode, () => connector.initiate(C, req, OPTS))).toMatchObject(expected);
      const found = await connector.sync(
        C,
        { pollUrl: null, providerReference: null, transactionId: req.transactionId },
        OPTS,
      );
      expect(found).toMatchObject(
        exists ? { kind: 'status', update: { status: 'pending', amountMinor: 250 } } : { kind: 'unknown' },
      );
    },
  );

  it('createToken against a hanging DPO: unknown, sent, after the timeout', async () => {
    const started = Date.now();
    expect(await withMode('createToken', 'hang', () => connector.initiate(C, request(), { timeoutMs: 200 }))).toEqual({
      kind: 'unknown',
      sent: true,
      reason: 'no complete reply within 200 ms',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('a DPO that refuses connections: unknown, never sent, for every verb', async () => {
    const nowhere = new DpoConnector(`http://127.0.0.1:${await closedPort()}`);
    expect(await nowhere.initiate(C, request(), OPTS)).toEqual({
      kind: 'unknown',
      sent: false,
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(await nowhere.sync(C, { pollUrl: null, transactionId: 'x' }, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(
      await nowhere.refund(
        C,
        {
          providerReference: 'T',
          transactionId: 'x',
          amountMinor: 1,
          currency: 'USD',
          reason: null,
          refundId: 'r',
          notifyUrl: 'https://x.test/',
        },
        OPTS,
      ),
    ).toMatchObject({ kind: 'unknown' });
  });

  it('the fake offline, then online again on the same port', async () => {
    await fake.goOffline();
    try {
      expect(await connector.initiate(C, request(), OPTS)).toEqual({
        kind: 'unknown',
        sent: false,
        reason: 'could not connect (ECONNREFUSED)',
      });
    } finally {
      await fake.goOnline();
    }
    expect(await connector.initiate(C, request(), OPTS)).toMatchObject({ kind: 'accepted' });
  });

  it.each<[FakeMode, string | RegExp]>([
    ['down', /^request failed/],
    ['drop-reply', /^request failed/],
    ['garbage', 'reply unreadable: XML with a DOCTYPE is not taken'],
    ['http-500', 'HTTP 500'],
  ])('verifyToken against %s: unknown', async (mode, reason) => {
    const { token } = await paidToken();
    const outcome = await withMode('verifyToken', mode, () =>
      connector.sync(C, { pollUrl: null, providerReference: token, transactionId: 'x' }, OPTS),
    );
    expect(outcome.kind).toBe('unknown');
    if (outcome.kind === 'unknown')
      expect(outcome.reason).toEqual(typeof reason === 'string' ? reason : expect.stringMatching(reason));
  });

  it('verifyToken against a hanging DPO: unknown after the timeout', async () => {
    expect(
      await withMode('verifyToken', 'hang', () =>
        connector.sync(C, { pollUrl: null, transactionId: 'x' }, { timeoutMs: 150 }),
      ),
    ).toEqual({ kind: 'unknown', reason: 'no complete reply within 150 ms' });
  });

  it.each<[FakeMode, boolean]>([
    ['down', false],
    ['drop-reply', true],
    ['garbage', false],
    ['http-500', false],
    ['hang', false],
  ])('refundToken against %s: unknown, never succeeded (refunded at DPO: %s)', async (mode, refunded) => {
    const { token, req } = await paidToken();
    const refund: RefundRequest = {
      providerReference: token,
      transactionId: req.transactionId,
      amountMinor: 100,
      currency: 'USD',
      reason: 'test',
      refundId: `rfd_${mode}`,
      notifyUrl: 'https://x.test/',
    };
    expect(
      await withMode('refundToken', mode, () =>
        connector.refund(C, refund, { timeoutMs: mode === 'hang' ? 150 : 3000 }),
      ),
    ).toMatchObject({ kind: 'unknown' });
    expect(fake.payment(req.transactionId)?.refunds.length).toBe(refunded ? 1 : 0);
  });

  it('a push answered 500 is tried three times in all, then dropped; each one asks for a recheck', async () => {
    receiver.status = 500;
    const { token } = await paidToken();
    await fake.idle();
    expect(fake.pushes.filter((p) => p.token === token).map((p) => [p.attempt, p.httpStatus, p.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
    ]);
    const bodies = receiver.at('/push').filter((r) => r.body.includes(token));
    expect(bodies).toHaveLength(3);
    for (const r of bodies)
      expect(connector.verifyNotification(C, r.body, r.contentType)).toMatchObject({
        kind: 'recheck',
        providerReference: token,
      });
  });

  it('a push answered 200 but not OK is tried again; OK (plain or API3G) ends it', async () => {
    receiver.okBody = 'ok, thanks';
    const { token } = await paidToken();
    await fake.idle();
    expect(fake.pushes.filter((p) => p.token === token).map((p) => p.ok)).toEqual([false, false, false]);
    receiver.okBody = '<API3G><Response>OK</Response></API3G>';
    receiver.script = [503];
    const second = await paidToken();
    await fake.idle();
    expect(fake.pushes.filter((p) => p.token === second.token).map((p) => [p.httpStatus, p.ok])).toEqual([
      [503, false],
      [200, true],
    ]);
  });

  it('a push to a URL that refuses connections: no status, ECONNREFUSED', async () => {
    const { token } = await paidToken();
    await fake.idle();
    const attempt = await fake.sendPush(token, {}, `http://127.0.0.1:${await closedPort()}/push`);
    expect(attempt).toMatchObject({ httpStatus: null, error: 'ECONNREFUSED', ok: false });
  });

  it('forged pushes: only a named payment asks for a recheck; the push never carries the outcome itself', async () => {
    const { token, req } = await paidToken();
    await fake.idle();
    await fake.sendPush(token, { Result: '901' });
    await fake.sendPush(token, { TransactionToken: null, CompanyRef: null });
    await fake.sendPush(token, { TransactionToken: null });
    const verdicts = receiver
      .at('/push')
      .slice(-3)
      .map((r) => connector.verifyNotification(C, r.body, r.contentType));
    expect(verdicts).toEqual([
      { kind: 'recheck', providerReference: token, transactionId: req.transactionId },
      { kind: 'invalid', reason: 'push without TransactionToken or CompanyRef' },
      { kind: 'recheck', providerReference: null, transactionId: req.transactionId },
    ]);
  });
});
