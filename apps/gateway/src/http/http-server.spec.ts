import type { AddressInfo } from 'node:net';
import { loadConfig } from '@payments/config';
import { GatewayConfig } from '../config/gateway.config';
import { KEEP_ALIVE_TIMEOUT_MS, createHttpAdapter } from './http-server';

/** The client address the gateway sees (req.ip) for a request from `remoteAddress` with an X-Forwarded-For header. */
async function clientIp(trustedProxies: string, remoteAddress: string, forwardedFor: string): Promise<string> {
  const config = loadConfig(GatewayConfig, {
    ADMIN_API_TOKEN: 'a-very-long-admin-token-0123456789',
    TRUSTED_PROXIES: trustedProxies,
  });
  const fastify = createHttpAdapter(config.trustedProxies()).getInstance();
  fastify.get('/ip', (req, reply) => void reply.send({ ip: req.ip }));
  try {
    const res = await fastify.inject({
      method: 'GET',
      url: '/ip',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return (JSON.parse(res.body) as { ip: string }).ip;
  } finally {
    await fastify.close();
  }
}

describe('TRUSTED_PROXIES', () => {
  it('by default believes X-Forwarded-For from private networks only', async () => {
    const defaults = 'loopback, linklocal, uniquelocal';
    expect(await clientIp(defaults, '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    expect(await clientIp(defaults, '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // A public peer is the client, whatever it claims.
    expect(await clientIp(defaults, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
  });

  it('narrowed to the ingress, a pod elsewhere in the cluster cannot claim another address', async () => {
    expect(await clientIp('10.0.5.0/24', '10.0.5.17', '203.0.113.9')).toBe('203.0.113.9');
    expect(await clientIp('10.0.5.0/24', '10.0.9.4', '203.0.113.9')).toBe('10.0.9.4');
  });

  it('none: no proxy is believed', async () => {
    expect(await clientIp('none', '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
  });
});

describe('keep-alive', () => {
  it('announces and keeps idle connections longer than a load balancer keeps its own (60 s)', async () => {
    const fastify = createHttpAdapter(false).getInstance();
    fastify.get('/ping', (_req, reply) => void reply.send({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = fastify.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/ping`);
      await res.text();
      expect(res.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
      expect(fastify.server.keepAliveTimeout).toBeGreaterThan(60_000);
    } finally {
      await fastify.close();
    }
  });
});

describe('shutdown', () => {
  it('closes the connection of a request in flight soon after its answer, so close() does not wait 72 s', async () => {
    const fastify = createHttpAdapter(false).getInstance();
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    fastify.get('/slow', async () => {
      arrived();
      await new Promise<void>((resolve) => (release = resolve));
      return { ok: true };
    });
    // Hooks run in the order added: when this one runs, the gateway's own preClose hook has run.
    let closing!: () => void;
    const closingBegan = new Promise<void>((resolve) => (closing = resolve));
    fastify.addHook('preClose', (done) => {
      closing();
      done();
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    const res = fetch(`http://127.0.0.1:${port}/slow`);
    await inFlight;
    const closed = fastify.close();
    await closingBegan;
    release();
    expect(await (await res).json()).toEqual({ ok: true });
    // Would wait for the keep-alive timeout (far beyond this test's 5 s) if the connection stayed open.
    await closed;
  });
});
