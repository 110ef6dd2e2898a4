import { ErrorCodes } from '@payments/contracts';
import { OutcomeUnknownError } from '@payments/database';
import { ApiException } from './api-exception';
import { harness, keyedRequest } from './__tests__/idempotency-harness';

describe('Idempotency: what a failure leaves under the key', () => {
  const body = { email: 'a@example.com', amount: 5000 };

  function setUp() {
    const { call: send, store } = harness();
    const call = (handle: () => Promise<unknown>) => send(body, handle);
    const kept = () =>
      [...store.values()].map((v) => JSON.parse(v) as { state: string; status?: number; body?: { code?: string } });
    return { call, kept };
  }

  it('a service that could not reach its store (not_executed) releases the key, so a retry runs', async () => {
    const { call, kept } = setUp();
    const refused = new ApiException(ErrorCodes.ServiceUnavailable, 'a data store is unreachable; try again shortly');
    refused.notExecuted = true;
    expect((await call(() => Promise.reject(refused))).status).toBe(503);
    expect(kept()).toEqual([]);
    expect((await call(async () => ({ fresh: true }))).payload).toBe('{"fresh":true}');
  });

  it("the gateway's own unreachable store releases the key too", async () => {
    const { call, kept } = setUp();
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect((await call(() => Promise.reject(down))).status).toBe(503);
    expect(kept()).toEqual([]);
  });

  it('a request refused by validation releases the key', async () => {
    const { call, kept } = setUp();
    const invalid = new ApiException(ErrorCodes.ValidationError, 'request body failed validation', [
      { field: 'amount', message: 'must be positive' },
    ]);
    expect((await call(() => Promise.reject(invalid))).status).toBe(400);
    expect(kept()).toEqual([]);
  });

  it("a store connection lost mid-write is kept as the filter's 504 outcome_unknown, never as a 500", async () => {
    const { call, kept } = setUp();
    const lost = new OutcomeUnknownError(
      'INSERT INTO transactions …',
      [],
      new Error('Connection terminated unexpectedly'),
    );
    expect((await call(() => Promise.reject(lost))).status).toBe(504);
    expect(kept()).toEqual([
      expect.objectContaining({
        state: 'done',
        status: 504,
        body: expect.objectContaining({ code: 'outcome_unknown' }),
      }),
    ]);
  });

  it('an unknown outcome of an endpoint the service is not idempotent on is kept', async () => {
    const { call, kept } = setUp();
    const timedOut = new ApiException(
      ErrorCodes.OutcomeUnknown,
      'transaction-service did not answer in time; check its outcome',
    );
    expect((await call(() => Promise.reject(timedOut))).status).toBe(504);
    expect(kept()).toEqual([expect.objectContaining({ state: 'done', status: 504 })]);
  });

  it('an outcome the service resolves is not kept: 409 until it settles, then the retry runs and is kept', async () => {
    const { call, store } = harness();
    const body = { email: 'a@example.com', amount: 5000 };
    let now = 1_000_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const timedOut = new ApiException(ErrorCodes.OutcomeUnknown, 'transaction-service did not answer in time');
      timedOut.rerunAfter = now + 5_000;
      expect((await call(body, () => Promise.reject(timedOut))).status).toBe(504);
      expect([...store.values()].map((v) => JSON.parse(v))).toEqual([
        expect.objectContaining({ state: 'unknown', rerun_after: now + 5_000 }),
      ]);
      const ran = jest.fn(async () => ({ transaction_id: 'txn_1' }));
      now += 4_000;
      const early = await call(body, ran);
      expect(early.status).toBe(409);
      expect(JSON.parse(early.payload)).toMatchObject({ code: 'idempotency_in_progress' });
      expect(early.headers['retry-after']).toBe('1');
      expect((await call({ ...body, amount: 1 }, ran)).status).toBe(422);
      expect(ran).not.toHaveBeenCalled();
      now += 1_000;
      expect((await call(body, ran)).status).toBe(200);
      expect(ran).toHaveBeenCalledTimes(1);
      const replay = await call(body, ran);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(ran).toHaveBeenCalledTimes(1);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('Idempotency: a request that outlived its claim', () => {
  const body = { email: 'a@example.com', amount: 5000 };
  const request = () => keyedRequest(body);
  const key = 'idempotency:biz_1:test:key-1';

  it("does not overwrite a retry that claimed the key after it expired: the retry's answer is kept", async () => {
    const { store, idempotency } = harness();
    const slow = request();
    await idempotency.claim(slow);
    store.delete(key); // the claim's hold ran out
    const retry = request();
    await idempotency.claim(retry);
    const retrysClaim = store.get(key);
    await idempotency.settle(slow, slow.idempotencyClaim!, 200, 'application/json', '{"late":true}');
    expect(store.get(key)).toBe(retrysClaim);
    await idempotency.settle(retry, retry.idempotencyClaim!, 200, 'application/json', '{"retry":true}');
    expect(JSON.parse(store.get(key)!)).toEqual({
      state: 'done',
      fingerprint: retry.idempotencyClaim!.fingerprint,
      status: 200,
      body: { retry: true },
    });
  });

  it("does not release the retry's claim when it was refused", async () => {
    const { store, idempotency } = harness();
    const slow = request();
    await idempotency.claim(slow);
    store.delete(key);
    const retry = request();
    await idempotency.claim(retry);
    await idempotency.settle(slow, slow.idempotencyClaim!, 400, 'application/json', '{"code":"validation_error"}');
    expect(JSON.parse(store.get(key)!)).toMatchObject({ state: 'running' });
  });

  it('keeps its answer when nobody claimed the key after its claim expired, so a retry replays it', async () => {
    const { store, idempotency } = harness();
    const slow = request();
    await idempotency.claim(slow);
    store.delete(key);
    await idempotency.settle(slow, slow.idempotencyClaim!, 200, 'application/json', '{"late":true}');
    expect(JSON.parse(store.get(key)!)).toMatchObject({ state: 'done', body: { late: true } });
  });
});
