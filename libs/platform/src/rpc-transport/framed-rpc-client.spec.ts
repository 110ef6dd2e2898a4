import { EventEmitter } from 'node:events';
import { RpcSigner } from '../rpc-auth/rpc-envelope';
import { FramedRpcClient, MIN_REPLY_MS, RpcNotSentError, RpcTimeoutError } from './framed-rpc-client';
import { RPC_GOING_AWAY, decodeFrame, encodeFrame } from './frame-codec';

/** A socket whose connect completes when the test says so, and which never replies. */
class SlowSocket extends EventEmitter {
  readonly written: Buffer[] = [];
  writableLength = 0;
  setTimeout(): this {
    return this;
  }
  cork(): void {}
  uncork(): void {}
  write(frame: Buffer): boolean {
    this.written.push(frame);
    return true;
  }
  ended = false;
  end(): this {
    this.ended = true;
    return this;
  }
  destroy(): this {
    this.emit('close');
    return this;
  }
  /** The server's frame, as it would arrive. */
  reply(header: object): void {
    this.emit('data', encodeFrame(header));
  }
  /** The id of the n-th request written on this socket. */
  idOf(n: number): number {
    return decodeFrame(this.written[n].subarray(4)).header.id as number;
  }
}

const sockets: SlowSocket[] = [];
let connectAfterMs = 0;

jest.mock('node:net', () => ({
  connect: () => {
    const socket = new SlowSocket();
    sockets.push(socket);
    setTimeout(() => socket.emit('connect'), connectAfterMs);
    return socket;
  },
}));

/** How a call ended, or 'pending'; read after the fake clock moved. */
function track(call: Promise<unknown>): () => unknown {
  let outcome: unknown = 'pending';
  call.then(
    () => (outcome = 'answered'),
    (err: unknown) => (outcome = err),
  );
  return () => outcome;
}

/** Moves the fake clock, then lets every promise chain that the timers started settle. */
async function advance(ms: number): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

const client = (connectTimeoutMs?: number, timeoutMs = 200) =>
  new FramedRpcClient({
    host: '10.0.0.1',
    port: 4000,
    signer: new RpcSigner('unit-test-secret-0123456789-abcdefghij', 'merchant'),
    timeoutMs,
    connectTimeoutMs,
    maxFrameBytes: 64 * 1024,
  });

describe('FramedRpcClient deadline', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    sockets.length = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('counts the time spent connecting: a call whose connect took 150 of its 800 ms times out at 800 ms', async () => {
    connectAfterMs = 150;
    const c = client(200, 800);
    const outcome = track(c.request('echo', { value: 1 }));
    await advance(150);
    expect(sockets[0].written).toHaveLength(1);
    // The deadline the service gets is what is left after connecting, signed into the envelope.
    expect(decodeFrame(sockets[0].written[0].subarray(4)).header.auth).toMatchObject({ v: 2, ttl: 650 });
    await advance(649);
    expect(outcome()).toBe('pending');
    await advance(1);
    expect(outcome()).toBeInstanceOf(RpcTimeoutError);
    c.close();
  });

  it('gives up at the deadline while still connecting, with nothing sent', async () => {
    connectAfterMs = 10_000;
    const c = client();
    const outcome = track(c.request('echo', { value: 1 }, 100));
    await advance(100);
    expect(outcome()).toBeInstanceOf(RpcNotSentError);
    expect(sockets[0].written).toHaveLength(0);
    c.close();
  });

  it('caps connecting at a quarter of the deadline (at most 1 s) by default, leaving time for another', async () => {
    connectAfterMs = 60_000;
    const c = client(undefined, 10_000);
    const outcome = track(c.request('echo', { value: 1 }));
    await advance(999);
    expect(outcome()).toBe('pending');
    await advance(1);
    expect(outcome()).toBeInstanceOf(RpcNotSentError);
    expect(sockets[0].written).toHaveLength(0);
    c.close();

    const short = client(undefined, 200);
    const shortOutcome = track(short.request('echo', { value: 1 }));
    await advance(50);
    expect(shortOutcome()).toBeInstanceOf(RpcNotSentError);
    short.close();
  });

  it('does not send a call whose connect left less than the minimum reply time', async () => {
    connectAfterMs = 200 - MIN_REPLY_MS + 1;
    const c = client(200);
    const outcome = track(c.request('echo', { value: 1 }));
    await advance(connectAfterMs);
    expect(outcome()).toBeInstanceOf(RpcNotSentError);
    expect(sockets[0].written).toHaveLength(0);
    // The connection is kept: the next call is sent on it at once, with its whole deadline.
    const next = track(c.request('echo', { value: 2 }));
    await advance(0);
    expect(sockets).toHaveLength(1);
    expect(sockets[0].written).toHaveLength(1);
    await advance(199);
    expect(next()).toBe('pending');
    c.close();
  });
});

describe('FramedRpcClient and a server going away', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    sockets.length = 0;
    connectAfterMs = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('takes a "going away" answer as not sent, awaits the other replies, closes; new calls reconnect', async () => {
    const c = client(undefined, 5_000);
    const first = track(c.request('echo', { value: 1 }));
    const crossed = track(c.request('echo', { value: 2 }));
    await advance(0);
    const old = sockets[0];
    expect(old.written).toHaveLength(2);
    old.reply({ goaway: true });
    // A call made now does not go on the leaving connection.
    const later = track(c.request('echo', { value: 3 }));
    await advance(0);
    expect(sockets).toHaveLength(2);
    expect(sockets[1].written).toHaveLength(1);
    old.reply({ id: old.idOf(1), err: { code: RPC_GOING_AWAY, message: 'the service is shutting down; not run' } });
    await advance(0);
    expect(crossed()).toBeInstanceOf(RpcNotSentError);
    expect(old.ended).toBe(false); // the first call still waits for its reply there
    old.emit('data', encodeFrame({ id: old.idOf(0) }, JSON.stringify({ value: 1 })));
    await advance(0);
    expect(first()).toBe('answered');
    expect(old.ended).toBe(true);
    // The old connection closing fails nothing on the new one.
    old.destroy();
    await advance(0);
    expect(later()).toBe('pending');
    sockets[1].emit('data', encodeFrame({ id: sockets[1].idOf(0) }, JSON.stringify({ value: 3 })));
    await advance(0);
    expect(later()).toBe('answered');
    c.close();
  });
});
