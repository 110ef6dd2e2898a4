import { readFileSync, writeFileSync } from 'node:fs';
import { BadValueError } from '../cli/errors';
import { groupLag } from './groups';
import type { KafkaSession } from './session';

/** Where to move the group, in the vocabulary of kafka-consumer-groups.sh --reset-offsets. */
export type ReplayTarget =
  | { kind: 'earliest' }
  | { kind: 'offset'; offset: number }
  | { kind: 'shift'; by: number }
  | { kind: 'datetime'; at: Date }
  | { kind: 'restore'; offsets: ExportedOffset[] };

export interface PlanRow {
  topic: string;
  partition: number;
  committed: number | null;
  /** Where the group reads next: the committed offset, or the earliest if it never committed. */
  current: number;
  target: number;
  /** Events delivered again (target before current). */
  again: number;
  /** Events never delivered (target after current). */
  skipped: number;
}

export interface ExportedOffset {
  topic: string;
  partition: number;
  offset: number;
}

interface ExportFile {
  group: string;
  exported_at: string;
  offsets: ExportedOffset[];
}

const clamp = (n: number, low: number, high: number) => Math.min(Math.max(n, low), high);

export async function buildPlan(
  s: KafkaSession,
  group: string,
  topics: string[],
  target: ReplayTarget,
  partition?: number,
): Promise<PlanRow[]> {
  const rows: PlanRow[] = [];
  for (const lag of await groupLag(s, group, topics)) {
    if (partition !== undefined && lag.partition !== partition) continue;
    const current = lag.committed ?? lag.low;
    let wanted: number;
    if (target.kind === 'earliest') wanted = lag.low;
    else if (target.kind === 'offset') wanted = target.offset;
    else if (target.kind === 'shift') wanted = current + target.by;
    else if (target.kind === 'datetime') {
      const found = (await s.admin.fetchTopicOffsetsByTimestamp(s.full(lag.topic), target.at.getTime())).find(
        (o) => o.partition === lag.partition,
      );
      // -1: no event at or after that time, so the target is the end.
      wanted = Number(found?.offset ?? -1) < 0 ? lag.end : Number(found!.offset);
    } else {
      const saved = target.offsets.find((o) => o.topic === lag.topic && o.partition === lag.partition);
      if (!saved) continue;
      wanted = saved.offset;
    }
    const t = clamp(wanted, lag.low, lag.end);
    rows.push({
      topic: lag.topic,
      partition: lag.partition,
      committed: lag.committed,
      current,
      target: t,
      again: Math.max(0, current - t),
      skipped: Math.max(0, t - current),
    });
  }
  if (partition !== undefined && rows.length === 0)
    throw new BadValueError(`partition ${partition} does not exist in ${topics.join(', ')}`);
  return rows;
}

export function planTotals(rows: PlanRow[]): { again: number; skipped: number } {
  return { again: rows.reduce((n, r) => n + r.again, 0), skipped: rows.reduce((n, r) => n + r.skipped, 0) };
}

export function printPlan(rows: PlanRow[]): void {
  console.log(
    `  ${'topic'.padEnd(32)}${'partition'.padStart(10)}${'current'.padStart(10)}` +
      `${'target'.padStart(10)}${'again'.padStart(8)}${'skipped'.padStart(9)}`,
  );
  for (const r of rows) {
    const current = r.committed === null ? `(${r.current})` : String(r.current);
    console.log(
      `  ${r.topic.padEnd(32)}${String(r.partition).padStart(10)}${current.padStart(10)}` +
        `${String(r.target).padStart(10)}${String(r.again).padStart(8)}${String(r.skipped).padStart(9)}`,
    );
  }
  const { again, skipped } = planTotals(rows);
  console.log(`  ${again} event(s) will be delivered again, ${skipped} skipped`);
}

/** Saves the offsets before the change, for `ops replay --from-file FILE --execute`. */
export function exportOffsets(file: string, group: string, rows: PlanRow[]): void {
  const content: ExportFile = {
    group,
    exported_at: new Date().toISOString(),
    offsets: rows.map((r) => ({ topic: r.topic, partition: r.partition, offset: r.current })),
  };
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
}

export function readExport(file: string): ExportFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BadValueError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const f = parsed as Partial<ExportFile>;
  const valid =
    typeof f?.group === 'string' &&
    Array.isArray(f.offsets) &&
    f.offsets.every(
      (o) =>
        typeof o?.topic === 'string' && Number.isInteger(o.partition) && Number.isInteger(o.offset) && o.offset >= 0,
    );
  if (!valid) throw new BadValueError(`${file} is not an offsets file written by ops replay --export`);
  return f as ExportFile;
}
