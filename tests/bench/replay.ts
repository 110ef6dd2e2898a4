import { Topics } from '@payments/contracts';
import type { AppName } from '../support/processes';
import { produceHistory } from '../support/synthetic-events';
import type { Stack } from '../support/stack';
import type { Report } from './report';

const CONSUMERS: AppName[] = ['split-ledger-service', 'webhook-dispatcher'];

/**
 * (c) replay: with both consumers stopped, `count` events go onto the transaction topic; then each
 * consumer is started alone and its rate is measured from the inbox (processed_events) rows it adds.
 */
export async function benchReplay(stack: Stack, report: Report, count: number, maxSeconds: number): Promise<void> {
  for (const app of CONSUMERS) await stack.app(app).stop();
  await produceHistory(stack, Topics.TransactionStatusChanged, count);

  for (const app of CONSUMERS) {
    const db = stack.db(app);
    const [{ n: before }] = (await db.query('SELECT count(*)::int AS n FROM processed_events')).rows;
    await stack.startApp(app);
    const deadline = Date.now() + maxSeconds * 1000;
    let first: { at: number; n: number } | undefined;
    let last = { at: Date.now(), n: 0 };
    while (Date.now() < deadline) {
      const [{ n }] = (await db.query('SELECT count(*)::int - $1 AS n FROM processed_events', [before])).rows;
      last = { at: Date.now(), n };
      if (process.env.BENCH_REPLAY_TRACE) process.stderr.write(`trace ${app} ${last.at} ${n}\n`);
      if (!first && n > 0) first = last;
      if (n >= count) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rate = first && last.at > first.at ? (last.n - first.n) / ((last.at - first.at) / 1000) : NaN;
    report.add({
      section: 'replay',
      name: `${app} consumer`,
      value: rate,
      unit: 'events/s',
      target: { op: '>=', value: 10_000 },
      note: last.n >= count ? `${count} events` : `only ${last.n} of ${count} events within ${maxSeconds} s`,
    });
    await stack.app(app).stop();
  }
}
