import { pino } from 'pino';
import { connect } from 'node:net';
import {
  FrameDecoder,
  FramedRpcClient,
  FramedRpcServer,
  RPC_GOING_AWAY,
  RpcConnectionLostError,
  RpcNotSentError,
  RpcRemoteError,
  RpcSigner,
  RpcTimeoutError,
  RpcVerifier,
  decodeFrame,
  encodeFrame,
} from '@payments/platform';
import { freePort } from '../support/processes';
import { waitFor } from '../support/wait';

const SECRET = 'transport-test-secret-0123456789-abcdef';

/**
 * The RPC transport on real loopback sockets, with handlers registered directly (the e2e suite covers it under Nest
 * controllers): many calls on one connection answered out of order, the per-call deadline, a down peer, a peer that
 * drops mid-call, coming back after a restart, and the frame limit on replies.
 */
describe('framed RPC transport', () => {
  let port: number;
  let server: FramedRpcServer | undefined;
  let client: FramedRpcClient;
  const release: (() => void)[] = [];
  let runs = 0;

  const start = async (maxFrameBytes = 1024 * 1024) => {
    const s = new FramedRpcServer(
      { host: '127.0.0.1', port, maxFrameBytes, maxConnections: 64, frameTimeoutMs: 10_000 },
      new RpcVerifier({ secrets: [SECRET], maxAgeMs: 30_000 }),
      pino({ level: 'silent' }),
    );
    s.addHandler(
      'echo.delayed',
      async (data: { value: number; delayMs: number }) => {
        runs++;
        await new Promise((r) => setTimeout(r, data.delayMs));
        return { value: data.value };
      },
      false,
    );
    s.addHandler('hang', () => new Promise((resolve) => release.push(() => resolve({ released: true }))), false);
    s.addHandler('big', async (data: { bytes: number }) => 'x'.repeat(data.bytes), false);
    await new Promise<void>((resolve, reject) => s.listen((err?: unknown) => (err ? reject(err as Error) : resolve())));
    server = s;
  };

  beforeAll(async () => {
    port = await freePort();
  });

  beforeEach(() => {
    client = new FramedRpcClient({
      host: '127.0.0.1',
      port,
      signer: new RpcSigner(SECRET, 'merchant'),
      timeoutMs: 5_000,
      maxFrameBytes: 64 * 1024,
    });
  });

  afterEach(async () => {
    client.close();
    for (const r of release.splice(0)) r();
    await server?.close();
    server = undefined;
  });

  it('multiplexes calls on one connection and matches replies by id, whatever their order', async () => {
    await start();
    const delays = [120, 10, 80, 0, 40, 60, 20, 100];
    const replies = await Promise.all(
      delays.map((delayMs, value) => client.request<{ value: number }>('echo.delayed', { value, delayMs })),
    );
    expect(replies.map((r) => r.value)).toEqual(delays.map((_, i) => i));
  });

  it('fails a call without a reply at its deadline, and the connection keeps serving others', async () => {
    await start();
    const hung = client.request('hang', {}, 300);
    await expect(hung).rejects.toBeInstanceOf(RpcTimeoutError);
    await expect(client.request('echo.delayed', { value: 7, delayMs: 0 })).resolves.toEqual({ value: 7 });
  });

  it('reports a down peer as not sent, reuses it once up, and lets a closing server finish running calls', async () => {
    await expect(client.request('echo.delayed', { value: 1, delayMs: 0 })).rejects.toBeInstanceOf(RpcNotSentError);
    await start();
    await waitFor(
      'the client to reconnect after its backoff',
      async () =>
        (await client.request<{ value: number }>('echo.delayed', { value: 2, delayMs: 0 }).catch(() => undefined))
          ?.value === 2,
    );
    const inFlight = client.request('hang', {});
    await waitFor('the call to reach the server', () => release.length === 1);
    // Closing drains running requests (up to 5 s) and tells the client to send nothing more there.
    const closing = server!.close();
    server = undefined;
    for (const r of release.splice(0)) r();
    await expect(inFlight).resolves.toEqual({ released: true });
    await closing;
    await expect(client.request('echo.delayed', { value: 3, delayMs: 0 })).rejects.toBeInstanceOf(RpcNotSentError);
  });

  it('fails calls whose connection is cut before the reply', async () => {
    await start();
    await client.request('echo.delayed', { value: 0, delayMs: 0 });
    const inFlight = client.request('hang', {});
    await waitFor('the call to reach the server', () => release.length === 1);
    for (const socket of (server as unknown as { sockets: Set<import('node:net').Socket> }).sockets) socket.destroy();
    await expect(inFlight).rejects.toBeInstanceOf(RpcConnectionLostError);
  });

  it('refuses a reply over the client frame limit by dropping the connection', async () => {
    await start();
    await expect(client.request('big', { bytes: 128 * 1024 })).rejects.toBeInstanceOf(RpcConnectionLostError);
    await expect(client.request<string>('big', { bytes: 1024 })).resolves.toHaveLength(1024);
  });

  it('answers a request signed with another secret as refused, without running it', async () => {
    await start();
    const stranger = new FramedRpcClient({
      host: '127.0.0.1',
      port,
      signer: new RpcSigner('another-secret-0123456789-abcdefghij', 'merchant'),
      timeoutMs: 5_000,
      maxFrameBytes: 64 * 1024,
    });
    try {
      const err = await stranger.request('hang', {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RpcRemoteError);
      expect(err).toMatchObject({ code: 'rpc_refused', message: 'request refused: bad_signature' });
      expect(release).toHaveLength(0);
    } finally {
      stranger.close();
    }
  });

  /** A raw connection, so a request can be sent after the server's goaway left but before it is read. */
  const rawConnection = async () => {
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    const frames: Array<{ header: Record<string, unknown>; body: Buffer }> = [];
    const decoder = new FrameDecoder(1024 * 1024, (frame) => frames.push(decodeFrame(frame)));
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
    const signer = new RpcSigner(SECRET, 'merchant');
    const send = (id: number, pattern: string, data: unknown, extra: object = { ga: 1 }) => {
      const body = JSON.stringify(data);
      socket.write(encodeFrame({ id, pattern, auth: signer.sign(pattern, body, 5_000), ...extra }, body));
    };
    return { socket, frames, send };
  };

  it('answers "going away" to a request crossing its goaway, finishes the running one, closes after it', async () => {
    await start();
    const { socket, frames, send } = await rawConnection();
    send(1, 'hang', {});
    await waitFor('the first call to run', () => release.length === 1);
    const closing = server!.close();
    server = undefined;
    await waitFor('the goaway', () => frames.some((f) => f.header.goaway === true));
    const before = runs;
    send(2, 'echo.delayed', { value: 2, delayMs: 0 });
    await waitFor('the answer to the crossed request', () => frames.some((f) => f.header.id === 2));
    expect(frames.find((f) => f.header.id === 2)?.header.err).toMatchObject({ code: RPC_GOING_AWAY });
    expect(runs).toBe(before);
    // The running call still gets its reply; the server then waits for the client's end to close.
    for (const r of release.splice(0)) r();
    await waitFor('the reply to the running call', () => frames.some((f) => f.header.id === 1));
    expect(frames.find((f) => f.header.id === 1)?.header.err).toBeUndefined();
    let closed = false;
    void closing.then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    socket.end();
    await waitFor('the server to close after the client ended', () => closed, { timeoutMs: 1_500 });
    socket.destroy();
  });

  it('a client unaware of "going away" gets no answer, as before; closing does not await its end', async () => {
    await start();
    const { socket, frames, send } = await rawConnection();
    send(1, 'echo.delayed', { value: 1, delayMs: 0 }, {});
    await waitFor('the first reply', () => frames.some((f) => f.header.id === 1));
    const closing = server!.close();
    server = undefined;
    await waitFor('the goaway', () => frames.some((f) => f.header.goaway === true));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    send(2, 'echo.delayed', { value: 2, delayMs: 0 }, {});
    // The client never ends its side: the server ends the connection itself after its wait.
    await ended;
    await closing;
    expect(frames.some((f) => f.header.id === 2)).toBe(false);
    socket.destroy();
  });
});
