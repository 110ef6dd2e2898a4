/**
 * The fake Ozow's faults, seen through the Ozow connector: every uncertain answer is unknown (sent
 * unless no connection was made), a refund whose answer was lost is not retried, notifications are
 * retried. Loopback only: no database, Kafka or Redis.
 */
import type { InitiateRequest } from '../../apps/transaction-service/src/connectors/connector';
import { OzowConnector } from '../../apps/transaction-service/src/connectors/ozow';
import { OzowFake, type OzowFakeEndpoint, type OzowFakeMode } from '../support/fakes/ozow-fake';
import { ResultReceiver, closedPort } from '../support/fakes/result-receiver';
import { waitFor } from '../support/wait';

const SITE = { siteCode: 'FLTSTE0001', privateKey: 'PRIVATE-KEY-1', apiKey: 'API-KEY-1' };
const C = { ...SITE };
const OPTS = { timeoutMs: 3000 };

let fake: OzowFake;
let receiver: ResultReceiver;
let connector: OzowConnector;
let seq = 0;

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  seq += 1;
  return {
    transactionId: `txf_${seq}_${Date.now()}`,
    reference: `FAULT-${seq}`,
    amountMinor: 1999,
    currency: 'ZAR',
    method: 'ozow',
    phone: null,
    email: 'merchant@example.com',
    description: null,
    resultUrl: `${receiver.url}/notify/${seq}`,
    returnUrl: `${receiver.url}/return/${seq}`,
    ...over,
  };
}

async function withMode<T>(endpoint: OzowFakeEndpoint, mode: OzowFakeMode, run: () => Promise<T>): Promise<T> {
  fake.setMode(endpoint, mode);
  try {
    return await run();
  } finally {
    fake.setMode(endpoint, 'normal');
  }
}

beforeAll(async () => {
  receiver = await ResultReceiver.start();
  fake = await OzowFake.start({ sites: [SITE], notificationRetryMs: 10 });
  connector = new OzowConnector(fake.url);
});

afterEach(async () => {
  await fake.idle();
  receiver.status = 200;
  receiver.script = [];
});

afterAll(async () => {
  await fake?.stop();
  await receiver?.stop();
});

describe('the fake Ozow in trouble, through the connector', () => {
  it.each<[OzowFakeMode, object, boolean]>([
    ['down', { kind: 'unknown', sent: true }, false],
    ['garbage', { kind: 'unknown', sent: true, reason: 'reply is not a JSON object' }, false],
    ['http-500', { kind: 'unknown', sent: true, reason: 'HTTP 500' }, false],
    ['drop-reply', { kind: 'unknown', sent: true }, true],
  ])('initiate against %s: %o', async (mode, expected, exists) => {
    const req = request();
    expect(await withMode('PostPaymentRequest', mode, () => connector.initiate(C, req, OPTS))).toMatchObject(expected);
    expect(fake.payment(req.transactionId) !== undefined).toBe(exists);
    // Either way the status API lists nothing: no customer has the page's URL, so none can open it.
    expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)).toEqual({
      kind: 'not_found',
    });
  });

  it('initiate against a hanging Ozow: unknown, sent, after the timeout', async () => {
    const outcome = await withMode('PostPaymentRequest', 'hang', () =>
      connector.initiate(C, request(), { timeoutMs: 200 }),
    );
    expect(outcome).toEqual({ kind: 'unknown', sent: true, reason: 'no complete reply within 200 ms' });
  });

  it('nothing listening: unknown, certainly not sent', async () => {
    const closed = new OzowConnector(`http://127.0.0.1:${await closedPort()}`);
    expect(await closed.initiate(C, request(), OPTS)).toEqual({
      kind: 'unknown',
      sent: false,
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(await closed.sync(C, { pollUrl: null, transactionId: 'x' }, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'could not connect (ECONNREFUSED)',
    });
  });

  it('the fake offline (nothing on its port): unknown, certainly not sent; back online it answers', async () => {
    await fake.offline();
    try {
      expect(await connector.initiate(C, request(), OPTS)).toEqual({
        kind: 'unknown',
        sent: false,
        reason: 'could not connect (ECONNREFUSED)',
      });
    } finally {
      await fake.online();
    }
    expect(await connector.initiate(C, request(), OPTS)).toMatchObject({ kind: 'accepted' });
  });

  it.each<[OzowFakeMode, string | RegExp]>([
    ['down', /^request failed/],
    ['garbage', 'reply is not a JSON array'],
    ['http-500', 'HTTP 500'],
    ['drop-reply', /^request failed/],
  ])('the status API %s: unknown (%s), never not_found', async (mode, reason) => {
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.customerChooses(req.transactionId, 'Complete');
    const out = await withMode('GetTransactionByReference', mode, () =>
      connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS),
    );
    expect(out).toMatchObject({
      kind: 'unknown',
      reason: typeof reason === 'string' ? reason : expect.stringMatching(reason),
    });
    expect(await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)).toMatchObject({
      kind: 'status',
      update: { status: 'success' },
    });
  });

  it('the status API hanging: unknown after the timeout', async () => {
    expect(
      await withMode('GetTransactionByReference', 'hang', () =>
        connector.sync(C, { pollUrl: null, transactionId: 'x' }, { timeoutMs: 200 }),
      ),
    ).toEqual({ kind: 'unknown', reason: 'no complete reply within 200 ms' });
  });
});

describe('refunds with Ozow in trouble', () => {
  async function paidTransaction(): Promise<string> {
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.customerChooses(req.transactionId, 'Complete');
    return fake.payment(req.transactionId)!.transactions[0].transactionId;
  }
  const refundOf = (transactionId: string) => ({
    providerReference: transactionId,
    transactionId: 'txn',
    amountMinor: 500,
    currency: 'ZAR',
    reason: null,
    refundId: `rfd_${seq}`,
    notifyUrl: `${receiver.url}/refund/${seq}`,
  });

  it.each<OzowFakeMode>(['down', 'garbage', 'http-500'])('no token (%s): declined, nothing submitted', async (mode) => {
    const transactionId = await paidTransaction();
    const before = fake.requestsTo('refunds').length;
    const out = await withMode('token', mode, () => connector.refund(C, refundOf(transactionId), OPTS));
    expect(out).toMatchObject({ kind: 'declined', reason: expect.stringMatching(/nothing was submitted$/) });
    expect(fake.requestsTo('refunds')).toHaveLength(before);
  });

  it.each<[OzowFakeMode, boolean]>([
    ['drop-reply', true],
    ['down', false],
    ['garbage', false],
    ['http-500', false],
  ])('the submission %s: unknown, sent once, not retried (refund exists at Ozow: %s)', async (mode, exists) => {
    const transactionId = await paidTransaction();
    const before = fake.requestsTo('refunds').length;
    const out = await withMode('refunds', mode, () => connector.refund(C, refundOf(transactionId), OPTS));
    expect(out).toMatchObject({ kind: 'unknown' });
    expect(fake.requestsTo('refunds')).toHaveLength(before + 1);
    expect(fake.refunds.some((r) => r.transactionId === transactionId)).toBe(exists);
  });
});

describe('notifications to a failing notify URL', () => {
  it('are tried again until answered 2xx', async () => {
    receiver.script = [500, 503];
    const req = request();
    await connector.initiate(C, req, OPTS);
    fake.customerChooses(req.transactionId, 'Complete');
    await waitFor('a notification answered 200', () =>
      fake.notificationAttempts.find((a) => a.key === req.transactionId && a.httpStatus === 200),
    );
    expect(
      fake.notificationAttempts.filter((a) => a.key === req.transactionId).map((a) => [a.attempt, a.httpStatus]),
    ).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
  });
});
