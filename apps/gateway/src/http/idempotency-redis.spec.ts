import type { Redis } from 'ioredis';
import type { GatewayConfig } from '../config/gateway.config';
import { keyedRequest } from './__tests__/idempotency-harness';
import { ApiException } from './api-exception';
import { Idempotency, SETTLE, TAKE_OVER } from './idempotency';

/*
 * The claim against a Redis that is down, slow or answers a resent call (what ioredis does after
 * a reconnect). tests/integration/idempotency-redis-down.test.ts does the same on a real
 * redis-server behind a lossy proxy.
 */

const config = {
  REDIS_KEY_PREFIX: '',
  IDEMPOTENCY_TTL_SECONDS: 86_400,
  RPC_TIMEOUT_MS: 10_000,
  REDIS_TIMEOUT_MS: 50,
} as GatewayConfig;

/** A Redis whose calls are recorded and answered by `answer` (a call it never answers hangs). */
function fakeRedis(status: string, answer: (call: string, args: unknown[]) => Promise<unknown>) {
  const calls: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push(
        name === 'eval' ? (args[0] === SETTLE ? 'settle' : args[0] === TAKE_OVER ? 'take-over' : 'eval') : name,
      );
      return answer(name, args);
    };
  const redis = { status, set: record('set'), get: record('get'), eval: record('eval') };
  return { idempotency: new Idempotency(redis as unknown as Redis, config), calls };
}

async function outcome(claim: Promise<void> | undefined): Promise<string> {
  try {
    await claim;
    return 'claimed';
  } catch (err) {
    return `refused ${(err as ApiException).code}`;
  }
}

describe('Idempotency-Key claim against an unavailable or resent Redis', () => {
  it('is refused with 503 before any call while the connection is not ready', async () => {
    const { idempotency, calls } = fakeRedis('reconnecting', async () => 'OK');
    expect(await outcome(idempotency.claim(keyedRequest({ amount: 1 })))).toBe('refused service_unavailable');
    expect(calls).toEqual([]);
  });

  it('is refused with 503 past REDIS_TIMEOUT_MS, and its release is queued behind the claim', async () => {
    const { idempotency, calls } = fakeRedis('ready', (call) =>
      call === 'set' ? new Promise(() => undefined) : Promise.resolve(1),
    );
    const req = keyedRequest({ amount: 1 });
    expect(await outcome(idempotency.claim(req))).toBe('refused service_unavailable');
    expect(calls).toEqual(['set', 'settle']);
    expect(req.idempotencyClaim).toBeUndefined();
  });

  it("holds when a resent SET finds the key holding this request's own claim (its first answer was lost)", async () => {
    let value: string | undefined;
    const { idempotency, calls } = fakeRedis('ready', async (call, args) => {
      if (call === 'set') return ((value = args[1] as string), null); // applied once, the resend answers "taken"
      return value ?? null;
    });
    const req = keyedRequest({ amount: 1 });
    expect(await outcome(idempotency.claim(req))).toBe('claimed');
    expect(calls).toEqual(['set', 'get']);
    expect(req.idempotencyClaim?.running).toBe(value);
  });

  it("holds when a resent take-over of an unreadable record finds this request's own claim", async () => {
    let value = 'not json';
    const { idempotency } = fakeRedis('ready', async (call, args) => {
      if (call === 'set') return null;
      if (call === 'get') return value;
      value = args[4] as string; // the take-over is applied; its resend finds the record changed
      return null;
    });
    const req = keyedRequest({ amount: 1 });
    expect(await outcome(idempotency.claim(req))).toBe('claimed');
    expect(req.idempotencyClaim?.running).toBe(value);
  });

  it("another request's running claim with the same body is still 409 idempotency_in_progress", async () => {
    let value: string | undefined;
    const first = fakeRedis('ready', async (call, args) =>
      call === 'set' ? ((value = args[1] as string), 'OK') : value,
    );
    await first.idempotency.claim(keyedRequest({ amount: 1 }));
    const second = fakeRedis('ready', async (call) => (call === 'set' ? null : value));
    expect(await outcome(second.idempotency.claim(keyedRequest({ amount: 1 })))).toBe(
      'refused idempotency_in_progress',
    );
  });
});
