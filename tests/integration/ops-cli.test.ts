import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { ConsumerGroups, Topics } from '@payments/contracts';
import { committedOffsets, runOps, stackGroups } from '../support/ops';
import { Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { payAndSettle } from '../support/payments';

const GROUP = ConsumerGroups.SplitLedger;
const TOPIC = Topics.TransactionStatusChanged;

/**
 * The on-call CLI against a live stack: help and usage errors, lag with members, and an
 * offset replay of a stopped group with its safety rails (dry run, refusal to skip, export/restore).
 */
describe('ops CLI: commands, lag and offset replays', () => {
  let stack: Stack;
  let admin: Admin;
  let secret: string;
  const ops = (...args: string[]) => runOps(stack, args);
  const totalLag = (out: string) => Number(/total lag (\d+)/.exec(out)?.[1]);
  const ledger = () => stack.db('split-ledger-service');

  async function pay(reference: string): Promise<void> {
    await payAndSettle(stack, secret, reference, { amount: 700 });
  }

  /** Every event of the transaction service is in Kafka. */
  const allPublished = () =>
    waitFor(
      'the outbox to be relayed',
      async () =>
        (await stack.db('transaction-service').query('SELECT 1 FROM outbox_events WHERE published_at IS NULL')).rows
          .length === 0,
    );

  beforeAll(async () => {
    stack = await Stack.start(['transaction-service', 'split-ledger-service', 'gateway']);
    admin = stack.kafka().admin();
    await admin.connect();
    secret = (await stack.createBusiness('Ops Replayed')).test.secret;
  }, 120_000);

  afterAll(async () => {
    await admin?.disconnect();
    await stack?.stop();
  }, 120_000);

  it('has --help on every command and exits 2 with the usage on unknown commands, options and bad values', async () => {
    for (const command of [
      'lag',
      'replay',
      'dlq',
      'dlq list',
      'dlq replay',
      'business',
      'business create',
      'webhooks',
      'webhooks recover',
      'reconcile',
    ]) {
      const help = await ops(...command.split(' '), '--help');
      expect([command, help.code]).toEqual([command, 0]);
      expect(help.out).toContain(`Usage: ops ${command}`);
    }
    expect((await ops('--help')).out).toMatch(/Exit codes:[\s\S]*3 {2}refused for safety/);

    const unknownCommand = await ops('replay-all');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.out).toContain("unknown command 'replay-all'");
    expect(unknownCommand.out).toContain('Usage: ops');

    // The old flag must not be ignored (the command would run for real).
    const unknownOption = await ops(
      'replay',
      '--group',
      GROUP,
      '--topic',
      TOPIC,
      '--to-earliest',
      '--execute',
      '--dry-run',
    );
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.out).toContain("unknown option '--dry-run'");
    expect(unknownOption.out).toContain('Usage: ops replay');

    for (const bad of ['1', '2026-11-22', '2026-11-22T00:00:00', '2026-02-30T00:00:00Z', '2026-11-22T25:00:00Z']) {
      const res = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-datetime', bad);
      expect([bad, res.code]).toEqual([bad, 2]);
      expect(res.out).toContain('ISO 8601 timestamp with seconds and a zone');
    }
    const noTarget = await ops('replay', '--group', GROUP, '--topic', TOPIC);
    expect(noTarget.code).toBe(2);
    expect(noTarget.out).toContain('give exactly one of --to-datetime, --to-earliest');
  }, 120_000);

  it('creates a business through the admin API', async () => {
    const { code, out } = await ops('business', 'create', '--name', 'Ops Made');
    expect(code).toBe(0);
    expect(out).toMatch(/sk_test_[0-9A-Za-z]{40}/);
  });

  it('shows lag only for the topics the group consumes, with its state and members', async () => {
    await pay('ops-lag-1');
    await allPublished();
    // ledger.entry_created exists and has events, but no group consumes it: it must not count.
    const lag = await waitFor('the group to catch up', async () => {
      const res = await ops('lag', '--group', GROUP);
      return totalLag(res.out) === 0 ? res : undefined;
    });
    expect(lag.code).toBe(0);
    expect(lag.out).toContain(`group ${GROUP}: state Stable, 1 member(s)`);
    expect(lag.out).toMatch(
      new RegExp(`member split-ledger-service-\\d+ on \\S+: .*${TOPIC.replace('.', '\\.')} 0,1,2`),
    );
    expect(lag.out).toContain(TOPIC);
    expect(lag.out).not.toContain(Topics.LedgerEntryCreated);

    const follow = await ops('lag', '--group', GROUP, '--follow', '--timeout', '30');
    expect(follow.code).toBe(0);
    expect(follow.out).toContain(`lag of ${GROUP} is 0`);
  }, 120_000);

  it('rejects an unknown group or topic with the list of valid ones, and creates nothing', async () => {
    const group = await ops('replay', '--group', 'split-ledger', '--topic', TOPIC, '--to-earliest', '--execute');
    expect(group.code).toBe(2);
    expect(group.out).toContain('unknown consumer group "split-ledger"; existing groups: split-ledger-service');
    expect(await stackGroups(admin, stack)).not.toContain('split-ledger');
    expect((await ops('lag', '--group', 'split-ledger')).code).toBe(2);

    const topic = await ops('replay', '--group', GROUP, '--topic', 'transaction.status_change', '--to-earliest');
    expect(topic.code).toBe(2);
    expect(topic.out).toMatch(
      /does not consume topic "transaction\.status_change"; its topics: .*transaction\.status_changed/,
    );
  }, 60_000);

  it('refuses to move a group whose consumers are running', async () => {
    const res = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--execute');
    expect(res.code).toBe(3);
    expect(res.out).toContain(`group ${GROUP} has 1 active member(s)`);
    expect(res.out).toContain('--live');
  }, 60_000);

  it('plans a replay of a stopped group, refuses to skip, exports and restores its offsets', async () => {
    const groupId = `${stack.topicPrefix}${GROUP}`;
    const topic = `${stack.topicPrefix}${TOPIC}`;
    await stack.app('split-ledger-service').stop();
    const before = await committedOffsets(admin, groupId, topic);
    const live = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--live', '--execute');
    expect(live.code).toBe(3);
    expect(live.out).toContain(`group ${GROUP} has no running consumers`);
    const consumedBefore = Object.values(before).reduce((n, o) => n + Math.max(0, o), 0);

    // Events the stopped group has not seen yet: a target past its committed offset skips them.
    await pay('ops-behind-1');
    await pay('ops-behind-2');
    await allPublished();
    const ends = await admin.fetchTopicOffsets(topic);
    const behind = ends.reduce((n, e) => n + Number(e.high) - Math.max(0, before[e.partition] ?? 0), 0);
    expect(behind).toBeGreaterThan(0);

    const skip = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-offset', '999999');
    expect(skip.code).toBe(3);
    expect(skip.out).toContain(`0 event(s) will be delivered again, ${behind} skipped`);
    expect(skip.out).toContain(`${behind} event(s) would never be applied`);
    expect(await committedOffsets(admin, groupId, topic)).toEqual(before);

    const dir = mkdtempSync(join(tmpdir(), 'ops-'));
    const file = join(dir, 'offsets.json');
    const dry = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--export', file);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('(dry run: nothing changes; add --execute to apply)');
    for (const e of ends)
      expect(dry.out).toMatch(
        new RegExp(
          `${TOPIC.replace('.', '\\.')}\\s+${e.partition}\\s+` +
            `\\(?${Math.max(0, before[e.partition] ?? 0)}\\)?\\s+0\\s+${Math.max(0, before[e.partition] ?? 0)}\\s+0`,
        ),
      );
    expect(dry.out).toContain(`${consumedBefore} event(s) will be delivered again, 0 skipped`);
    expect(await committedOffsets(admin, groupId, topic)).toEqual(before);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      group: string;
      offsets: { partition: number; offset: number }[];
    };
    expect(saved.group).toBe(GROUP);

    const moved = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--execute');
    expect(moved.code).toBe(0);
    expect(Object.values(await committedOffsets(admin, groupId, topic)).every((o) => o === 0)).toBe(true);

    const restored = await ops('replay', '--from-file', file, '--execute');
    expect(restored.code).toBe(0);
    const after = await committedOffsets(admin, groupId, topic);
    for (const o of saved.offsets) expect(after[o.partition]).toBe(o.offset);

    const past = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-datetime', '2000-01-01T00:00:00Z');
    expect(past.code).toBe(0);
    expect(past.out).toContain(`${consumedBefore} event(s) will be delivered again, 0 skipped`);
    const future = await ops(
      'replay',
      '--group',
      GROUP,
      '--topic',
      TOPIC,
      '--to-datetime',
      '2999-01-01T00:00:00+01:00',
    );
    expect(future.code).toBe(3);
    expect(future.out).toContain(`0 event(s) will be delivered again, ${behind} skipped`);
    const [partition] = saved.offsets.filter((o) => o.offset > 0).map((o) => o.partition);
    const shifted = await ops(
      'replay',
      '--group',
      GROUP,
      '--topic',
      TOPIC,
      '--shift-by',
      '-1',
      '--partition',
      String(partition),
    );
    expect(shifted.code).toBe(0);
    expect(shifted.out.match(new RegExp(`^  ${TOPIC.replace('.', '\\.')} `, 'gm'))).toHaveLength(1);
    expect(shifted.out).toContain('1 event(s) will be delivered again, 0 skipped');

    // Started again, the group catches up on the two payments it had not seen, and --follow ends.
    await stack.startApp('split-ledger-service');
    const follow = await ops('lag', '--group', GROUP, '--follow', '--timeout', '90');
    expect(follow.code).toBe(0);
    expect(follow.out).toContain(`lag of ${GROUP} is 0`);
    const seen = await ledger().query("SELECT count(*)::int AS n FROM ledger_transactions WHERE status = 'success'");
    expect(seen.rows[0].n).toBe(3);
  }, 240_000);
});
