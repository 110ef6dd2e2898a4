/**
 * The fake Paynow's faults, seen through the Paynow connector: every uncertain answer is unknown
 * (sent unless no connection was made), a lost reply is found again by trace, and status updates
 * are retried up to ten times in all. Loopback only: no database, Kafka or Redis.
 */
import type { InitiateRequest } from '../../apps/transaction-service/src/connectors/connector';
import { PaynowConnector } from '../../apps/transaction-service/src/connectors/paynow';
import { type FakeEndpoint, type FakeMode, PaynowFake } from '../support/fakes/paynow-fake';
import { ResultReceiver, closedPort } from '../support/fakes/result-receiver';

const KEY = '3e9fed89-60e1-4ce5-ab6e-6b1eb2d4f977';
const C = { integrationId: '1201', integrationKey: KEY };
const OPTS = { timeoutMs: 3000 };
const FORM = 'application/x-www-form-urlencoded';

let fake: PaynowFake;
let receiver: ResultReceiver;
let connector: PaynowConnector;
let seq = 0;

function request(over: Partial<InitiateRequest> = {}): InitiateRequest {
  seq += 1;
  return {
    transactionId: `txf_${seq}_${Date.now()}`,
    reference: `FAULT-${seq}`,
    amountMinor: 250,
    currency: 'USD',
    method: 'ecocash',
    phone: '0779999999',
    email: 'merchant@example.com',
    description: null,
    resultUrl: `${receiver.url}/result/${seq}`,
    returnUrl: 'https://shop.example.com/return',
    ...over,
  };
}

async function withMode<T>(endpoint: FakeEndpoint, mode: FakeMode, run: () => Promise<T>): Promise<T> {
  fake.setMode(endpoint, mode);
  try {
    return await run();
  } finally {
    fake.setMode(endpoint, 'normal');
  }
}

beforeAll(async () => {
  receiver = await ResultReceiver.start();
  fake = await PaynowFake.start({ integrations: [{ id: '1201', key: KEY }], timeScale: 0.01, notificationRetryMs: 10 });
  connector = new PaynowConnector(fake.url);
});

afterEach(() => {
  receiver.status = 200;
  receiver.script = [];
});

afterAll(async () => {
  await fake?.stop();
  await receiver?.stop();
});

describe('the fake Paynow in trouble, through the connector', () => {
  it.each<[FakeMode, object, boolean]>([
    ['down', { kind: 'unknown', sent: true }, false],
    ['garbage', { kind: 'unknown', sent: true, reason: 'reply unreadable: not a form-encoded message' }, false],
    ['http-500', { kind: 'unknown', sent: true, reason: 'HTTP 500' }, false],
    ['bad-hash', { kind: 'unknown', sent: true, reason: 'Ok reply whose hash does not verify' }, true],
    ['drop-reply', { kind: 'unknown', sent: true }, true],
  ])('initiate against %s: %o; a trace then tells whether it exists', async (mode, expected, exists) => {
    const req = request();
    expect(await withMode('remotetransaction', mode, () => connector.initiate(C, req, OPTS))).toMatchObject(expected);
    const traced = await connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS);
    expect(traced).toMatchObject(
      exists ? { kind: 'status', update: { reference: req.reference, providerStatus: 'Sent' } } : { kind: 'not_found' },
    );
  });

  it('initiate against a hanging Paynow: unknown, sent, after the timeout', async () => {
    const started = Date.now();
    const outcome = await withMode('remotetransaction', 'hang', () =>
      connector.initiate(C, request(), { timeoutMs: 200 }),
    );
    expect(outcome).toEqual({ kind: 'unknown', sent: true, reason: 'no complete reply within 200 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('initiate against a port nothing listens on: unknown, never sent', async () => {
    const nowhere = new PaynowConnector(`http://127.0.0.1:${await closedPort()}`);
    expect(await nowhere.initiate(C, request(), OPTS)).toEqual({
      kind: 'unknown',
      sent: false,
      reason: 'could not connect (ECONNREFUSED)',
    });
    expect(await nowhere.sync(C, { pollUrl: null, transactionId: 'x' }, OPTS)).toEqual({
      kind: 'unknown',
      reason: 'could not connect (ECONNREFUSED)',
    });
  });

  it.each<[FakeMode, string]>([
    ['error', 'Paynow answered Error: Trace failed'],
    ['bad-hash', 'status reply refused: hash does not verify'],
    ['garbage', 'reply unreadable: not a form-encoded message'],
  ])('trace against %s: unknown (%s)', async (mode, reason) => {
    const req = request();
    await connector.initiate(C, req, OPTS);
    expect(
      await withMode('trace', mode, () => connector.sync(C, { pollUrl: null, transactionId: req.transactionId }, OPTS)),
    ).toEqual({ kind: 'unknown', reason });
  });

  it('a NotFound with a corrupted hash is not trusted', async () => {
    expect(
      await withMode('trace', 'bad-hash', () => connector.sync(C, { pollUrl: null, transactionId: 'txf_never' }, OPTS)),
    ).toEqual({
      kind: 'unknown',
      reason: 'NotFound reply: hash does not verify',
    });
  });

  it('poll against a dropped connection: unknown', async () => {
    const outcome = await connector.initiate(C, request(), OPTS);
    if (outcome.kind !== 'accepted') throw new Error('not accepted');
    expect(
      await withMode('checkpayment', 'down', () =>
        connector.sync(C, { pollUrl: outcome.pollUrl, transactionId: 'x' }, OPTS),
      ),
    ).toMatchObject({ kind: 'unknown' });
  });

  it('a status update answered 500 is tried ten times in all, then dropped', async () => {
    const req = request();
    await connector.initiate(C, req, OPTS);
    receiver.status = 500;
    fake.settle(req.reference, 'Paid');
    await fake.idle();
    const path = new URL(req.resultUrl).pathname;
    expect(receiver.at(path)).toHaveLength(10);
    const attempts = fake.notificationAttempts.filter((a) => a.reference === req.reference);
    expect(attempts.map((a) => [a.attempt, a.httpStatus, a.status])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, 500, 'Paid']),
    );
    for (const r of receiver.at(path))
      expect(connector.verifyNotification(C, r.body, r.contentType)).toMatchObject({
        kind: 'valid',
        update: { status: 'success' },
      });
  });

  it('a status update stops being tried once answered 2xx', async () => {
    const req = request();
    await connector.initiate(C, req, OPTS);
    receiver.script = [503, 404, 302];
    fake.settle(req.reference, 'Cancelled');
    await fake.idle();
    const attempts = fake.notificationAttempts.filter((a) => a.reference === req.reference);
    expect(attempts.map((a) => a.httpStatus)).toEqual([503, 404, 302, 200]);
    expect(receiver.at(new URL(req.resultUrl).pathname)).toHaveLength(4);
  });

  it('a status update to a result URL that refuses connections is tried ten times too', async () => {
    const req = request({ resultUrl: `http://127.0.0.1:${await closedPort()}/result` });
    await connector.initiate(C, req, OPTS);
    fake.settle(req.reference, 'Paid');
    await fake.idle();
    const attempts = fake.notificationAttempts.filter((a) => a.reference === req.reference);
    expect(attempts.map((a) => [a.httpStatus, a.error])).toEqual(
      Array.from({ length: 10 }, () => [null, 'ECONNREFUSED']),
    );
  });

  it('forged and duplicated status updates: the connector tells them apart', async () => {
    const req = request();
    await connector.initiate(C, req, OPTS);
    const path = new URL(req.resultUrl).pathname;
    await fake.sendNotification(req.reference, { status: 'Paid' });
    await fake.sendNotification(req.reference, { status: 'Paid' }); // a duplicate
    await fake.sendNotification(req.reference, { status: 'Paid', hash: 'A'.repeat(128) });
    await fake.sendNotification(req.reference, {
      status: 'Paid',
      amount: '0.01',
      hash: fake.notificationAttempts.at(-3)!.body.split('hash=')[1],
    });
    await fake.sendNotification(req.reference, { amount: null });
    const verdicts = receiver.at(path).map((r) => connector.verifyNotification(C, r.body, r.contentType));
    expect(
      verdicts.map((v) =>
        v.kind === 'valid'
          ? `valid ${v.update.providerStatus} ${v.update.amountMinor}`
          : v.kind === 'invalid'
            ? `invalid: ${v.reason}`
            : v.kind,
      ),
    ).toEqual([
      'valid Paid 250',
      'valid Paid 250',
      'invalid: hash does not verify',
      'invalid: hash does not verify',
      'invalid: field amount missing',
    ]);
    expect(receiver.at(path).every((r) => r.contentType === FORM)).toBe(true);
  });
});
