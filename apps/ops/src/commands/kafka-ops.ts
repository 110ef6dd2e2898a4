import type { Admin, Kafka } from 'kafkajs';
import { ALL_TOPICS, ConsumerGroups, deadLetterTopic } from '@payments/contracts';
import { UsageError, progressBar, required, type Parsed } from '../args';
import type { OpsConfig } from '../ops.config';

export interface PartitionLag {
  topic: string;
  partition: number;
  committed: number;
  end: number;
  lag: number;
}

const KNOWN_GROUPS = Object.values(ConsumerGroups) as string[];

/** Committed offset, end offset and lag of every partition a group consumes (or has consumed). */
export async function groupLag(admin: Admin, prefix: string, group: string): Promise<PartitionLag[]> {
  const groupId = `${prefix}${group}`;
  const existing = new Set(await admin.listTopics());
  const topics = ALL_TOPICS.map((t) => `${prefix}${t}`).filter((t) => existing.has(t));
  const committed = await admin.fetchOffsets({ groupId, topics });
  const rows: PartitionLag[] = [];
  for (const { topic, partitions } of committed) {
    const ends = await admin.fetchTopicOffsets(topic);
    for (const p of partitions) {
      const end = Number(ends.find((e) => e.partition === p.partition)?.high ?? 0);
      const low = Number(ends.find((e) => e.partition === p.partition)?.low ?? 0);
      const at = Number(p.offset) < 0 ? low : Number(p.offset); // -1: nothing committed yet → from the start
      rows.push({ topic: topic.slice(prefix.length), partition: p.partition, committed: at, end, lag: Math.max(0, end - at) });
    }
  }
  return rows.filter((r) => r.end > 0 || r.committed > 0);
}

function printLag(group: string, rows: PartitionLag[]): void {
  console.log(`group ${group}`);
  console.log('  topic                         partition  committed        end        lag');
  for (const r of rows) {
    console.log(`  ${r.topic.padEnd(30)}${String(r.partition).padStart(9)}${String(r.committed).padStart(11)}${String(r.end).padStart(11)}${String(r.lag).padStart(11)}`);
  }
  console.log(`  total lag ${rows.reduce((s, r) => s + r.lag, 0)}`);
}

/** `ops lag [--group g] [--follow]`: consumer lag; with --follow, a progress bar until it reaches 0. */
export async function lagCommand(admin: Admin, config: OpsConfig, p: Parsed): Promise<void> {
  const groups = typeof p.options.group === 'string' ? [p.options.group] : KNOWN_GROUPS;
  if (p.options.follow) {
    const group = groups[0];
    const start = (await groupLag(admin, config.KAFKA_TOPIC_PREFIX, group)).reduce((s, r) => s + r.lag, 0);
    const deadline = Date.now() + Number(p.options.timeout ?? 600) * 1000;
    for (;;) {
      const lag = (await groupLag(admin, config.KAFKA_TOPIC_PREFIX, group)).reduce((s, r) => s + r.lag, 0);
      process.stdout.write(`\r${group} ${progressBar(start - lag, start)} lag ${lag}   `);
      if (lag === 0) break;
      if (Date.now() > deadline) throw new Error(`lag of ${group} still ${lag} after the timeout; are its consumers running?`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    process.stdout.write('\n');
    return;
  }
  for (const g of groups) printLag(g, await groupLag(admin, config.KAFKA_TOPIC_PREFIX, g));
}

/**
 * `ops replay --group g --topic t (--earliest | --from-offset N | --from-time ISO) [--dry-run]`:
 * moves a stopped group's offsets back so its consumers receive the events again. Safe because
 * every consumer is idempotent (the inbox skips what it already applied).
 */
export async function replayCommand(admin: Admin, config: OpsConfig, p: Parsed): Promise<void> {
  const group = required(p, 'group');
  const topicBase = required(p, 'topic');
  const topic = `${config.KAFKA_TOPIC_PREFIX}${topicBase}`;
  const groupId = `${config.KAFKA_TOPIC_PREFIX}${group}`;
  const ends = await admin.fetchTopicOffsets(topic);
  let targets: { partition: number; offset: string }[];
  if (p.options.earliest) {
    targets = ends.map((e) => ({ partition: e.partition, offset: e.low }));
  } else if (typeof p.options['from-offset'] === 'string') {
    const n = Number(p.options['from-offset']);
    if (!Number.isInteger(n) || n < 0) throw new UsageError('--from-offset must be a non-negative integer');
    targets = ends.map((e) => ({ partition: e.partition, offset: String(Math.min(Math.max(n, Number(e.low)), Number(e.high))) }));
  } else if (typeof p.options['from-time'] === 'string') {
    const at = Date.parse(p.options['from-time']);
    if (Number.isNaN(at)) throw new UsageError('--from-time must be an ISO-8601 timestamp');
    const byTime = await admin.fetchTopicOffsetsByTimestamp(topic, at);
    targets = byTime.map((e) => ({ partition: e.partition, offset: e.offset }));
  } else {
    throw new UsageError('say where to replay from: --earliest, --from-offset N or --from-time ISO-8601');
  }
  const current = (await groupLag(admin, config.KAFKA_TOPIC_PREFIX, group)).filter((r) => r.topic === topicBase);
  let total = 0;
  console.log(`replay of ${topicBase} for group ${group}${p.options['dry-run'] ? ' (dry run: nothing changes)' : ''}`);
  for (const t of targets) {
    const now = current.find((c) => c.partition === t.partition)?.committed ?? 0;
    const again = Math.max(0, now - Number(t.offset));
    total += again;
    console.log(`  partition ${t.partition}: offset ${now} → ${t.offset} (${again} events delivered again)`);
  }
  console.log(`  ${total} events will be delivered again`);
  if (p.options['dry-run']) return;
  const [description] = (await admin.describeGroups([groupId])).groups;
  if (description && description.members.length > 0) {
    throw new Error(`group ${group} has ${description.members.length} running consumer(s): stop ${group} first, replay, then start it again`);
  }
  await admin.setOffsets({ groupId, topic, partitions: targets });
  console.log(`offsets moved; start ${group} again, and follow it with: ops lag --group ${group} --follow`);
}

/**
 * `ops dlq replay --group g [--dry-run]`: sends every message of the group's dead-letter topic back
 * to the topic it came from (after the cause is fixed). Reads up to the end seen at start.
 */
export async function dlqReplayCommand(kafka: Kafka, admin: Admin, config: OpsConfig, p: Parsed): Promise<void> {
  const group = required(p, 'group');
  const dlq = `${config.KAFKA_TOPIC_PREFIX}${deadLetterTopic(group)}`;
  if (!(await admin.listTopics()).includes(dlq)) throw new Error(`no dead-letter topic ${deadLetterTopic(group)}`);
  const ends = await admin.fetchTopicOffsets(dlq);
  const total = ends.reduce((s, e) => s + Number(e.high) - Number(e.low), 0);
  console.log(`${total} message(s) in ${deadLetterTopic(group)}${p.options['dry-run'] ? ' (dry run: nothing is sent)' : ''}`);
  if (total === 0 || p.options['dry-run']) return;
  const remaining = new Map(ends.filter((e) => Number(e.high) > Number(e.low)).map((e) => [e.partition, Number(e.high)]));
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  const consumer = kafka.consumer({ groupId: `${config.KAFKA_TOPIC_PREFIX}ops-dlq-replay-${Date.now()}`, sessionTimeout: 10_000, allowAutoTopicCreation: false });
  await producer.connect();
  await consumer.connect();
  let sent = 0;
  try {
    await consumer.subscribe({ topic: dlq, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            const end = remaining.get(partition);
            if (end === undefined || Number(message.offset) >= end) return;
            const original = message.headers?.['dlq-original-topic']?.toString();
            if (!original) throw new Error(`message at ${partition}/${message.offset} has no dlq-original-topic header`);
            await producer.send({ topic: original, acks: -1, messages: [{ key: message.key, value: message.value, headers: { 'replayed-from-dlq': 'true' } }] });
            sent += 1;
            process.stdout.write(`\r${progressBar(sent, total)}`);
            if (Number(message.offset) + 1 >= end) remaining.delete(partition);
            if (remaining.size === 0) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
  process.stdout.write('\n');
  console.log(`${sent} message(s) sent back to their topics; the consumers apply each once`);
}
