import type { KafkaMessage } from 'kafkajs';
import { DeadLetterHeaders, deadLetterTopic } from '@payments/contracts';
import { ownHeaders } from '@payments/messaging';
import { redactText } from '@payments/platform';
import { BadValueError, RefusedError } from '../cli/errors';
import type { CommandRegistration } from '../cli/program';
import { Progress } from '../cli/progress';
import { positiveInt } from '../cli/values';
import { describeGroup, requireGroup } from '../kafka/groups';
import { outcomeSummary } from '../kafka/live-replay';
import { readRanges, topicRanges, type PartitionRange } from '../kafka/reader';
import { Redelivery } from '../kafka/redeliver';
import type { KafkaSession } from '../kafka/session';

interface DeadLetter {
  partition: number;
  message: KafkaMessage;
}

const SEND_BATCH = 200;

const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();

async function readDeadLetters(s: KafkaSession, group: string): Promise<{ topic: string; ranges: PartitionRange[]; letters: DeadLetter[] }> {
  await requireGroup(s, group);
  const topic = deadLetterTopic(group);
  if (!(await s.admin.listTopics()).includes(s.full(topic))) throw new BadValueError(`group ${group} has no dead-letter topic ${topic}`);
  const ranges = await topicRanges(s, topic);
  const letters: DeadLetter[] = [];
  await readRanges(s, topic, ranges, async (partition, messages) => {
    letters.push(...messages.map((message) => ({ partition, message })));
  });
  return { topic, ranges, letters };
}

function excerpt(value: Buffer | null, max = 120): string {
  if (value === null) return '(null)';
  // Secrets and card numbers are masked like in logs; the excerpt is for recognising the message.
  const text = redactText(value.toString('utf8')).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function printLetter(s: KafkaSession, { partition, message: m }: DeadLetter): void {
  const original = header(m, DeadLetterHeaders.OriginalTopic);
  const from = original ? `${s.base(original)} partition ${header(m, DeadLetterHeaders.OriginalPartition)} offset ${header(m, DeadLetterHeaders.OriginalOffset)}` : '(unknown origin)';
  console.log(`- ${partition}/${m.offset} at ${new Date(Number(m.timestamp)).toISOString()} from ${from}`);
  console.log(`    key: ${m.key === null ? '(none)' : m.key.toString('utf8')}`);
  console.log(`    reason: ${header(m, DeadLetterHeaders.Reason) ?? '(none)'}`);
  const own = Object.entries(ownHeaders(m.headers)).map(([k, v]) => `${k}=${excerpt(Buffer.isBuffer(v) ? v : Buffer.from(String(v)), 60)}`);
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
    .action((opts: { group: string }) =>
      ctx.kafka(async (s) => {
        const { topic, letters } = await readDeadLetters(s, opts.group);
        console.log(`${letters.length} message(s) in ${topic}`);
        for (const letter of letters) printLetter(s, letter);
      }),
    );

  dlq
    .command('replay')
    .description('deliver the dead letters to their group only (keys and headers kept), then remove them from the dead-letter topic')
    .requiredOption('--group <group>', 'consumer group')
    .option('--timeout <seconds>', 'how long to wait for the group to apply them', positiveInt, 300)
    .option('--execute', 'deliver them (without it: a dry run)')
    .action((opts: { group: string; execute?: boolean; timeout: number }) =>
      ctx.kafka(async (s) => {
        const { topic, ranges, letters } = await readDeadLetters(s, opts.group);
        console.log(`${letters.length} message(s) in ${topic}${opts.execute ? '' : ' (dry run: nothing is sent; add --execute)'}`);
        const orphans = letters.filter((l) => !header(l.message, DeadLetterHeaders.OriginalTopic));
        if (orphans.length > 0) {
          throw new RefusedError(`${orphans.length} message(s) have no ${DeadLetterHeaders.OriginalTopic} header (${orphans.map((o) => `${o.partition}/${o.message.offset}`).join(', ')}): nothing says which handler applies them`);
        }
        if (!opts.execute) {
          for (const letter of letters) printLetter(s, letter);
          console.log(`${letters.length} message(s) would be delivered to ${opts.group} only, then removed from ${topic}`);
          return;
        }
        if (letters.length === 0) return;
        if ((await describeGroup(s, opts.group)).members.length === 0) {
          throw new RefusedError(`group ${opts.group} has no running consumers: dead letters are applied by them. Start them first`);
        }
        const redelivery = new Redelivery(s, opts.group);
        await redelivery.open();
        try {
          const progress = new Progress(`delivering to ${opts.group}`, letters.length);
          for (let i = 0; i < letters.length; i += SEND_BATCH) {
            await redelivery.send(
              letters.slice(i, i + SEND_BATCH).map(({ message: m }) => ({
                key: m.key,
                value: m.value,
                headers: ownHeaders(m.headers),
                sourceTopic: header(m, DeadLetterHeaders.OriginalTopic)!,
                sourcePartition: Number(header(m, DeadLetterHeaders.OriginalPartition) ?? -1),
                sourceOffset: header(m, DeadLetterHeaders.OriginalOffset) ?? '-1',
              })),
            );
            progress.update(redelivery.sent);
          }
          progress.stop();
          // Delivered (acks=all) before removal: a crash in between delivers twice, which the inbox absorbs.
          await s.admin.deleteTopicRecords({ topic: s.full(topic), partitions: ranges.filter((r) => r.to > r.from).map((r) => ({ partition: r.partition, offset: String(r.to) })) });
          console.log(`${letters.length} message(s) removed from ${topic}`);
          console.log(outcomeSummary(redelivery.sent, opts.group, await redelivery.outcomes(opts.timeout * 1000)));
        } finally {
          await redelivery.close();
        }
      }),
    );
};
