/**
 * The gateway → service RPC hop alone: a FramedRpcServer and a FramedRpcClient in this process (so the CPU figure
 * covers both ends), an initialize-sized request and reply, signing and verification included. Prints calls/s, CPU per
 * call and latency at 1 and 32 calls in flight. No infrastructure needed:
 *   bash scripts/with-node.sh node scripts/ts-run.js tests/bench/rpc-hop.ts [calls]
 */
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { FramedRpcClient, FramedRpcServer, RpcSigner, RpcVerifier } from '@payments/platform';
import { freePort } from '../support/processes';
import { stats } from './load';

const SECRET = 'rpc-hop-bench-secret-0123456789-abcdefgh';
const CALLS = Number(process.argv[2] ?? 10_000);
const request = {
  ctx: { request_id: 'req_0123456789abcdef', business_id: 42, mode: 'test', key_type: 'secret' },
  body: {
    amount: 2500,
    email: 'buyer@example.com',
    currency: 'USD',
    payment_method_type: 'mobile_money',
    payment_method_code: 'ecocash',
    mobile_money_number: '0771000000',
    transaction_reference: 'ref-0123456789',
    redirect_url: 'https://shop.example.com/return',
  },
};
const reply = {
  ok: true,
  data: {
    transaction_id: 'txn_0123456789abcdef',
    reference: 'ref-0123456789',
    status: 'processing',
    amount: 2500,
    currency: 'USD',
    checkout_url: 'https://pay.example.com/checkout/0123456789abcdef',
    created_at: '2026-01-01T00:00:00.000Z',
  },
};

async function run(
  client: FramedRpcClient,
  inFlight: number,
  calls: number,
): Promise<{ perSecond: number; cpuUsPerCall: number; p50Ms: number; p99Ms: number }> {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < calls) {
        const started = performance.now();
        await client.request('transactions.initialize', request);
        latencies.push(performance.now() - started);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const { p50, p99 } = stats(latencies);
  return {
    perSecond: Math.round((calls / wall) * 1000),
    cpuUsPerCall: Math.round(((cpu.user + cpu.system) / calls) * 10) / 10,
    p50Ms: Math.round(p50 * 1000) / 1000,
    p99Ms: Math.round(p99 * 1000) / 1000,
  };
}

async function main(): Promise<void> {
  const port = await freePort();
  const server = new FramedRpcServer(
    { host: '127.0.0.1', port, maxFrameBytes: 16 * 1024 * 1024, maxConnections: 256, frameTimeoutMs: 10_000 },
    new RpcVerifier({ secrets: [SECRET], maxAgeMs: 30_000 }),
    pino({ level: 'silent' }),
  );
  server.addHandler('transactions.initialize', async () => reply, false);
  await new Promise<void>((resolve, reject) =>
    server.listen((err?: unknown) => (err ? reject(err as Error) : resolve())),
  );
  const client = new FramedRpcClient({
    host: '127.0.0.1',
    port,
    signer: new RpcSigner(SECRET, 'merchant'),
    timeoutMs: 10_000,
    maxFrameBytes: 16 * 1024 * 1024,
  });
  try {
    await run(client, 8, 2_000); // warm-up: connection, JIT
    for (const inFlight of [1, 32])
      console.log(JSON.stringify({ in_flight: inFlight, calls: CALLS, ...(await run(client, inFlight, CALLS)) }));
  } finally {
    client.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
