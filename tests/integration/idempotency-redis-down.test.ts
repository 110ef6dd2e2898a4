import { spawn, type ChildProcess } from 'node:child_process';
import IORedis, { type Redis } from 'ioredis';
import { createRootLogger } from '@payments/platform';
import { connectRedis, quitRedis } from '@payments/redis';
import type { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { keyedRequest } from '../../apps/gateway/src/http/__tests__/idempotency-harness';
import { Idempotency } from '../../apps/gateway/src/http/idempotency';
import { freePort } from '../support/processes';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';

/**
 * Idempotency-Key requests while their Redis is down, stopped or back, on a private redis-server (the gateway's own
 * connection settings): a request is refused at once (503, it did not run) instead of waiting for Redis, an answer is
 * sent without waiting and kept once Redis answers, and a claim Redis applies late is released behind it.
 */
describe('Idempotency-Key with Redis down: 503 or a late write, never a hang', () => {
  let port: number;
  let server: ChildProcess | undefined;
  let redis: Redis;
  let idempotency: Idempotency;
  const config = {
    REDIS_KEY_PREFIX: '',
    IDEMPOTENCY_TTL_SECONDS: 600,
    RPC_TIMEOUT_MS: 10_000,
    REDIS_TIMEOUT_MS: 300,
  } as GatewayConfig;
  // A deadline longer than outcome()'s bound: only the not-ready path can refuse within it.
  const patient = { ...config, REDIS_TIMEOUT_MS: 10_000 } as GatewayConfig;
  const logger = createRootLogger('gateway', 'fatal');
  const request = (key: string) => keyedRequest({ email: 'a@example.com', amount: 5000 }, key);

  async function startServer(): Promise<void> {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitFor('redis-server to answer', async () => {
      const probe = new IORedis(port, '127.0.0.1', {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    });
  }

  function killServer(signal: NodeJS.Signals = 'SIGKILL'): void {
    server?.kill(signal);
    if (signal === 'SIGKILL') server = undefined;
  }

  /** What the key holds, read on a connection of its own. */
  async function stored(key: string): Promise<Record<string, unknown> | null> {
    const reader = new IORedis(port, '127.0.0.1');
    try {
      return JSON.parse((await reader.get(`idempotency:biz_1:test:${key}`)) ?? 'null') as Record<
        string,
        unknown
      > | null;
    } finally {
      reader.disconnect();
    }
  }

  /** Settles within a generous bound, or says it is still waiting (a hang). */
  function outcome(call: Promise<unknown>): Promise<string> {
    return Promise.race([
      call.then(
        () => 'done',
        (err: { status?: number; getStatus?: () => number }) => `refused ${err.getStatus?.() ?? err.status}`,
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref()),
    ]);
  }

  /** Runs `test` with a connection to the private server through a proxy that can lose traffic. */
  async function throughProxy(test: (proxy: TcpProxy, viaProxy: Redis) => Promise<void>): Promise<void> {
    const proxy = await startTcpProxy('127.0.0.1', port);
    const viaProxy = await connectRedis(`redis://127.0.0.1:${proxy.port}`, logger);
    try {
      await test(proxy, viaProxy);
    } finally {
      viaProxy.disconnect();
      await proxy.close();
    }
  }

  beforeAll(async () => {
    port = await freePort();
    await startServer();
    redis = await connectRedis(`redis://127.0.0.1:${port}`, logger);
    idempotency = new Idempotency(redis, config);
  });

  afterAll(() => {
    redis?.disconnect();
    if (server?.pid) process.kill(server.pid, 'SIGCONT');
    killServer();
  });

  it('a keyed request gets 503 at once while Redis is down; its answer is kept once Redis is back', async () => {
    const running = request('kept-later');
    await idempotency.claim(running);
    killServer();
    await waitFor('the connection to notice', () => redis.status !== 'ready');

    expect(await outcome(new Idempotency(redis, patient).claim(request('while-down'))!)).toBe('refused 503');
    // The request that was running when Redis went away: its answer goes out without waiting.
    expect(
      await outcome(idempotency.settle(running, running.idempotencyClaim!, 200, 'application/json', '{"status":true}')),
    ).toBe('done');

    await startServer(); // empty: the answer is kept because nobody holds the key
    await waitFor('the connection to come back', () => redis.status === 'ready');
    const kept = await waitFor('the answer to be kept', async () => (await stored('kept-later')) ?? undefined);
    expect(kept).toMatchObject({ state: 'done', status: 200, body: { status: true } });
    await expect(idempotency.claim(request('kept-later'))).rejects.toMatchObject({
      name: 'IdempotentReplay',
      status: 200,
    });
  });

  it('a claim Redis does not answer in time is refused with 503, and released when Redis applies it late', async () => {
    server!.kill('SIGSTOP'); // Redis accepts nothing and answers nothing, the connection stays up
    try {
      expect(await outcome(idempotency.claim(request('stalled'))!)).toBe('refused 503');
    } finally {
      server!.kill('SIGCONT');
    }
    // The late claim and its release run in order on the connection; a PING sent after them answers last.
    await redis.ping();
    expect(await stored('stalled')).toBeNull();
    // So the caller's retry runs instead of getting 409 idempotency_in_progress.
    const retry = request('stalled');
    await idempotency.claim(retry);
    expect(retry.idempotencyClaim).toBeDefined();
  });

  it('an answer Redis does not take in time is sent, kept if Redis answers while the key holds its claim', async () => {
    const running = request('stalled-settle');
    await idempotency.claim(running);
    server!.kill('SIGSTOP');
    try {
      expect(
        await outcome(idempotency.settle(running, running.idempotencyClaim!, 201, 'application/json', '{"late":true}')),
      ).toBe('done');
    } finally {
      server!.kill('SIGCONT');
    }
    await redis.ping();
    expect(await stored('stalled-settle')).toMatchObject({ state: 'done', status: 201, body: { late: true } });
  });

  it('a claim lost with its connection is resent after the reconnect and released right behind it', () =>
    throughProxy(async (proxy, viaProxy) => {
      const direct = new IORedis(port, '127.0.0.1');
      const monitor = await direct.monitor();
      const seen: string[] = [];
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args.includes('idempotency:biz_1:test:resent')) seen.push(args[0].toLowerCase());
      });
      try {
        proxy.dropRequests(true); // the claim never reaches Redis on this connection
        const claim = new Idempotency(viaProxy, config).claim(request('resent'))!;
        proxy.refuse(true);
        proxy.cut(); // ioredis keeps the unanswered claim to resend it; Redis is unreachable meanwhile
        // The deadline passes while it reconnects: 503, and the release is queued behind the claim.
        expect(await outcome(claim)).toBe('refused 503');
        proxy.dropRequests(false);
        proxy.refuse(false);
        await waitFor('the connection to come back', () => viaProxy.status === 'ready');
        await viaProxy.ping(); // the resent claim and its release have run before this answers
        // The claim, then the release script, whose GET finds the claim and deletes it (MONITOR's
        // lines come on a connection of their own, so they may arrive after the PING's answer).
        await waitFor('the monitor to see the release', () => seen.length >= 4);
        expect(seen).toEqual(['set', 'eval', 'get', 'del']);
        expect(await stored('resent')).toBeNull();
      } finally {
        monitor.disconnect();
        direct.disconnect();
      }
    }));

  it('a claim Redis applied with its answer lost is resent after the reconnect and holds: the request runs', () =>
    throughProxy(async (proxy, viaProxy) => {
      proxy.dropReplies(true); // the claim is applied, its answer never comes back
      const running = request('answer-lost');
      const claim = new Idempotency(viaProxy, patient).claim(running)!;
      await waitFor('Redis to apply the claim', async () => (await stored('answer-lost'))?.state === 'running');
      proxy.dropReplies(false);
      proxy.cut(); // ioredis resends the claim on the new connection; Redis answers that the key is taken
      expect(await outcome(claim)).toBe('done');
      expect(running.idempotencyClaim).toBeDefined();
      await new Idempotency(viaProxy, patient).settle(
        running,
        running.idempotencyClaim!,
        201,
        'application/json',
        '{"ran":true}',
      );
      expect(await stored('answer-lost')).toMatchObject({ state: 'done', status: 201, body: { ran: true } });
    }));

  it('a gateway stopping keeps the answers Redis takes before its deadline, and does not wait past it', async () => {
    const stopping = await connectRedis(`redis://127.0.0.1:${port}`, logger);
    const running = request('at-shutdown');
    await new Idempotency(stopping, config).claim(running);
    server!.kill('SIGSTOP');
    try {
      await new Idempotency(stopping, config).settle(
        running,
        running.idempotencyClaim!,
        200,
        'application/json',
        '{"kept":true}',
      );
      const quit = quitRedis(stopping, 5_000, logger); // QUIT goes behind the queued answer
      server!.kill('SIGCONT');
      expect(await outcome(quit)).toBe('done');
    } finally {
      server!.kill('SIGCONT');
    }
    expect(await stored('at-shutdown')).toMatchObject({ state: 'done', body: { kept: true } });

    const stuck = await connectRedis(`redis://127.0.0.1:${port}`, logger);
    server!.kill('SIGSTOP');
    try {
      void stuck.set('at-shutdown-lost', '1').catch(() => undefined);
      expect(await outcome(quitRedis(stuck, 300, logger))).toBe('done'); // gives up after 300 ms
    } finally {
      server!.kill('SIGCONT');
    }
    await waitFor('the connection to be closed', () => stuck.status === 'end');
  });

  /** An answer sent on `viaProxy` that never reaches Redis, and the connection then cut with Redis unreachable. */
  async function answerInFlightWhenCut(proxy: TcpProxy, viaProxy: Redis, key: string): Promise<void> {
    const running = request(key);
    await new Idempotency(viaProxy, config).claim(running);
    proxy.dropRequests(true); // the answer is sent but never reaches Redis on this connection
    await new Idempotency(viaProxy, config).settle(
      running,
      running.idempotencyClaim!,
      201,
      'application/json',
      '{"kept":true}',
    );
    proxy.refuse(true);
    proxy.cut(); // ioredis keeps the unanswered script to resend it once it is back
    await waitFor('the connection to notice', () => viaProxy.status !== 'ready');
  }

  it('a gateway stopping while its connection is down keeps the answers that were in flight when it dropped', () =>
    throughProxy(async (proxy, viaProxy) => {
      await answerInFlightWhenCut(proxy, viaProxy, 'in-flight-at-shutdown');
      const quit = quitRedis(viaProxy, 5_000, logger);
      proxy.dropRequests(false);
      proxy.refuse(false);
      expect(await outcome(quit)).toBe('done');
      expect(await stored('in-flight-at-shutdown')).toMatchObject({ state: 'done', status: 201, body: { kept: true } });
    }));

  it('a gateway stopping while its connection stays down gives up at its deadline and leaves no listener behind', () =>
    throughProxy(async (proxy, viaProxy) => {
      await answerInFlightWhenCut(proxy, viaProxy, 'in-flight-lost');
      const listeners = viaProxy.listenerCount('ready');
      expect(await outcome(quitRedis(viaProxy, 300, logger))).toBe('done');
      expect(viaProxy.listenerCount('ready')).toBe(listeners);
    }));

  it('a gateway stopping while Redis is unreachable, nothing in flight, closes at once, not after its deadline', () =>
    throughProxy(async (proxy, viaProxy) => {
      proxy.refuse(true);
      proxy.cut();
      await waitFor('the connection to notice', () => viaProxy.status !== 'ready');
      expect(await outcome(quitRedis(viaProxy, 60_000, logger))).toBe('done');
    }));
});
