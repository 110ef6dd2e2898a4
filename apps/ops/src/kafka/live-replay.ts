import { replayTopic } from '@payments/contracts';
import { Progress } from '../cli/progress';
import { readRanges } from './reader';
import { Redelivery, type OutcomeCounts } from './redeliver';
import type { PlanRow } from './replay-plan';
import type { KafkaSession } from './session';

export function outcomeSummary(count: number, group: string, c: OutcomeCounts): string {
  return `${count} event(s) replayed to ${group}: ${c.applied} applied, ${c.duplicate} already applied, ${c.dead_lettered} dead-lettered`;
}

/**
 * Copies the planned range of each partition into the group's replay topic while its consumers
 * keep running; they apply the copies through the same idempotent handlers. The group's own
 * offsets are not touched, and no other group sees the copies.
 */
export async function liveReplay(s: KafkaSession, group: string, rows: PlanRow[], timeoutMs: number): Promise<OutcomeCounts> {
  const redelivery = new Redelivery(s, group);
  const total = rows.reduce((n, r) => n + r.again, 0);
  await redelivery.open();
  try {
    const progress = new Progress(`copying to ${replayTopic(group)}`, total);
    for (const topic of [...new Set(rows.map((r) => r.topic))]) {
      const ranges = rows.filter((r) => r.topic === topic && r.again > 0).map((r) => ({ partition: r.partition, from: r.target, to: r.current }));
      await readRanges(s, topic, ranges, async (partition, messages) => {
        await redelivery.send(
          messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers ?? {}, sourceTopic: s.full(topic), sourcePartition: partition, sourceOffset: m.offset })),
        );
        progress.update(redelivery.sent);
      });
    }
    progress.stop();
    const counts = await redelivery.outcomes(timeoutMs);
    console.log(outcomeSummary(redelivery.sent, group, counts));
    return counts;
  } finally {
    await redelivery.close();
  }
}
