import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { RpcSigner, decodeFrame, encodeFrame } from '@payments/platform';
import { ApiException } from '../http/api-exception';
import { RpcClientPool } from './rpc-client-pool';

/**
 * 10.0.0.1 drops packets (its connect never completes); 10.0.0.2 answers every request with
 * `{ ok: true, data: 'pong' }`; 10.0.0.3 answers with the refusal of a service that could not reach its store;
 * 10.0.0.4 refuses connections (a replica that is restarting); 10.0.0.5 answers after 100 ms.
 */
class FakeSocket extends EventEmitter {
  writableLength = 0;
  constructor(readonly host: string) {
    super();
  }
  setTimeout(): this {
    return this;
  }
  cork(): void {}
  uncork(): void {}
  write(frame: Buffer): boolean {
    const { header } = decodeFrame(frame.subarray(4));
    const reply = this.host === '10.0.0.3' ? STORE_DOWN : { ok: true, data: 'pong' };
    const answer = () => this.emit('data', encodeFrame({ id: header.id }, JSON.stringify(reply)));
    if (this.host === '10.0.0.5') setTimeout(answer, 100);
    else setImmediate(answer);
    return true;
  }
  end(): this {
    setImmediate(() => this.emit('close'));
    return this;
  }
  destroy(): this {
    this.emit('close');
    return this;
  }
}

jest.mock('node:net', () => ({
  ...jest.requireActual<object>('node:net'),
  connect: ({ host }: { host: string }) => {
    const socket = new FakeSocket(host);
    if (host === '10.0.0.4')
      setTimeout(
        () => socket.emit('error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
        1,
      );
    else if (host !== '10.0.0.1') setTimeout(() => socket.emit('connect'), 1);
    return socket;
  },
}));

/** What the next DNS lookups answer, in turn. */
const lookups: string[][] = [];
jest.mock('node:dns/promises', () => ({
  lookup: async () => (lookups.shift() ?? []).map((address) => ({ address, family: 4 })),
}));

const STORE_DOWN = {
  ok: false,
  error: { code: 'service_unavailable', message: 'a data store is unreachable; try again shortly', not_executed: true },
};
const logger = { warn: () => undefined, error: () => undefined } as unknown as Logger;
const signer = new RpcSigner('unit-test-secret-0123456789-abcdefghij', 'merchant');

describe('RpcClientPool failover', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('moves on from an address that drops packets after the connect cap, well within the call deadline', async () => {
    const pool = new RpcClientPool(
      'transaction-service',
      '10.0.0.1:4001,10.0.0.2:4001',
      10_000,
      1_000,
      60_000,
      logger,
      signer,
      64 * 1024,
    );
    await pool.start();
    let outcome: unknown = 'pending';
    pool.call('transactions.get', { request_id: 'req_1' }, {}).then(
      (v) => (outcome = v),
      (err: unknown) => (outcome = err),
    );
    await jest.advanceTimersByTimeAsync(999);
    expect(outcome).toBe('pending');
    await jest.advanceTimersByTimeAsync(20);
    expect(outcome).toBe('pong');
    await pool.close();
  });
});

describe('RpcClientPool with a replica restarting', () => {
  it('sends each of many concurrent calls to the replica that is up, none twice to the one that refuses', async () => {
    const pool = new RpcClientPool(
      'transaction-service',
      '10.0.0.4:4001,10.0.0.2:4001',
      10_000,
      1_000,
      60_000,
      logger,
      signer,
      64 * 1024,
    );
    await pool.start();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => pool.call('transactions.get', { request_id: `req_${i}` }, {})),
    );
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual(
      Array(20).fill('pong'),
    );
    await pool.close();
  });
});

describe('RpcClientPool and DNS', () => {
  it('lets a call in flight to an address that left the DNS answers (a terminating pod) finish', async () => {
    lookups.push(['10.0.0.5'], []);
    const pool = new RpcClientPool(
      'transaction-service',
      'transaction-service.internal:4001',
      10_000,
      1_000,
      20,
      logger,
      signer,
      64 * 1024,
    );
    await pool.start();
    expect(pool.addresses).toEqual(['10.0.0.5:4001']);
    const call = pool.call('transactions.get', { request_id: 'req_1' }, {});
    // Within the reply's 100 ms a refresh (every 20 ms) drops the address.
    while (pool.addresses.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(call).resolves.toBe('pong');
    await pool.close();
  });
});

describe('RpcClientPool refusals', () => {
  it('a refusal marked not_executed reaches the idempotency layer as notExecuted, not the public body', async () => {
    const pool = new RpcClientPool(
      'transaction-service',
      '10.0.0.3:4001',
      10_000,
      1_000,
      60_000,
      logger,
      signer,
      64 * 1024,
    );
    await pool.start();
    const err = await pool.call('transactions.initialize', { request_id: 'req_1' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect(err).toMatchObject({ code: 'service_unavailable', status: 503, notExecuted: true, errors: undefined });
    await pool.close();
  });
});
