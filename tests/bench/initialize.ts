import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../support/infra';
import { freePort } from '../support/processes';
import { ALL_APPS, type Stack } from '../support/stack';
import { cpuMs } from './memory';
import { closedLoop, HttpClient, stats, type Run } from './load';
import { PgStatements } from './pg-statements';
import type { Report } from './report';

const body = (tag: string, i: number) =>
  JSON.stringify({
    amount: 1000 + (i % 5000),
    email: 'bench@example.com',
    currency: 'USD',
    payment_method_type: 'card',
    transaction_reference: `${tag}-${i}`,
  });

/** Starts the minimal insert server against the stack's transaction database. */
async function startInsertServer(stack: Stack, poolSize: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = new URL(stack.infra.DATABASE_URL);
  url.pathname = `/${stack.dbName('transaction-service')}`;
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'ts-run.js'), join(__dirname, 'insert-server.ts')], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: url.toString(), PORT: String(port), POOL_SIZE: poolSize },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`insert server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, child };
}

/**
 * One closed-loop step after a one-second warm-up (connections, JIT, plans); `measuring` marks the start of the
 * measured part.
 */
async function drive(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  tag: string,
  measuring: () => unknown = () => {},
): Promise<Run> {
  const client = new HttpClient(connections);
  try {
    await closedLoop(
      connections,
      1_000,
      async (i) => (await client.send(url, 'POST', headers, body(`${tag}-warm`, i))).status === 200,
    );
    await measuring();
    return await closedLoop(
      connections,
      seconds * 1000,
      async (i) => (await client.send(url, 'POST', headers, body(tag, i))).status === 200,
    );
  } finally {
    client.close();
  }
}

/** (a) initialize through the stack and through the insert server, at 1 and 32 connections. */
export async function benchInitialize(
  stack: Stack,
  key: string,
  report: Report,
  opts: { seconds: number; poolSize: string; pgStatementsDir?: string },
): Promise<void> {
  const limit = await startInsertServer(stack, opts.poolSize);
  const statements = await PgStatements.open(stack.infra.DATABASE_URL, opts.pgStatementsDir);
  const api = `${stack.gatewayUrl}/v1/transactions`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  try {
    for (const connections of [1, 32]) {
      // Alternate the two, so both see the same background load from the rest of the machine.
      let cpuBefore: number[] = [];
      const own = await drive(api, headers, connections, opts.seconds, `init${connections}`, async () => {
        await statements?.reset();
        cpuBefore = ALL_APPS.map((app) => cpuMs(stack.app(app).child.pid));
      });
      const cpuAfter = ALL_APPS.map((app) => cpuMs(stack.app(app).child.pid));
      await statements?.save(`stack-x${connections}`, own.latencies.length + own.errors);
      const min = await drive(
        limit.url,
        { 'content-type': 'application/json' },
        connections,
        opts.seconds,
        `limit${connections}`,
        () => statements?.reset(),
      );
      await statements?.save(`insert-server-x${connections}`, min.latencies.length + min.errors);
      const a = stats(own.latencies);
      const b = stats(min.latencies);
      const rate = (r: Run) => r.latencies.length / r.seconds;
      const section = `initialize ×${connections}`;
      const p50Target = connections === 1 ? { op: '<=' as const, value: 5 } : undefined;
      const p99Target = connections === 32 ? { op: '<=' as const, value: 100 } : undefined;
      report.add({ section, name: 'stack p50', value: a.p50, unit: 'ms', target: p50Target });
      report.add({ section, name: 'stack p99', value: a.p99, unit: 'ms', target: p99Target });
      report.add({
        section,
        name: 'stack throughput',
        value: rate(own),
        unit: 'req/s',
        note: own.errors ? `${own.errors} errors` : undefined,
      });
      report.add({ section, name: 'insert server p50', value: b.p50, unit: 'ms' });
      report.add({ section, name: 'insert server p99', value: b.p99, unit: 'ms' });
      report.add({
        section,
        name: 'insert server throughput',
        value: rate(min),
        unit: 'req/s',
        note: min.errors ? `${min.errors} errors` : undefined,
      });
      // Where the CPU goes: each service's CPU time per initialize, including the
      // work each payment causes downstream (relay, consumers) while the step runs.
      const count = own.latencies.length + own.errors;
      ALL_APPS.forEach((app, i) =>
        report.add({
          section,
          name: `${app} CPU per initialize`,
          value: (cpuAfter[i] - cpuBefore[i]) / count,
          unit: 'ms',
        }),
      );
      report.add({
        section,
        name: 'ratio stack ÷ insert server (throughput)',
        value: rate(own) / rate(min),
        unit: '×',
        target: connections === 32 ? { op: '>=', value: 0.5 } : undefined,
      });
    }
  } finally {
    limit.child.kill('SIGTERM');
    await statements?.close();
  }
}
