/**
 * CPU and database transactions per consumed event at a low, steady rate (the consumers' fixed cost per fetch), for
 * split-ledger-service and webhook-dispatcher: open-loop initializes at BENCH_RATE/s (50) for BENCH_SECONDS (20),
 * measured from the first request until both consumers applied every event, beside the idle CPU measured first.
 * SVC_<NAME>=value sets <NAME> for every service (e.g. SVC_LEDGER_FETCH_MIN_BYTES=1).
 * `source .local/infra.env && node scripts/ts-run.js tests/bench/consumer-cpu.ts`
 */
import { join } from 'node:path';
import type { AppName } from '../support/processes';
import type { Stack as StackT } from '../support/stack';
import { Stack } from '../support/stack';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { HttpClient, openLoop, runMain } from './load';
import { cpuMs } from './memory';
import { drained, merchants } from './pipeline';

const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONSUMERS: AppName[] = ['split-ledger-service', 'webhook-dispatcher'];
const PROFILE: Record<string, string> = process.env.BENCH_PROFILE_DIR
  ? { NODE_OPTIONS: `--require ${join(__dirname, 'cpu-profile.js')}`, BENCH_PROFILE_DIR: process.env.BENCH_PROFILE_DIR }
  : {};

const count = async (stack: StackT, app: AppName, sql: string, params: unknown[] = []) =>
  Number((await stack.db(app).query(sql, params)).rows[0].n);
const inbox = (stack: StackT, app: AppName) => count(stack, app, 'SELECT count(*) AS n FROM processed_events');
const commits = (stack: StackT, app: AppName) =>
  count(stack, app, 'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1', [stack.dbName(app)]);

async function sample(stack: StackT) {
  return Promise.all(
    CONSUMERS.map(async (app) => ({
      cpu: cpuMs(stack.app(app).child.pid),
      events: await inbox(stack, app),
      commits: await commits(stack, app),
      at: Date.now(),
    })),
  );
}

async function main(): Promise<void> {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  await receiver.start();
  const stack = await Stack.start(
    undefined,
    {
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_SECOND: '100000',
      ...receiver.dispatcherEnv(),
      DATABASE_POOL_SIZE: '10',
      OUTBOX_POLL_INTERVAL_MS: '200',
      KAFKA_PARTITIONS: '6',
      NODE_OPTIONS: ['--max-semi-space-size=2', PROFILE.NODE_OPTIONS ?? ''].join(' ').trim(),
      ...(PROFILE.BENCH_PROFILE_DIR ? { BENCH_PROFILE_DIR: PROFILE.BENCH_PROFILE_DIR } : {}),
      ...Object.fromEntries(
        Object.entries(process.env)
          .filter(([k]) => k.startsWith('SVC_'))
          .map(([k, v]) => [k.slice(4), v!]),
      ),
    },
    { migrationJobs: true },
  );
  try {
    const shops = await merchants(stack, receiver, 10, 'cpu');
    await new Promise((r) => setTimeout(r, 3_000));
    const idle0 = await sample(stack);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const idle1 = await sample(stack);
    const client = new HttpClient(64);
    const url = `${stack.gatewayUrl}/v1/transactions`;
    let ok = 0;
    const before = await sample(stack);
    await openLoop(RATE, SECONDS * 1000, async (i) => {
      const shop = shops[i % shops.length];
      const body = JSON.stringify({
        amount: 2500,
        email: 'bench@example.com',
        currency: 'USD',
        payment_method_type: 'card',
        transaction_reference: `cpu-${i}`,
      });
      const res = await client.send(
        url,
        'POST',
        { 'content-type': 'application/json', authorization: `Bearer ${shop.key}` },
        body,
      );
      if (res.status === 200) ok++;
    });
    client.close();
    // Anything the sandbox settles SANDBOX_SETTLE_MS (3 s) later counts too.
    await new Promise((r) => setTimeout(r, 4_000));
    await drained(stack);
    await new Promise((r) => setTimeout(r, 1_500));
    const after = await sample(stack);
    CONSUMERS.forEach((app, i) => {
      const events = after[i].events - before[i].events;
      const idlePerMs = (idle1[i].cpu - idle0[i].cpu) / (idle1[i].at - idle0[i].at);
      const cpu = after[i].cpu - before[i].cpu;
      const busy = cpu - idlePerMs * (after[i].at - before[i].at);
      const xacts = after[i].commits - before[i].commits;
      console.log(
        `${app}: ${events} events (${ok} payments) CPU ${cpu.toFixed(0)} ms = ${(cpu / events).toFixed(3)} ms/event, ` +
          `${(busy / events).toFixed(3)} ms/event above idle (idle ${(idlePerMs * 1000).toFixed(1)} ms/s); ` +
          `commits ${xacts} = ${(xacts / events).toFixed(2)}/event`,
      );
    });
  } finally {
    await stack.stop();
    await receiver.stop();
  }
}

runMain(main);
