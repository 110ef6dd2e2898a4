/**
 * The dispatcher's HTTPS hop alone: its HttpSender POSTing a signed webhook-sized body to an HTTPS receiver in this
 * process (so the CPU figure covers both ends). Prints sends/s, CPU per send, latency and TLS connections opened, at 1
 * and 8 in flight to one URL and 8 over 10 paths of one host. No infrastructure needed:
 *   bash scripts/with-node.sh node scripts/ts-run.js tests/bench/http-sender.ts [sends]
 */
import 'reflect-metadata';
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { WebhookDispatcherConfig } from '../../apps/webhook-dispatcher/src/config/webhook.config';
import { HttpSender } from '../../apps/webhook-dispatcher/src/delivery/http-sender';
import { signingSecrets, webhookHeaders } from '../../apps/webhook-dispatcher/src/delivery/signature';
import { selfSignedCertificate } from '../support/webhook-receiver';

const SENDS = Number(process.argv[2] ?? 5_000);
const body = JSON.stringify({
  id: 'evt_0123456789abcdef0123456789ab',
  event: 'payment.created',
  created_at: '2026-01-01T00:00:00.000Z',
  mode: 'test',
  data: {
    transaction_id: 'txn_0123456789abcdef',
    reference: 'ref-0123456789',
    status: 'pending',
    amount: 2500,
    currency: 'USD',
    email: 'buyer@example.com',
    payment_method_type: 'card',
    metadata: null,
  },
});
const secrets = signingSecrets({
  secret: 'whsec_bench_0123456789abcdef',
  previous_secret: null,
  previous_secret_expires_at: null,
});

async function run(sender: HttpSender, urls: string[], inFlight: number, sends: number) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < sends) {
        const url = urls[next++ % urls.length];
        const started = performance.now();
        const r = await sender.send(url, webhookHeaders(secrets, 'evt_x', Math.floor(Date.now() / 1000), body), body);
        if (r.error) failed++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Math.round((sends / wall) * 1000),
    cpuUsPerSend: Math.round((cpu.user + cpu.system) / sends),
    p50Ms: Math.round(latencies[Math.floor(sends * 0.5)] * 1000) / 1000,
    p99Ms: Math.round(latencies[Math.floor(sends * 0.99)] * 1000) / 1000,
    failed,
  };
}

async function main(): Promise<void> {
  const tls = selfSignedCertificate();
  let connections = 0;
  const server = createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const sender = new HttpSender({
    WEBHOOK_CA_FILE: tls.certFile,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    WEBHOOK_TIMEOUT_MS: 10_000,
  } as WebhookDispatcherConfig);
  const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://127.0.0.1:${port}/cb-${i}`);
  try {
    await run(sender, urls(10), 8, 1_000); // warm-up: connections, JIT
    for (const [inFlight, count] of [
      [1, 1],
      [8, 1],
      [8, 10],
    ]) {
      const before = connections;
      const r = await run(sender, urls(count), inFlight, SENDS);
      console.log(
        JSON.stringify({
          in_flight: inFlight,
          urls: count,
          sends: SENDS,
          ...r,
          tls_connections_opened: connections - before,
        }),
      );
    }
  } finally {
    sender.onApplicationShutdown();
    server.closeAllConnections();
    server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
