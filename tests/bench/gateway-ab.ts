/**
 * Two gateway builds side by side on one stack (this worktree's, and another build's dist/ with the same settings),
 * loaded at the same moment with the same initialize requests; CPU per initialize from /proc. Both see the same
 * contention, so the comparison holds where runs one after the other swing by 2× on a busy machine.
 *   GATEWAY_AB_DIST=/path/to/other/dist bash scripts/with-node.sh node scripts/ts-run.js tests/bench/gateway-ab.ts
 * Options: BENCH_SECONDS (per step, default 10), GATEWAY_AB_ROUNDS (default 2).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AppProcess, freePort } from '../support/processes';
import { Stack } from '../support/stack';
import { cpuMs } from './memory';
import { HttpClient, closedLoop, stats, runMain } from './load';

const OTHER_DIST = process.env.GATEWAY_AB_DIST;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.GATEWAY_AB_ROUNDS ?? 2);
const ENV = {
  LOG_LEVEL: 'error',
  RATE_LIMIT_PER_SECOND: '100000',
  DATABASE_POOL_SIZE: '10',
  NODE_OPTIONS: '--max-semi-space-size=2',
};

const body = (tag: string, i: number) =>
  JSON.stringify({
    amount: 1000 + (i % 5000),
    email: 'bench@example.com',
    currency: 'USD',
    payment_method_type: 'card',
    transaction_reference: `${tag}-${i}`,
  });

interface Side {
  name: string;
  url: string;
  pid: number | undefined;
}

/** Both gateways under `perSide` connections each, at once; CPU per initialize and latency of each. */
async function step(sides: Side[], key: string, perSide: number, tag: string): Promise<string[]> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const clients = sides.map(() => new HttpClient(perSide));
  const drive = (ms: number, t: string) =>
    Promise.all(
      sides.map((s, k) =>
        closedLoop(
          perSide,
          ms,
          async (i) =>
            (await clients[k].send(`${s.url}/v1/transactions`, 'POST', headers, body(`${t}-${k}`, i))).status === 200,
        ),
      ),
    );
  try {
    await drive(1_000, `${tag}-warm`);
    const before = sides.map((s) => cpuMs(s.pid));
    const runs = await drive(SECONDS * 1000, tag);
    return sides.map((s, k) => {
      const done = runs[k].latencies.length + runs[k].errors;
      const st = stats(runs[k].latencies);
      const cpu = ((cpuMs(s.pid) - before[k]) / done).toFixed(3);
      const rate = (runs[k].latencies.length / runs[k].seconds).toFixed(0);
      const errors = runs[k].errors ? `, ${runs[k].errors} errors` : '';
      const latency = `p50 ${st.p50.toFixed(2)} ms, p99 ${st.p99.toFixed(1)} ms`;
      return `${s.name}: ${cpu} ms CPU per initialize, ${rate} req/s, ${latency}${errors}`;
    });
  } finally {
    for (const c of clients) c.close();
  }
}

async function main(): Promise<void> {
  if (!OTHER_DIST) throw new Error('set GATEWAY_AB_DIST to the dist/ directory of the gateway build to compare with');
  const stack = await Stack.start(['transaction-service', 'gateway'], ENV, { migrationJobs: true });
  const port = await freePort();
  const env = { ...stack.envFor('gateway', { GATEWAY_PORT: String(port), METRICS_PORT: String(await freePort()) }) };
  const child = spawn(process.execPath, [join(OTHER_DIST, 'apps', 'gateway', 'src', 'main.js')], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const other = new AppProcess('gateway', child, port);
  try {
    await other.waitReady();
    const keys = await stack.createBusiness('Gateway A/B');
    const sides: Side[] = [
      { name: 'this build ', url: stack.gatewayUrl, pid: stack.app('gateway').child.pid },
      { name: 'other build', url: other.url(''), pid: child.pid },
    ];
    console.log(
      `load average at start: ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    for (let r = 1; r <= ROUNDS; r++) {
      for (const perSide of [1, 16]) {
        // Alternate which gateway's loop starts first.
        const order = r % 2 ? sides : [...sides].reverse();
        const lines = await step(order, keys.test.secret, perSide, `ab${r}x${perSide}`);
        console.log(`round ${r}, ${perSide} connection(s) per gateway:\n  ${lines.sort().reverse().join('\n  ')}`);
      }
    }
  } finally {
    await other.stop();
    await stack.stop();
  }
}

runMain(main);
