import { createServer, type Server, type Socket } from 'node:net';
import type { WebhookDispatcherConfig } from '../config/webhook.config';
import { ForbiddenTargetError, HttpSender } from './http-sender';

const sender = (allowPrivate: boolean) =>
  new HttpSender({
    WEBHOOK_CA_FILE: '',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: allowPrivate,
    WEBHOOK_TIMEOUT_MS: 1000,
  } as WebhookDispatcherConfig);

describe('HttpSender target checks', () => {
  it('refuses names and literals that resolve to loopback or private addresses', async () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', '10.1.2.3', '169.254.169.254']) {
      await expect(sender(false).resolveTarget(host)).rejects.toBeInstanceOf(ForbiddenTargetError);
    }
  });

  it('allows them when WEBHOOK_ALLOW_PRIVATE_TARGETS is on (development and tests)', async () => {
    await expect(sender(true).resolveTarget('127.0.0.1')).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('does not connect to a refused target: the attempt fails with the reason', async () => {
    const result = await sender(false).send('https://127.0.0.1:9/hook', {}, '{}');
    expect(result.statusCode).toBeNull();
    expect(result.error).toContain('private or reserved');
  });
});

describe('HttpSender deadline', () => {
  // Accepts the connection and never answers (not even the TLS handshake).
  let server: Server;
  const sockets: Socket[] = [];
  let port = 0;
  beforeAll(async () => {
    server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('gives up after the timeout the caller passes, shorter than WEBHOOK_TIMEOUT_MS', async () => {
    const result = await sender(true).send(`https://127.0.0.1:${port}/hook`, {}, '{}', 150);
    expect(result).toMatchObject({ statusCode: null, error: 'no response within 150 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('never waits longer than WEBHOOK_TIMEOUT_MS, whatever the caller asks', async () => {
    const result = await sender(true).send(`https://127.0.0.1:${port}/hook`, {}, '{}', 60_000);
    expect(result.error).toBe('no response within 1000 ms');
  });
});
