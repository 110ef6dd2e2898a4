import { replayTopic } from '@payments/contracts';
import { InterruptedError, RefusedError } from '../cli/errors';
import { Progress } from '../cli/progress';
import { readRanges, type PartitionRange } from './reader';
import { Redelivery, type OutcomeCounts, type ReplayRecord } from './redeliver';
import { ReplayCheckpoint } from './replay-checkpoint';
import type { PlanRow } from './replay-plan';
import type { KafkaSession } from './session';

export function outcomeSummary(count: number, group: string, c: OutcomeCounts): string {
  return (
    `${count} event(s) replayed to ${group}: ` +
    `${c.applied} applied, ${c.duplicate} already applied, ${c.dead_lettered} dead-lettered`
  );
}

export interface LiveReplayOptions {
  /** Fail when nothing was read, copied or applied for this long. */
  stallMs: number;
  /** Discard an interrupted replay of the group instead of continuing it. */
  restart: boolean;
  /**
   * The range as the command line gave it (e.g. `{"kind":"earliest"}`): an interrupted replay with
   * the same one is continued even when its offsets would now differ (retention moved the earliest
   * offset, or the group consumed on and --shift-by counts from there).
   */
  spec: string;
}

/** A topic's ranges to copy now, and the whole ranges they belong to (what the checkpoint records). */
interface TopicCopy {
  topic: string;
  ranges: (PartitionRange & { whole: { from: number; end: number } })[];
}

/**
 * The ranges to copy: the plan's, or, when an interrupted replay of the same range is pending
 * (same command-line range, or same start offset), the rest of it (its end as first planned: what
 * the group consumed since was applied normally). Another pending range is refused, not mixed in.
 */
export async function resumeOrPlan(
  checkpoint: ReplayCheckpoint,
  rows: PlanRow[],
  spec: string,
): Promise<{ copies: TopicCopy[]; copiedBefore: number }> {
  const copies: TopicCopy[] = [];
  let copiedBefore = 0;
  for (const topic of [...new Set(rows.map((r) => r.topic))]) {
    const saved = await checkpoint.load(topic);
    const ranges: TopicCopy['ranges'] = [];
    for (const r of rows.filter((x) => x.topic === topic)) {
      const pending = saved.get(r.partition);
      if (pending && pending.spec !== spec && pending.from !== r.target) {
        throw new RefusedError(
          `an interrupted live replay of ${checkpoint.group} copied ${topic} partition ${r.partition} ` +
            `from offset ${pending.from}, not ${r.target}: ` +
            'run it again as it was to finish it, or pass --restart to discard it',
        );
      }
      const whole = pending ? { from: pending.from, end: pending.end } : { from: r.target, end: r.current };
      const from = pending ? pending.next : r.target;
      copiedBefore += from - whole.from;
      if (whole.end > whole.from) ranges.push({ partition: r.partition, from, to: whole.end, whole });
    }
    copies.push({ topic, ranges });
  }
  return { copies, copiedBefore };
}

/**
 * Copies each partition's planned range to the group's replay topic while its consumers apply them idempotently; the
 * group's offsets are untouched and no other group sees them. Progress is kept in Kafka, so after ^C it continues.
 */
export async function liveReplay(
  s: KafkaSession,
  group: string,
  rows: PlanRow[],
  opts: LiveReplayOptions,
): Promise<OutcomeCounts> {
  const checkpoint = new ReplayCheckpoint(s, group);
  await checkpoint.requireIdle();
  if (opts.restart) await checkpoint.discard();
  const { copies, copiedBefore } = await resumeOrPlan(checkpoint, rows, opts.spec);
  const total = copies.reduce((n, c) => n + c.ranges.reduce((m, r) => m + (r.to - r.from), 0), 0);
  if (copiedBefore > 0)
    console.log(
      `continuing the interrupted live replay of ${group}: ${copiedBefore} event(s) were copied before, ${total} left`,
    );
  const redelivery = new Redelivery(s, group);
  try {
    await redelivery.open();
    const progress = new Progress(`copying to ${replayTopic(group)}`, total, { unit: 'events' });
    for (const { topic, ranges } of copies) {
      const wholeOf = new Map(ranges.map((r) => [r.partition, r.whole]));
      const end = await readRanges(
        s,
        topic,
        ranges,
        async (partition, messages) => {
          const records: ReplayRecord[] = messages.map((m) => ({
            key: m.key,
            value: m.value,
            headers: m.headers ?? {},
            sourceTopic: s.full(topic),
            sourcePartition: partition,
            sourceOffset: m.offset,
          }));
          await redelivery.send(records, () => progress.update(redelivery.sent));
        },
        {
          stallMs: opts.stallMs,
          what: `copying ${topic}`,
          checkpoint: {
            groupId: checkpoint.groupId,
            metadata: (p) => checkpoint.metadata(wholeOf.get(p)!.from, wholeOf.get(p)!.end, opts.spec),
          },
        },
      );
      if (end === 'interrupted') {
        progress.stop();
        throw new InterruptedError(
          `interrupted: ${copiedBefore + redelivery.sent} of ${copiedBefore + total} event(s) ` +
            `copied to ${replayTopic(group)} (the group applies them); run the same command again to continue`,
        );
      }
    }
    progress.stop();
    await checkpoint.discard();
    const counts = await redelivery.outcomes(opts.stallMs);
    console.log(outcomeSummary(redelivery.sent, group, counts));
    return counts;
  } finally {
    await redelivery.close();
  }
}
