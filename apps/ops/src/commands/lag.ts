import { ExitCode, TimedOutError } from '../cli/errors';
import { usageError, type CommandRegistration } from '../cli/program';
import { Progress } from '../cli/progress';
import { positiveInt } from '../cli/values';
import {
  describeGroup,
  groupLag,
  groupTopics,
  listGroups,
  requireGroup,
  totalLag,
  type GroupInfo,
  type PartitionLag,
} from '../kafka/groups';
import type { KafkaSession } from '../kafka/session';

function printGroup(info: GroupInfo, rows: PartitionLag[]): void {
  console.log(`group ${info.name}: state ${info.state}, ${info.members.length} member(s)`);
  for (const m of info.members) {
    const parts = Object.entries(m.assignment).map(([t, ps]) => `${t} ${ps.join(',')}`);
    console.log(`  member ${m.clientId} on ${m.host}: ${parts.join('; ') || '(no partitions)'}`);
  }
  if (rows.length === 0) {
    console.log('  (no topics consumed yet)');
    return;
  }
  console.log(
    `  ${'topic'.padEnd(32)}${'partition'.padStart(10)}${'committed'.padStart(11)}` +
      `${'end'.padStart(11)}${'lag'.padStart(9)}`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.topic.padEnd(32)}${String(r.partition).padStart(10)}${String(r.committed ?? '-').padStart(11)}` +
        `${String(r.end).padStart(11)}${String(r.lag).padStart(9)}`,
    );
  }
  console.log(`  total lag ${totalLag(rows)}`);
}

async function follow(s: KafkaSession, group: string, timeoutS: number): Promise<void> {
  const topics = await groupTopics(s, group);
  const start = totalLag(await groupLag(s, group, topics));
  const progress = new Progress(`lag of ${group}`, start);
  const deadline = Date.now() + timeoutS * 1000;
  for (let lag = start; ;) {
    progress.update(start - lag, `lag ${lag}`);
    if (lag === 0) break;
    if (Date.now() > deadline) {
      progress.stop(`lag ${lag}`);
      const info = await describeGroup(s, group);
      throw new TimedOutError(
        `lag of ${group} is still ${lag} after ${timeoutS} s; ` +
          `the group is ${info.state} with ${info.members.length} member(s)`,
      );
    }
    await new Promise((r) => setTimeout(r, 1_000));
    lag = totalLag(await groupLag(s, group, topics));
  }
  progress.stop('lag 0');
  console.log(`lag of ${group} is 0`);
}

/** `ops lag`: per group its state, members and the lag of the topics it consumes. */
export const registerLag: CommandRegistration = (program, ctx) => {
  program
    .command('lag')
    .description('state, members and lag of consumer groups, for the topics each group consumes')
    .option('--group <group>', 'one consumer group (default: every group of the deployment)')
    .option(
      '--follow',
      `with --group: wait until its lag is 0 (progress bar on a terminal); exit ${ExitCode.TimedOut} on timeout`,
    )
    .option('--timeout <seconds>', 'how long --follow waits', positiveInt, 600)
    .action(async (opts: { group?: string; follow?: boolean; timeout: number }, cmd) => {
      if (opts.follow && !opts.group) usageError(cmd, '--follow needs --group');
      await ctx.kafka(async (s) => {
        if (opts.group) await requireGroup(s, opts.group);
        if (opts.follow) return follow(s, opts.group!, opts.timeout);
        const groups = opts.group ? [opts.group] : await listGroups(s);
        if (groups.length === 0) console.log('no consumer groups yet: start the services first');
        for (const group of groups) {
          const info = await describeGroup(s, group);
          printGroup(info, await groupLag(s, group, await groupTopics(s, group, info)));
        }
      });
    });
};
