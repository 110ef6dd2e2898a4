import { connect, createServer, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import {
  FramedRpcClient,
  FramedRpcServer,
  RpcConnectionLostError,
  RpcNotSentError,
  RpcSigner,
  RpcTimeoutError,
  RpcVerifier,
  UNVERIFIED_FRAME_BYTES,
  encodeFrame,
  rpcRefused,
} from '@payments/platform';
import { freePort } from '../support/processes';
import { waitFor } from '../support/wait';

const SECRET = 'transport-abuse-secret-0123456789-abcdef';
const FRAME_TIMEOUT_MS = 400;

/**
 * The RPC server seen from a peer on the network without the secret, on real loopback sockets:
 * slow or unfinished frames, idle and surplus connections, big unauthenticated frames, a flood of
 * forged requests (refusals cheap, logs bounded, replies never read), header tricks; and the
 * client against a server that misbehaves (unknown reply ids, a reply after the deadline).
 */
describe('framed RPC transport under abuse', () => {
  let port: number;
  let server: FramedRpcServer;
  let logLines: string[];
  let client: FramedRpcClient;
  let runs = 0;
  const raws: Socket[] = [];

  const start = async (opts: { maxConnections?: number; maxFrameBytes?: number; frameTimeoutMs?: number } = {}) => {
    logLines = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    server = new FramedRpcServer(
      {
        host: '127.0.0.1',
        port,
        maxFrameBytes: opts.maxFrameBytes ?? 16 * 1024 * 1024,
        maxConnections: opts.maxConnections ?? 64,
        frameTimeoutMs: opts.frameTimeoutMs ?? FRAME_TIMEOUT_MS,
      },
      new RpcVerifier({ secrets: [SECRET], maxAgeMs: 30_000 }),
      log,
    );
    server.addHandler(
      'echo',
      async (data: unknown) => {
        runs++;
        return data;
      },
      false,
    );
    await new Promise<void>((resolve, reject) =>
      server.listen((err?: unknown) => (err ? reject(err as Error) : resolve())),
    );
  };

  /** A raw connection, and a promise of its close. */
  const raw = async () => {
    const socket = connect(port, '127.0.0.1');
    raws.push(socket);
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    return { socket, closed, isClosed: () => isClosed };
  };
  const serverSockets = () => [...(server as unknown as { sockets: Set<Socket> }).sockets];
  const refusals = async (reason: string) =>
    (await rpcRefused.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
  const forged = (i: number, body = '{"x":1}') =>
    encodeFrame(
      {
        id: i,
        pattern: 'echo',
        auth: {
          v: 1,
          scope: 'merchant',
          ts: Date.now(),
          nonce: `forged-nonce-${String(i).padStart(8, '0')}`,
          sig: 'AAAA',
        },
      },
      body,
    );

  beforeAll(async () => {
    port = await freePort();
  });

  beforeEach(() => {
    runs = 0;
    client = new FramedRpcClient({
      host: '127.0.0.1',
      port,
      signer: new RpcSigner(SECRET, 'merchant'),
      timeoutMs: 5_000,
      maxFrameBytes: 16 * 1024 * 1024,
    });
  });

  afterEach(async () => {
    client.close();
    for (const s of raws.splice(0)) s.destroy();
    await server?.close();
  });

  it('cuts off a peer that trickles a frame and never finishes it (slowloris)', async () => {
    await start();
    const before = await refusals('timeout');
    const { socket, closed } = await raw();
    const frame = forged(1);
    // One byte at a time, well inside any inactivity timeout, never the last byte.
    let sent = 0;
    const trickle = setInterval(() => sent < frame.length - 1 && socket.write(frame.subarray(sent, ++sent)), 50);
    try {
      await closed;
    } finally {
      clearInterval(trickle);
    }
    expect(sent).toBeLessThan(frame.length - 1);
    expect(await refusals('timeout')).toBeGreaterThan(before);
  });

  it('closes idle connections that never sent a valid request, and keeps the gateway’s idle one', async () => {
    await start();
    await expect(client.request('echo', { a: 1 })).resolves.toEqual({ a: 1 });
    const idle = await raw();
    const refusedOnly = await raw();
    refusedOnly.socket.write(forged(1));
    refusedOnly.socket.resume(); // reads its refusal, so the server's close is seen
    await Promise.all([idle.closed, refusedOnly.closed]);
    // The verified connection outlived both (it is older than them) and still serves.
    await waitFor('the server to forget the closed connections', () => serverSockets().length === 1);
    await expect(client.request('echo', { a: 2 })).resolves.toEqual({ a: 2 });
    expect(serverSockets()).toHaveLength(1);
  });

  it('does not cut off a verified connection whose frames keep completing, even split at every byte', async () => {
    await start();
    await client.request('echo', { warm: true });
    const socket = serverSockets()[0];
    const frame = encodeFrame(
      { id: 1, pattern: 'echo', auth: new RpcSigner(SECRET, 'merchant').sign('echo', '{"n":1}') },
      '{"n":1}',
    );
    // The client's own socket is bypassed: split a signed frame byte by byte, so it spans many reads.
    const own = (client as unknown as { socket: Socket }).socket;
    for (let i = 0; i < frame.length; i++) own.write(frame.subarray(i, i + 1));
    await waitFor('the split frame to be served', () => runs === 2);
    expect(socket.destroyed).toBe(false);
  });

  it('refuses connections over RPC_MAX_CONNECTIONS as they arrive', async () => {
    await start({ maxConnections: 3 });
    const held = [await raw(), await raw(), await raw()];
    const surplus = await raw();
    await waitFor('the surplus connection to be closed', () => surplus.isClosed());
    expect(held.some((h) => h.isClosed())).toBe(false);
  });

  it('drops an unauthenticated connection at a length over 1 MiB; still serves big verified requests', async () => {
    await start();
    const before = await refusals('oversize');
    const { socket, closed } = await raw();
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(UNVERIFIED_FRAME_BYTES + 1);
    socket.write(prefix);
    await closed;
    expect(await refusals('oversize')).toBe(before + 1);
    await client.request('echo', { first: true });
    const big = 'x'.repeat(2 * UNVERIFIED_FRAME_BYTES);
    await expect(client.request('echo', { big })).resolves.toEqual({ big });
  });

  it('refuses a flood of forged requests with a bounded number of log lines and no handler run', async () => {
    await start();
    const before = await refusals('bad_signature');
    const { socket } = await raw();
    let replies = 0;
    socket.on('data', () => replies++);
    socket.write(Buffer.concat(Array.from({ length: 2_000 }, (_, i) => forged(i))));
    await waitFor(
      'every forged request to be refused',
      async () => (await refusals('bad_signature')) - before === 2_000,
    );
    expect(runs).toBe(0);
    expect(logLines.filter((l) => l.includes('RPC request refused')).length).toBeLessThanOrEqual(2);
    expect(replies).toBeGreaterThan(0);
  });

  it('stops reading a peer that sends requests but never reads the refusals', async () => {
    await start({ frameTimeoutMs: 120_000 }); // long enough to fill every buffer on the way
    const { socket } = await raw();
    socket.pause();
    const batch = Buffer.concat(Array.from({ length: 5_000 }, (_, i) => forged(i)));
    const pump = setInterval(() => socket.writableLength < 4 * batch.length && socket.write(batch), 10);
    try {
      await waitFor('the server to stop reading that connection', () => serverSockets()[0]?.isPaused() === true, {
        timeoutMs: 60_000,
      });
    } finally {
      clearInterval(pump);
    }
    expect(serverSockets()[0].writableLength).toBeLessThan(4 * 1024 * 1024);
    // Reading the replies lets the server read again.
    socket.resume();
    await waitFor('the server to read again', () => serverSockets()[0]?.isPaused() === false, { timeoutMs: 60_000 });
  }, 150_000);

  it('drops a connection whose header is deeply nested or lies about its length, and keeps serving', async () => {
    await start();
    const deep = Buffer.from('['.repeat(15_000));
    const nested = Buffer.alloc(8 + deep.length);
    nested.writeUInt32BE(4 + deep.length, 0);
    nested.writeUInt32BE(deep.length, 4);
    deep.copy(nested, 8);
    const liar = Buffer.alloc(12);
    liar.writeUInt32BE(8, 0);
    liar.writeUInt32BE(0xffffffff, 4);
    for (const bytes of [nested, liar]) {
      const { socket, closed } = await raw();
      socket.write(bytes);
      await closed;
    }
    // A timestamp of 1e400 parses as Infinity: refused as malformed, never compared as a date.
    const header = Buffer.from(
      '{"id":1,"pattern":"echo",' +
        '"auth":{"v":1,"scope":"merchant","ts":1e400,"nonce":"nonce-0123456789abcdef","sig":"AAAA"}}',
    );
    const huge = Buffer.alloc(8 + header.length);
    huge.writeUInt32BE(4 + header.length, 0);
    huge.writeUInt32BE(header.length, 4);
    header.copy(huge, 8);
    const { socket } = await raw();
    const reply = new Promise<Buffer>((resolve) => socket.once('data', resolve));
    socket.write(huge);
    expect((await reply).toString()).toContain('request refused: malformed');
    await expect(client.request('echo', { ok: 1 })).resolves.toEqual({ ok: 1 });
  });
});

describe('framed RPC client against a misbehaving server', () => {
  let fake: Server;
  let port: number;
  const peers: Socket[] = [];

  afterEach(async () => {
    for (const p of peers.splice(0)) p.destroy();
    await new Promise((r) => fake.close(r));
  });

  const fakeServer = async (onRequest: (socket: Socket, id: number) => void) => {
    port = await freePort();
    fake = createServer((socket) => {
      peers.push(socket);
      socket.on('data', (chunk) => {
        // Each test sends one small request per chunk: its id is in the header.
        const header = JSON.parse(chunk.toString('utf8', 8, 8 + chunk.readUInt32BE(4))) as { id: number };
        onRequest(socket, header.id);
      });
    });
    await new Promise<void>((r) => fake.listen(port, '127.0.0.1', r));
    return new FramedRpcClient({
      host: '127.0.0.1',
      port,
      signer: new RpcSigner(SECRET, 'merchant'),
      timeoutMs: 500,
      maxFrameBytes: 64 * 1024,
    });
  };

  it('ignores replies for ids it is not waiting for and still matches the right one', async () => {
    const c = await fakeServer((socket, id) => {
      socket.write(encodeFrame({ id: id + 1000 }, '"not yours"'));
      socket.write(encodeFrame({ id: 'x' }, '"not yours"'));
      socket.write(encodeFrame({ id }, '"yours"'));
    });
    try {
      await expect(c.request('echo', {})).resolves.toBe('yours');
    } finally {
      c.close();
    }
  });

  it('times out an unanswered call, not re-sent; a connection cut after sending is reported lost', async () => {
    let received = 0;
    const c = await fakeServer(() => received++);
    try {
      await expect(c.request('echo', {})).rejects.toBeInstanceOf(RpcTimeoutError);
      expect((c as unknown as { pending: Map<number, unknown> }).pending.size).toBe(0);
      const lost = c.request('echo', {});
      await waitFor('the second call to arrive', () => received === 2);
      for (const p of peers) p.destroy();
      await expect(lost).rejects.toBeInstanceOf(RpcConnectionLostError);
      expect(received).toBe(2);
    } finally {
      c.close();
    }
  });

  it('refuses calls as not sent to a server that does not read them, instead of queueing without bound', async () => {
    port = await freePort();
    fake = createServer({ pauseOnConnect: true }, (socket) => peers.push(socket));
    await new Promise<void>((r) => fake.listen(port, '127.0.0.1', r));
    const c = new FramedRpcClient({
      host: '127.0.0.1',
      port,
      signer: new RpcSigner(SECRET, 'merchant'),
      timeoutMs: 60_000,
      maxFrameBytes: 64 * 1024,
    });
    const pad = 'x'.repeat(32 * 1024);
    const calls: Promise<unknown>[] = [];
    try {
      const refused = await waitFor(
        'a call to be refused as not sent',
        async () => {
          const call = c.request('echo', { pad });
          calls.push(call.catch(() => undefined));
          return Promise.race([call.catch((e: unknown) => e), new Promise((r) => setImmediate(() => r(undefined)))]);
        },
        { intervalMs: 1, timeoutMs: 30_000 },
      );
      expect(refused).toBeInstanceOf(RpcNotSentError);
      expect(calls.length).toBeLessThan(2_000);
    } finally {
      c.close();
      await Promise.all(calls);
    }
  });
});
