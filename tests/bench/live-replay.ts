import { join } from 'node:path';
import { ConsumerGroups, Topics } from '@payments/contracts';
import { runOps } from '../support/ops';
import type { Stack } from '../support/stack';
import type { Report } from './report';

/**
 * (e) `ops replay --live` of the whole transaction topic (part c's history and everything before
 * it) to the ledger while it runs: the copy rate as the progress line reports it (from the first
 * batch), the time until the group applied every copy, and the copier's CPU time and peak memory.
 */
export async function benchLiveReplay(stack: Stack, report: Report): Promise<void> {
  const group = ConsumerGroups.SplitLedger;
  if (!stack.app('split-ledger-service').running) await stack.startApp('split-ledger-service');
  const started = Date.now();
  // BENCH_PROFILE_DIR profiles the copier too (ops-<pid>.cpuprofile), like the services.
  const profile: Record<string, string> = process.env.BENCH_PROFILE_DIR
    ? {
        NODE_OPTIONS: `--require ${join(__dirname, 'cpu-profile.js')}`,
        BENCH_PROFILE_DIR: process.env.BENCH_PROFILE_DIR,
      }
    : {};
  const res = await runOps(
    stack,
    ['replay', '--group', group, '--topic', Topics.TransactionStatusChanged, '--to-earliest', '--live', '--execute'],
    1_800_000,
    { OPS_REPORT_RSS: 'true', ...profile },
  );
  const seconds = (Date.now() - started) / 1000;
  const copied = /copying to \S+ (\d+)\/\d+ \(100 %\) (\d+) events\/s/.exec(res.out);
  const replayed = /(\d+) event\(s\) replayed to/.exec(res.out);
  const rss = Number(/ops: peak memory (\d+) MB/.exec(res.out)?.[1]);
  const cpuSeconds = Number(/ops: peak memory \d+ MB, CPU ([\d.]+) s/.exec(res.out)?.[1]);
  const note =
    res.code === 0 ? `${copied?.[1]} events` : `failed (exit ${res.code}): ${res.out.split('\n').slice(-3).join(' ')}`;
  report.add({
    section: 'replay',
    name: 'ops live replay copy rate',
    value: Number(copied?.[2]),
    unit: 'events/s',
    target: { op: '>=', value: 20_000 },
    note,
  });
  report.add({
    section: 'replay',
    name: 'ops live replay, copied and applied',
    value: replayed ? Number(replayed[1]) / seconds : NaN,
    unit: 'events/s',
    note: `${seconds.toFixed(1)} s for the whole command`,
  });
  // Every event of the topic has an outcome and an inbox row: the command heard one outcome per copy
  // (applied or already applied, none dead-lettered or missing), and the ledger's inbox holds a row for
  // each event. The inbox's key (group, event id) rules out a second row, so this counts losses.
  const planned = Number(/(\d+) event\(s\) will be delivered again/.exec(res.out)?.[1]);
  const outcome = /replayed to \S+: (\d+) applied, (\d+) already applied, (\d+) dead-lettered/.exec(res.out);
  const [applied, duplicate, deadLettered] = (outcome?.slice(1) ?? []).map(Number);
  const { rows } = await stack
    .db('split-ledger-service')
    .query(
      "SELECT count(*)::int AS n FROM processed_events WHERE topic LIKE '%transaction.status_changed' " +
        "AND consumer_group LIKE '%' || $1",
      [group],
    );
  const inbox = Number(rows[0].n);
  report.add({
    section: 'replay',
    name: 'ops live replay, events without an outcome or inbox row',
    value: outcome ? Math.abs(planned - inbox) + Math.abs(planned - applied - duplicate) : NaN,
    unit: 'events',
    target: { op: '<=', value: 0 },
    note:
      `${planned} in the topic, ${inbox} inbox rows; outcomes: ${applied} applied, ${duplicate} already applied, ` +
      `${deadLettered} dead-lettered`,
  });
  report.add({
    section: 'replay',
    name: 'ops live replay, copier CPU per event',
    value: replayed ? (cpuSeconds * 1e6) / Number(replayed[1]) : NaN,
    unit: 'µs',
    note: `${cpuSeconds} s for the whole command, start-up and the wait for outcomes included`,
  });
  report.add({
    section: 'replay',
    name: 'ops live replay peak memory (RSS)',
    value: rss,
    unit: 'MB',
    target: { op: '<=', value: 300 },
  });
}
