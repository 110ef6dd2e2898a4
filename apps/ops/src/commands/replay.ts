import { Option, type Command } from 'commander';
import { replayTopic } from '@payments/contracts';
import { RefusedError } from '../cli/errors';
import { usageError, type CommandRegistration } from '../cli/program';
import { isoTimestamp, nonNegativeInt, positiveInt, signedInt } from '../cli/values';
import { describeGroup, groupTopics, requireGroup, requireTopic } from '../kafka/groups';
import { liveReplay } from '../kafka/live-replay';
import { DEFAULT_STALL_MS } from '../kafka/reader';
import { buildPlan, exportOffsets, planTotals, printPlan, readExport, type ReplayTarget } from '../kafka/replay-plan';
import type { KafkaSession } from '../kafka/session';

interface ReplayOptions {
  group?: string;
  topic?: string;
  allTopics?: boolean;
  toDatetime?: Date;
  toEarliest?: boolean;
  toOffset?: number;
  shiftBy?: number;
  fromFile?: string;
  partition?: number;
  execute?: boolean;
  allowSkip?: boolean;
  export?: string;
  live?: boolean;
  restart?: boolean;
  timeout?: number;
  stallTimeout: number;
}

function targetOf(opts: ReplayOptions, cmd: Command): ReplayTarget {
  const given = [opts.toDatetime, opts.toEarliest, opts.toOffset, opts.shiftBy, opts.fromFile].filter(
    (v) => v !== undefined,
  );
  if (given.length !== 1)
    usageError(cmd, 'give exactly one of --to-datetime, --to-earliest, --to-offset, --shift-by or --from-file');
  if (opts.fromFile) {
    if (opts.topic || opts.allTopics || opts.partition !== undefined)
      usageError(cmd, '--from-file restores every offset in the file: no --topic, --all-topics or --partition');
    if (opts.live) usageError(cmd, '--from-file restores offsets; it cannot be --live');
    return { kind: 'restore', offsets: [] };
  }
  if (!opts.group) usageError(cmd, '--group is required');
  if (Boolean(opts.topic) === Boolean(opts.allTopics)) usageError(cmd, 'give exactly one of --topic or --all-topics');
  if (opts.partition !== undefined && !opts.topic) usageError(cmd, '--partition needs --topic');
  if (opts.live && opts.export) usageError(cmd, '--live never moves the group, so there is nothing to --export');
  if (opts.restart && !opts.live) usageError(cmd, '--restart discards an interrupted --live replay; it needs --live');
  if (opts.toEarliest) return { kind: 'earliest' };
  if (opts.toOffset !== undefined) return { kind: 'offset', offset: opts.toOffset };
  if (opts.shiftBy !== undefined) return { kind: 'shift', by: opts.shiftBy };
  return { kind: 'datetime', at: opts.toDatetime! };
}

async function replay(s: KafkaSession, opts: ReplayOptions, cmd: Command): Promise<void> {
  let target = targetOf(opts, cmd);
  let group = opts.group!;
  if (target.kind === 'restore') {
    const file = readExport(opts.fromFile!);
    if (opts.group && opts.group !== file.group)
      usageError(cmd, `${opts.fromFile} holds offsets of group ${file.group}, not ${opts.group}`);
    group = file.group;
    target = { kind: 'restore', offsets: file.offsets };
  }
  await requireGroup(s, group);
  const info = await describeGroup(s, group);
  const consumed = await groupTopics(s, group, info);
  let topics: string[];
  if (target.kind === 'restore') topics = [...new Set(target.offsets.map((o) => o.topic))];
  else if (opts.topic) topics = [opts.topic];
  else topics = consumed.filter((t) => t !== replayTopic(group));
  for (const t of topics) requireTopic(group, consumed, t);

  const rows = await buildPlan(s, group, topics, target, opts.partition);
  const mode = opts.live ? 'live replay' : target.kind === 'restore' ? `restore from ${opts.fromFile}` : 'replay';
  console.log(`${mode} for group ${group}${opts.execute ? '' : ' (dry run: nothing changes; add --execute to apply)'}`);
  printPlan(rows);
  const { again, skipped } = planTotals(rows);
  if (skipped > 0 && opts.live)
    throw new RefusedError(
      'a live replay delivers events again and never moves the group: ' +
        'the target must not be after the committed offset',
    );
  if (skipped > 0 && !opts.allowSkip && target.kind !== 'restore') {
    throw new RefusedError(
      `refused: the target is after the committed offset, so ${skipped} event(s) would never be applied. ` +
        'Check the target; pass --allow-skip only if skipping them is intended',
    );
  }
  if (opts.execute && !opts.live && info.members.length > 0) {
    throw new RefusedError(
      `group ${group} has ${info.members.length} active member(s) ` +
        `(${info.members.map((m) => m.clientId).join(', ')}): ` +
        'Kafka only moves the offsets of a group without members. ' +
        `Stop its consumers first, or replay with --live while they run`,
    );
  }
  if (opts.execute && opts.live && info.members.length === 0) {
    throw new RefusedError(
      `group ${group} has no running consumers: a live replay is applied by them. Start them, or replay without --live`,
    );
  }
  if (opts.export) {
    exportOffsets(opts.export, group, rows);
    console.log(
      `offsets before the change saved to ${opts.export}; ` +
        `restore them with: ops replay --from-file ${opts.export} --execute`,
    );
  }
  if (!opts.execute) return;

  if (opts.live) {
    if (again > 0)
      await liveReplay(s, group, rows, {
        stallMs: (opts.timeout ?? opts.stallTimeout) * 1000,
        restart: opts.restart === true,
        spec: JSON.stringify({ ...target, partition: opts.partition ?? null }),
      });
    else console.log('nothing to replay');
    return;
  }
  for (const topic of topics) {
    const partitions = rows
      .filter((r) => r.topic === topic)
      .map((r) => ({ partition: r.partition, offset: String(r.target) }));
    if (partitions.length > 0) await s.admin.setOffsets({ groupId: s.full(group), topic: s.full(topic), partitions });
  }
  console.log(`offsets of ${group} moved; start its consumers and follow them with: ops lag --group ${group} --follow`);
}

/** `ops replay`: Kafka's --reset-offsets with a dry run by default, refusal to skip, export/restore, and --live. */
export const registerReplay: CommandRegistration = (program, ctx) => {
  program
    .command('replay')
    .description("deliver a group's events again (dry run unless --execute); consumers apply each event once")
    .option('--group <group>', 'consumer group (required unless --from-file)')
    .option('--topic <topic>', 'one topic the group consumes')
    .option('--all-topics', 'every topic the group consumes')
    .option('--to-datetime <iso>', 'the first offset at or after this time (ISO 8601 with a zone)', isoTimestamp)
    .option('--to-earliest', 'the earliest offset still in Kafka')
    .option('--to-offset <n>', 'this offset on every selected partition', nonNegativeInt)
    .addOption(
      new Option('--shift-by <n>', 'move by n from the committed offset (negative: back)').argParser(signedInt),
    )
    .option('--from-file <file>', 'restore the offsets saved by --export')
    .option('--partition <p>', 'only this partition of --topic', nonNegativeInt)
    .option('--allow-skip', 'accept a target after the committed offset (events in between are never applied)')
    .option('--export <file>', 'save the offsets before the change, for --from-file')
    .option(
      '--live',
      'replay while the consumers run, through the group replay topic (only that group sees the events)',
    )
    .option(
      '--restart',
      'with --live: discard an interrupted live replay of the group and start this one from its target',
    )
    .option(
      '--stall-timeout <seconds>',
      'with --live: fail when nothing is copied or applied for this long ' +
        '(a replay that moves runs as long as it needs)',
      positiveInt,
      DEFAULT_STALL_MS / 1000,
    )
    .addOption(new Option('--timeout <seconds>').argParser(positiveInt).hideHelp())
    .option('--execute', 'apply the plan (without it: a dry run)')
    .action((opts: ReplayOptions, cmd: Command) => ctx.kafka((s) => replay(s, opts, cmd)));
};
