import { Option } from 'commander';
import type { KafkaMessage } from 'kafkajs';
import { DeadLetterHeaders, deadLetterTopic } from '@payments/contracts';
import { ownHeaders } from '@payments/messaging';
import { redactText } from '@payments/platform';
import { BadValueError, InterruptedError, RefusedError } from '../cli/errors';
import type { CommandRegistration } from '../cli/program';
import { drained } from '../cli/output';
import { Progress } from '../cli/progress';
import { nonNegativeInt, positiveInt } from '../cli/values';
import { describeGroup, requireGroup } from '../kafka/groups';
import { letterOrigin, letterRecords } from '../kafka/dead-letter-origin';
import { outcomeSummary } from '../kafka/live-replay';
import { DEFAULT_STALL_MS, readRanges, topicRanges, type PartitionRange } from '../kafka/reader';
import { Redelivery } from '../kafka/redeliver';
import type { KafkaSession } from '../kafka/session';

interface DeadLetter {
  partition: number;
  message: KafkaMessage;
}

const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();

/** The group's dead-letter topic (base name) and its ranges; counted from offsets, nothing read. */
async function deadLetterRanges(
  s: KafkaSession,
  group: string,
): Promise<{ topic: string; ranges: PartitionRange[]; count: number }> {
  await requireGroup(s, group);
  const topic = deadLetterTopic(group);
  if (!(await s.admin.listTopics()).includes(s.full(topic)))
    throw new BadValueError(`group ${group} has no dead-letter topic ${topic}`);
  const ranges = await topicRanges(s, topic);
  return { topic, ranges, count: ranges.reduce((n, r) => n + r.to - r.from, 0) };
}

/** Streams the dead letters in [from, to) per partition, batch by batch: memory stays bounded whatever their number. */
function eachLetter(
  s: KafkaSession,
  topic: string,
  ranges: PartitionRange[],
  stallMs: number,
  fn: (letters: DeadLetter[], heartbeat: () => Promise<void>) => Promise<void> | void,
): Promise<unknown> {
  return readRanges(
    s,
    topic,
    ranges,
    async (partition, messages, heartbeat) =>
      fn(
        messages.map((message) => ({ partition, message })),
        heartbeat,
      ),
    { stallMs, what: `reading ${topic}` },
  );
}

function excerpt(value: Buffer | null, max = 120): string {
  if (value === null) return '(null)';
  // Secrets and card numbers are masked like in logs; the excerpt is for recognising the message.
  const text = redactText(value.toString('utf8')).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function printLetter(s: KafkaSession, { partition, message: m }: DeadLetter): void {
  const o = letterOrigin(m, (t) => s.base(t));
  const via = o.replayTopic ? ` (dead-lettered as ${s.base(o.replayTopic)}; origin from its replay-origin header)` : '';
  const from = o.topic ? `${s.base(o.topic)} partition ${o.partition} offset ${o.offset}${via}` : '(unknown origin)';
  console.log(`- ${partition}/${m.offset} at ${new Date(Number(m.timestamp)).toISOString()} from ${from}`);
  console.log(`    key: ${m.key === null ? '(none)' : m.key.toString('utf8')}`);
  console.log(`    reason: ${header(m, DeadLetterHeaders.Reason) ?? '(none)'}`);
  const own = Object.entries(ownHeaders(m.headers)).map(
    ([k, v]) => `${k}=${excerpt(Buffer.isBuffer(v) ? v : Buffer.from(String(v)), 60)}`,
  );
  if (own.length > 0) console.log(`    headers: ${own.join(', ')}`);
  console.log(`    payload: ${excerpt(m.value)}`);
}

/** `ops dlq list` and `ops dlq replay`: a group's dead letters, delivered again to that group only. */
export const registerDlq: CommandRegistration = (program, ctx) => {
  const dlq = program.command('dlq').description("a consumer group's dead-letter topic");

  dlq
    .command('list')
    .description('show each dead letter: reason, original topic/partition/offset, key, time, payload excerpt')
    .requiredOption('--group <group>', 'consumer group')
    .option('--limit <n>', 'show at most this many (0: all of them)', nonNegativeInt, 100)
    .option(
      '--stall-timeout <seconds>',
      'fail when nothing is read for this long',
      positiveInt,
      DEFAULT_STALL_MS / 1000,
    )
    .action((opts: { group: string; limit: number; stallTimeout: number }) =>
      ctx.kafka(async (s) => {
        const { topic, ranges, count } = await deadLetterRanges(s, opts.group);
        console.log(`${count} message(s) in ${topic}`);
        const shown = opts.limit === 0 ? ranges : firstOf(ranges, opts.limit);
        await eachLetter(s, topic, shown, opts.stallTimeout * 1000, async (letters, heartbeat) => {
          letters.forEach((l) => printLetter(s, l));
          await drained(heartbeat);
        });
        const left = count - shown.reduce((n, r) => n + r.to - r.from, 0);
        if (left > 0) console.log(`… and ${left} more (--limit 0 shows all)`);
      }),
    );

  dlq
    .command('replay')
    .description(
      'deliver the dead letters to their group only (keys and headers kept), ' +
        'then remove them from the dead-letter topic',
    )
    .requiredOption('--group <group>', 'consumer group')
    .option('--limit <n>', 'dry run: show at most this many (0: all of them)', nonNegativeInt, 100)
    .addOption(new Option('--timeout <seconds>').argParser(positiveInt).hideHelp())
    .option(
      '--stall-timeout <seconds>',
      'fail when nothing is read, delivered or applied for this long',
      positiveInt,
      DEFAULT_STALL_MS / 1000,
    )
    .option('--execute', 'deliver them (without it: a dry run)')
    .action((opts: { group: string; execute?: boolean; limit: number; timeout?: number; stallTimeout: number }) =>
      ctx.kafka(async (s) => {
        const stallMs = (opts.timeout ?? opts.stallTimeout) * 1000;
        const base = (t: string) => s.base(t);
        const { topic, ranges, count } = await deadLetterRanges(s, opts.group);
        console.log(
          `${count} message(s) in ${topic}${opts.execute ? '' : ' (dry run: nothing is sent; add --execute)'}`,
        );
        // Every letter must say where it came from before any is sent: one pass over the headers only.
        const orphans: string[] = [];
        let repaired = 0;
        await eachLetter(s, topic, ranges, stallMs, (letters) => {
          for (const l of letters) {
            if (!header(l.message, DeadLetterHeaders.OriginalTopic)) orphans.push(`${l.partition}/${l.message.offset}`);
            else if (letterOrigin(l.message, base).replayTopic) repaired++;
          }
        });
        if (orphans.length > 0) {
          throw new RefusedError(
            `${orphans.length} message(s) have no ${DeadLetterHeaders.OriginalTopic} header ` +
              `(${orphans.slice(0, 20).join(', ')}${orphans.length > 20 ? ', …' : ''}): ` +
              'nothing says which handler applies them',
          );
        }
        if (repaired > 0)
          console.log(
            `${repaired} of them name a replay topic as their original topic ` +
              '(dead-lettered by a service that did not read the replay-origin header): ' +
              'each goes back as coming from the topic, partition and offset that header names',
          );
        if (!opts.execute) {
          await eachLetter(
            s,
            topic,
            opts.limit === 0 ? ranges : firstOf(ranges, opts.limit),
            stallMs,
            async (letters, heartbeat) => {
              letters.forEach((l) => printLetter(s, l));
              await drained(heartbeat);
            },
          );
          console.log(`${count} message(s) would be delivered to ${opts.group} only, then removed from ${topic}`);
          return;
        }
        if (count === 0) return;
        if ((await describeGroup(s, opts.group)).members.length === 0) {
          throw new RefusedError(
            `group ${opts.group} has no running consumers: dead letters are applied by them. Start them first`,
          );
        }
        const redelivery = new Redelivery(s, opts.group);
        try {
          await redelivery.open();
          const progress = new Progress(`delivering to ${opts.group}`, count, { unit: 'messages' });
          // Up to where each partition was delivered: only that much is removed.
          const delivered = new Map<number, number>();
          let letters = 0;
          const end = await readRanges(
            s,
            topic,
            ranges,
            async (partition, messages) => {
              await redelivery.send(messages.flatMap((m) => letterRecords(m, base)));
              progress.update((letters += messages.length));
              delivered.set(partition, Number(messages[messages.length - 1].offset) + 1);
            },
            { stallMs, what: `delivering ${topic}` },
          );
          progress.stop();
          if (end === 'interrupted') {
            throw new InterruptedError(
              `interrupted: ${letters} of ${count} message(s) delivered and none removed from ${topic}; ` +
                'run the same command again (the group applies each message once)',
            );
          }
          // Delivered (acks=all) before removal, and removed only as far as delivered: a crash in between
          // delivers twice, which the inbox absorbs; a letter never delivered is never removed.
          const removable = ranges
            .map((r) => ({
              partition: r.partition,
              to: Math.min(delivered.get(r.partition) ?? r.from, r.to),
              from: r.from,
            }))
            .filter((r) => r.to > r.from);
          if (removable.length > 0)
            await s.admin.deleteTopicRecords({
              topic: s.full(topic),
              partitions: removable.map((r) => ({ partition: r.partition, offset: String(r.to) })),
            });
          const removed = removable.reduce((n, r) => n + r.to - r.from, 0);
          console.log(
            `${removed} message(s) removed from ${topic}` +
              (removed < count ? ` (${count - removed} were not read back and stay)` : ''),
          );
          console.log(outcomeSummary(redelivery.sent, opts.group, await redelivery.outcomes(stallMs)));
        } finally {
          await redelivery.close();
        }
      }),
    );
};

/** The first `limit` offsets of the ranges, partition by partition. */
function firstOf(ranges: PartitionRange[], limit: number): PartitionRange[] {
  let left = limit;
  return ranges.map((r) => {
    const take = Math.max(0, Math.min(left, r.to - r.from));
    left -= take;
    return { ...r, to: r.from + take };
  });
}
