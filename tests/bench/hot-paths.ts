/**
 * Benchmark of the hot paths on this machine, against a private copy of the whole system on the
 * real PostgreSQL, Redis and Kafka: initialize, verify, and event → webhook (time from the
 * initialize request to the signed `payment.created` webhook at an HTTPS receiver).
 * Prints figures; asserts nothing. Run with `npm run bench` (options: BENCH_REQUESTS, BENCH_CONCURRENCY).
 */
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[s.length - 1] };
}

async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<{ results: T[]; seconds: number }> {
  const results: T[] = new Array(count);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return { results, seconds: (performance.now() - started) / 1000 };
}

function report(name: string, latencies: number[], seconds: number, errors: number) {
  const s = stats(latencies);
  console.log(
    `${name.padEnd(22)} ${String(s.n).padStart(6)} req  ${(s.n / seconds).toFixed(0).padStart(6)} req/s  p50 ${s.p50.toFixed(1).padStart(7)} ms  p95 ${s.p95.toFixed(1).padStart(7)} ms  p99 ${s.p99.toFixed(1).padStart(7)} ms  max ${s.max.toFixed(1).padStart(7)} ms  errors ${errors}`,
  );
}

async function main(): Promise<void> {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  await receiver.start();
  const stack = await Stack.start(undefined, {
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_SECOND: '100000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_CA_FILE: tls.certFile,
    DATABASE_POOL_SIZE: '20',
  });
  try {
    const keys = await stack.createBusiness('Bench');
    await stack.api('POST', '/v1/callback', { key: keys.test.secret, body: { url: receiver.url('/bench'), events: ['payment.created'] } });
    const body = (i: number) => ({ amount: 1000 + i, email: 'bench@example.com', currency: 'USD', payment_method_type: 'card', transaction_reference: `bench-${i}` });

    // Warm-up: connections, JIT, prepared plans.
    await pool(50, 8, (i) => stack.api('POST', '/v1/transactions', { key: keys.test.secret, body: { ...body(i), transaction_reference: `warm-${i}` } }));

    const sent = new Map<string, number>();
    const init = await pool(REQUESTS, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      const res = await stack.api('POST', '/v1/transactions', { key: keys.test.secret, body: body(i) });
      const ms = performance.now() - t0;
      if (res.status === 200) sent.set(res.body.transaction_id as string, t0);
      return { ms, ok: res.status === 200 };
    });
    report('initialize', init.results.map((r) => r.ms), init.seconds, init.results.filter((r) => !r.ok).length);

    const verify = await pool(REQUESTS * 2, CONCURRENCY, async (i) => {
      const t0 = performance.now();
      const res = await stack.api('GET', `/v1/transactions/verify?reference=bench-${i % REQUESTS}`, { key: keys.test.secret });
      return { ms: performance.now() - t0, ok: res.status === 200 };
    });
    report('verify', verify.results.map((r) => r.ms), verify.seconds, verify.results.filter((r) => !r.ok).length);

    await waitFor('every payment.created webhook', () => receiver.at('/bench').filter((h) => sent.has(JSON.parse(h.body).data.transaction_id)).length >= sent.size, {
      timeoutMs: 120_000,
      intervalMs: 200,
    });
    const hooks = receiver.at('/bench').map((h) => ({ id: JSON.parse(h.body).data.transaction_id as string, at: h.at }));
    const latencies = hooks.filter((h) => sent.has(h.id)).map((h) => h.at - (performance.timeOrigin + sent.get(h.id)!));
    report('event → webhook', latencies, init.seconds, sent.size - latencies.length);
    console.log(`(${REQUESTS} requests at concurrency ${CONCURRENCY}; event → webhook is initialize request start → signed webhook received, through outbox, Kafka, consumer and BullMQ)`);
  } finally {
    await stack.stop();
    await receiver.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
