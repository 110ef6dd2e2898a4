/**
 * `npm run bench`: the hot paths side by side with their targets, against a private copy of the whole system on the
 * real PostgreSQL, Redis and Kafka: (a) initialize vs a minimal Node + pg insert server, (b) event → webhook,
 * (c) replay rate per consumer, (d) RSS per service, (e) `ops replay --live` to the ledger. Writes .local/bench.json
 * and the generated part of docs/benchmarks.md, which describes each part and the BENCH_* options.
 */
import { join } from 'node:path';
import { Stack } from '../support/stack';
import { WebhookReceiver, selfSignedCertificate } from '../support/webhook-receiver';
import { benchInitialize } from './initialize';
import { MachineCost } from './machine-cost';
import { MemorySampler } from './memory';
import { benchBurst, benchEventToWebhook, drained, merchants } from './pipeline';
import { benchReplay } from './replay';
import { benchLiveReplay } from './live-replay';
import { Report } from './report';
import { runMain } from './load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 100_000);
const REPLAY_SECONDS = Number(process.env.BENCH_REPLAY_SECONDS ?? 120);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'a,b,c,d,e').split(','));
// Service settings as deployed (config defaults), not the fast-polling ones the tests use.
const POOL_SIZE = process.env.BENCH_POOL_SIZE ?? '10';
const DEPLOYED_NODE_OPTIONS = '--max-semi-space-size=2';
/** The services' defaults where the test stack sets its own (tests want faster timeouts and polls). */
const AS_DEPLOYED = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  DATABASE_POOL_SIZE: '10',
  KAFKA_PARTITIONS: '6',
  OUTBOX_POLL_INTERVAL_MS: '200',
  KAFKA_SESSION_TIMEOUT_MS: '10000',
  SHUTDOWN_TIMEOUT_MS: '10000',
  RPC_TIMEOUT_MS: '10000',
};

/**
 * What the bench runs differently from the defaults, printed beside the figures: no rate limit (the load is one
 * merchant key), sandbox payments settling in 300 ms instead of 3 s (as the comparison with Svix was measured),
 * webhooks to the local HTTPS receiver; and the BENCH_ options that change a service setting.
 */
function benchOverrides(receiver: WebhookReceiver): Record<string, string> {
  return {
    RATE_LIMIT_PER_SECOND: '100000',
    SANDBOX_SETTLE_MS: '300',
    ...receiver.dispatcherEnv(),
    ...(POOL_SIZE !== AS_DEPLOYED.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: POOL_SIZE } : {}),
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    ...serviceEnv(process.env.BENCH_SERVICE_ENV ?? ''),
  };
}

/** `BENCH_SERVICE_ENV="NAME=value,NAME=value"`: any other service setting to try, printed beside the figures too. */
function serviceEnv(list: string): Record<string, string> {
  const pairs = list
    .split(',')
    .filter(Boolean)
    .map((item) =>
      item.includes('=') ? [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)] : [item],
    );
  const bad = pairs.find((p) => p.length !== 2 || !/^[A-Z][A-Z0-9_]*$/.test(p[0]));
  if (bad) throw new Error(`BENCH_SERVICE_ENV: "${bad.join('=')}" is not NAME=value`);
  return Object.fromEntries(pairs);
}
// Each set directory preloads its recorder into every service (cpu-profile.js, loop-stats.js, alloc-profile.js).
const RECORDERS = [
  ['BENCH_PROFILE_DIR', 'cpu-profile.js'],
  ['BENCH_LOOP_DIR', 'loop-stats.js'],
  ['BENCH_ALLOC_DIR', 'alloc-profile.js'],
  ['BENCH_KAFKA_DIR', 'kafka-requests.js'],
].filter(([env]) => process.env[env]);
const RECORDER_ENV: Record<string, string> = Object.fromEntries(RECORDERS.map(([env]) => [env, process.env[env]!]));
const RECORDER_OPTIONS = RECORDERS.map(([, file]) => `--require ${join(__dirname, file)}`).join(' ');

async function main(): Promise<void> {
  const tls = selfSignedCertificate();
  const receiver = new WebhookReceiver(tls);
  await receiver.start();
  const report = new Report();
  const overrides = benchOverrides(receiver);
  const stack = await Stack.start(
    undefined,
    {
      ...AS_DEPLOYED,
      ...overrides,
      // As the image runs them (Dockerfile), unless BENCH_SERVICE_ENV sets NODE_OPTIONS (printed as an override).
      NODE_OPTIONS: [overrides.NODE_OPTIONS ?? DEPLOYED_NODE_OPTIONS, RECORDER_OPTIONS].join(' ').trim(),
      ...RECORDER_ENV,
      // As deployed: migration Jobs first, then serving processes that do not migrate (nor load TypeORM).
    },
    { migrationJobs: true },
  );
  report.overrides = Object.entries(overrides).map(
    ([k, v]) => `${k}=${k === 'WEBHOOK_CA_FILE' ? "(the receiver's CA)" : v}`,
  );
  console.log(`settings other than the services' defaults: ${report.overrides.join(', ')}`);
  const memory = new MemorySampler(stack);
  let cost: MachineCost | undefined;
  try {
    cost = await MachineCost.open(stack);
    const keys = await stack.createBusiness('Bench');
    const shops = await merchants(stack, receiver, 10, 'cb');
    const burstShop = (await merchants(stack, receiver, 1, 'burst'))[0];
    if (ONLY.has('d')) {
      await memory.settle();
      memory.idle(report);
    }
    memory.start();
    if (ONLY.has('a'))
      await benchInitialize(stack, keys.test.secret, report, {
        seconds: SECONDS,
        poolSize: POOL_SIZE,
        pgStatementsDir: process.env.BENCH_PG_STATEMENTS,
      });
    if (ONLY.has('b')) {
      await drained(stack);
      await cost.idle(report, SECONDS);
      // The first load after a start runs while V8 (services) and the JVM (Kafka) still compile their hot paths: it
      // is reported as its own, cold, round; the figures with targets are the steady state after it.
      for (const [rate, cold] of [
        [100, true],
        [100, false],
        [300, false],
      ] as const) {
        await drained(stack);
        await benchEventToWebhook(stack, receiver, shops, report, rate, SECONDS, cost, cold);
      }
      await drained(stack);
      await benchBurst(stack, receiver, burstShop, report, 1000);
    }
    if (ONLY.has('d')) memory.stop(report);
    if (ONLY.has('c')) await benchReplay(stack, report, REPLAY_EVENTS, REPLAY_SECONDS);
    if (ONLY.has('e')) await benchLiveReplay(stack, report);
    report.save({
      overrides: report.overrides,
      seconds_per_step: SECONDS,
      replay_events: REPLAY_EVENTS,
      database_pool_size: Number(POOL_SIZE),
      only: [...ONLY],
    });
  } finally {
    await cost?.close();
    await stack.stop();
    await receiver.stop();
  }
}

runMain(main);
