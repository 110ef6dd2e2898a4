import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Stack } from '../support/stack';
import { stats } from './load';
import type { Report } from './report';

interface Times {
  created: number;
  relayed: number;
  consumed?: number;
  handed?: number;
  recorded?: number;
}

const ms = (d: Date | null) => (d ? d.getTime() : NaN);

/**
 * Where each payment's event → webhook time goes, hop by hop, from the rows the pipeline leaves: the outbox row
 * (`created_at`, `published_at`), the delivery (`created_at`; `enqueued_at`: handed to the queue or the in-process
 * first attempt) and the first attempt's row, beside the scheduled send and the arrival. Database timestamps are
 * `now()`, i.e. the start of the transaction that wrote them.
 */
export async function reportHops(
  stack: Stack,
  report: Report,
  section: string,
  sent: Map<string, number>,
  seen: Map<string, number>,
): Promise<void> {
  const ids = [...seen.keys()];
  const times = new Map<string, Times>();
  const bySource = new Map<string, string>();
  const outbox = await stack
    .db('transaction-service')
    .query<{ tx: string; event_id: string; created_at: Date; published_at: Date | null }>(
      `SELECT payload->'data'->'transaction'->>'transaction_id' AS tx, event_id, created_at, published_at
         FROM outbox_events
        WHERE payload->'data'->'transaction'->>'transaction_id' = ANY($1::text[])
          AND payload->'data'->>'previous_status' IS NULL`,
      [ids],
    );
  for (const r of outbox.rows) {
    times.set(r.tx, { created: ms(r.created_at), relayed: ms(r.published_at) });
    bySource.set(r.event_id, r.tx);
  }
  const deliveries = await stack
    .db('webhook-dispatcher')
    .query<{ source: string; created_at: Date; enqueued_at: Date | null; recorded: Date | null }>(
      `SELECT e.source_event_id AS source, d.created_at, d.enqueued_at, a.created_at AS recorded
       FROM webhook_events e JOIN deliveries d ON d.event_id = e.id
       LEFT JOIN delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
      WHERE e.source_event_id = ANY($1::text[])`,
      [[...bySource.keys()]],
    );
  for (const r of deliveries.rows) {
    const t = times.get(bySource.get(r.source)!);
    if (t) Object.assign(t, { consumed: ms(r.created_at), handed: ms(r.enqueued_at), recorded: ms(r.recorded) });
  }
  if (process.env.BENCH_HOPS_DIR) {
    // Each payment's timestamps (epoch ms), for tail-summary.js to set the slowest beside the services' stalls.
    const rows = [...times].map(([id, t]) => ({ id, sent: sent.get(id), arrived: seen.get(id), ...t }));
    const file = join(process.env.BENCH_HOPS_DIR, `${section.replace(/[^a-z0-9]+/gi, '-')}.hops.json`);
    writeFileSync(file, JSON.stringify(rows));
  }
  const hop = (name: string, from: (id: string, t: Times) => number, to: (id: string, t: Times) => number) => {
    const values = [...times].map(([id, t]) => to(id, t) - from(id, t)).filter(Number.isFinite);
    const s = stats(values);
    report.add({ section, name: `${name} p50 / p99`, value: s.p50, unit: 'ms', note: `p99 ${s.p99.toFixed(0)} ms` });
  };
  hop(
    'hop: scheduled send → initialize committed',
    (id) => sent.get(id)!,
    (_, t) => t.created,
  );
  hop(
    'hop: commit → relay picks the event up',
    (_, t) => t.created,
    (_, t) => t.relayed,
  );
  hop(
    'hop: relay → dispatcher consumer transaction',
    (_, t) => t.relayed,
    (_, t) => t.consumed ?? NaN,
  );
  hop(
    'hop: consumer → handed to a worker',
    (_, t) => t.consumed ?? NaN,
    (_, t) => t.handed ?? NaN,
  );
  hop(
    'hop: handed over → webhook arrives',
    (_, t) => t.handed ?? NaN,
    (id) => seen.get(id)!,
  );
  hop(
    'hop: arrival → attempt recorded',
    (id) => seen.get(id)!,
    (_, t) => t.recorded ?? NaN,
  );
}
