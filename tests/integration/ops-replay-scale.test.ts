import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { ConsumerGroups, ReplayHeaders, Topics, parseBundleHeader, replayTopic } from '@payments/contracts';
import { committedOffsets, opsCommand, runOps, stackGroups } from '../support/ops';
import { Stack } from '../support/stack';
import { produceDeadLetters, produceHistory } from '../support/synthetic-events';
import { waitFor } from '../support/wait';

const GROUP = ConsumerGroups.SplitLedger;
const TOPIC = Topics.TransactionStatusChanged;
/** CI runs 50k; the 300k run of the issue is OPS_REPLAY_SCALE_EVENTS=300000 (and `npm run bench` part e). */
const EVENTS = Number(process.env.OPS_REPLAY_SCALE_EVENTS ?? 50_000);
/** CI runs 20k dead letters (many fetches and pages); the run is OPS_DLQ_SCALE_LETTERS=100000. */
const LETTERS = Number(process.env.OPS_DLQ_SCALE_LETTERS ?? 20_000);
/** Replayed while the consumer is killed: enough for the kill to land in the middle. */
const KILLED_EVENTS = 20_000;
const peakRss = (out: string) => Number(/ops: peak memory (\d+) MB/.exec(out)?.[1]);

/**
 * A live replay at the scale of a day's topic, far above one fetch or one produce request: every synthetic event
 * applied exactly once, a ^C in the middle of the copy stopping cleanly, the same command continuing where it stopped
 * (not from the start), the group's offsets untouched, and the copier's memory bounded.
 */
describe('ops replay --live at scale', () => {
  let stack: Stack;
  let admin: Admin;
  const ops = (...args: string[]) => runOps(stack, args, 600_000);
  const ledger = (sql: string) =>
    stack
      .db('split-ledger-service')
      .query(sql)
      .then((r) => r.rows[0].n as number);
  const replayed = async () =>
    (await admin.fetchTopicOffsets(`${stack.topicPrefix}${replayTopic(GROUP)}`)).reduce(
      (n, p) => n + Number(p.high),
      0,
    );
  /** Events copied into the replay topic so far: each of its records is a bundle of `replay-bundle` events. */
  const replayedEvents = async (): Promise<number> => {
    const topic = `${stack.topicPrefix}${replayTopic(GROUP)}`;
    const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
    const read = new Map<number, number>();
    let events = 0;
    const groupId = `${stack.topicPrefix}count-${Date.now()}`;
    const consumer = stack.kafka().consumer({ groupId });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      const done = () => [...ends].every(([p, end]) => (read.get(p) ?? 0) >= end);
      await new Promise<void>((resolve, reject) => {
        if (done()) return resolve();
        consumer
          .run({
            eachBatch: async ({ batch }) => {
              for (const m of batch.messages)
                events += parseBundleHeader(m.headers?.[ReplayHeaders.Bundle]?.toString() ?? '')?.count ?? 1;
              read.set(batch.partition, Number(batch.lastOffset()) + 1);
              if (done()) resolve();
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
      await admin.deleteGroups([groupId]);
    }
    return events;
  };
  const totalLag = async () => Number(/total lag (\d+)/.exec((await ops('lag', '--group', GROUP)).out)?.[1]);
  /**
   * Stops the ledger and waits until its group has no members (stopped mid-rebalance, it stays rebalancing a while).
   */
  const stopLedger = async () => {
    await stack.app('split-ledger-service').stop();
    await waitFor(
      'the ledger group to be empty',
      async () =>
        ['Empty', 'Dead'].includes(
          (await admin.describeGroups([`${stack.topicPrefix}${GROUP}`])).groups[0]?.state ?? 'Dead',
        ),
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  };

  /** `count` new events (of the synthetic history) the ledger's group was moved past, the ledger running again. */
  const skipped = async (count: number, businessId?: number, firstTransaction?: number) => {
    await stopLedger();
    await produceHistory(stack, TOPIC, count, businessId, firstTransaction);
    const ends = await admin.fetchTopicOffsets(`${stack.topicPrefix}${TOPIC}`);
    await admin.setOffsets({
      groupId: `${stack.topicPrefix}${GROUP}`,
      topic: `${stack.topicPrefix}${TOPIC}`,
      partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
    });
    await stack.startApp('split-ledger-service');
    await waitFor('the ledger to be caught up', async () => (await totalLag()) === 0, {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
  };

  beforeAll(async () => {
    stack = await Stack.start(['split-ledger-service']);
    admin = stack.kafka().admin();
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await admin?.disconnect();
    await stack?.stop();
  }, 120_000);

  it(`copies ${EVENTS} events in chunks, survives ^C, resumes where it stopped, applies each event once`, async () => {
    // The incident: the group was moved past a day of events it never applied.
    await skipped(EVENTS);
    expect(await ledger('SELECT count(*)::int AS n FROM processed_events')).toBe(0);
    const groupOffsets = await committedOffsets(admin, `${stack.topicPrefix}${GROUP}`, `${stack.topicPrefix}${TOPIC}`);

    // First run, interrupted with ^C once the copy is under way.
    const env = {
      PATH: process.env.PATH ?? '',
      KAFKA_BROKERS: stack.infra.KAFKA_BROKERS,
      KAFKA_TOPIC_PREFIX: stack.topicPrefix,
      OPS_REPORT_RSS: '1',
    };
    const args = [
      ...opsCommand(),
      'replay',
      '--group',
      GROUP,
      '--topic',
      TOPIC,
      '--to-earliest',
      '--live',
      '--execute',
    ];
    const child = spawn(process.execPath, args, { env });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await waitFor('the copy to start', async () => (await replayed()) > 0, { timeoutMs: 60_000, intervalMs: 20 });
    child.kill('SIGINT');
    const code = await exited;
    expect(output).toMatch(
      new RegExp(
        String.raw`interrupted: \d+ of \d+ event\(s\) copied to replay\.split-ledger-service .*` +
          'run the same command again to continue',
      ),
    );
    expect(code).toBe(130);
    const copiedFirst = await replayedEvents();
    expect(copiedFirst).toBeLessThan(EVENTS);
    // Every event the first run says it copied is in the replay topic, and no more.
    expect(output).toContain(`interrupted: ${copiedFirst} of ${EVENTS} event(s) copied`);
    // Interrupted, its state is kept in Kafka (a group of its own): nothing else is left behind.
    expect((await stackGroups(admin, stack)).filter((g) => g.startsWith('ops-'))).toEqual([
      `ops-reader-live-replay.${GROUP}`,
    ]);

    // The same command again: it continues, and every event ends applied once.
    const second = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--live', '--execute');
    expect(second).toMatchObject({ code: 0 });
    const before = Number(
      new RegExp(
        'continuing the interrupted live replay of split-ledger-service: ' +
          String.raw`(\d+) event\(s\) were copied before, (\d+) left`,
      ).exec(second.out)?.[1],
    );
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThanOrEqual(copiedFirst);
    const left = EVENTS - before;
    process.stderr.write(`SECOND ${second.out}\n`);
    expect(second.out).toMatch(
      new RegExp(`copying to replay\\.split-ledger-service ${left}/${left} \\(100 %\\) \\d+ events/s, in \\d+:\\d{2}`),
    );
    expect(second.out).toMatch(
      new RegExp(`${left} event\\(s\\) replayed to ${GROUP}: \\d+ applied, \\d+ already applied, 0 dead-lettered`),
    );
    await waitFor(
      'every event applied',
      async () => (await ledger('SELECT count(*)::int AS n FROM processed_events')) === EVENTS,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(await ledger("SELECT count(*)::int AS n FROM ledger_transactions WHERE status = 'success'")).toBe(
      EVENTS / 2,
    );
    // What the first run copied after its last checkpoint is copied again, and nothing more.
    expect(await replayedEvents()).toBe(EVENTS + (copiedFirst - before));
    expect(await committedOffsets(admin, `${stack.topicPrefix}${GROUP}`, `${stack.topicPrefix}${TOPIC}`)).toEqual(
      groupOffsets,
    );
    expect((await stackGroups(admin, stack)).filter((g) => g.startsWith('ops-'))).toEqual([]);
    expect(Number(/ops: peak memory (\d+) MB/.exec(output)?.[1])).toBeLessThan(300);

    // A third run copies the whole range again (the previous one finished): all already applied.
    const third = await ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--live', '--execute');
    process.stderr.write(`THIRD ${third.out}\n`);
    expect(third.out).toContain(
      `${EVENTS} event(s) replayed to ${GROUP}: 0 applied, ${EVENTS} already applied, 0 dead-lettered`,
    );
    expect(await ledger('SELECT count(*)::int AS n FROM processed_events')).toBe(EVENTS);
  }, 900_000);

  it(`rewinds a stopped group ${EVENTS} events (--export), restores it (--from-file), replays by offset`, async () => {
    const measured = (...args: string[]) => runOps(stack, args, 900_000, { OPS_REPORT_RSS: '1' });
    const topic = `${stack.topicPrefix}${TOPIC}`;
    const group = `${stack.topicPrefix}${GROUP}`;
    const processed = () => ledger('SELECT count(*)::int AS n FROM processed_events');
    const applied = await processed();
    await stopLedger();
    const ends = await committedOffsets(admin, group, topic);
    const dir = mkdtempSync(join(tmpdir(), 'ops-export-'));
    const file = join(dir, 'before.json');
    try {
      // Back to the start, saving where the group was.
      const moved = await measured(
        'replay',
        '--group',
        GROUP,
        '--topic',
        TOPIC,
        '--to-earliest',
        '--export',
        file,
        '--execute',
      );
      expect(moved).toMatchObject({ code: 0 });
      expect(moved.out).toMatch(new RegExp(`\\b${EVENTS} event\\(s\\) will be delivered again, 0 skipped`));
      expect(peakRss(moved.out)).toBeLessThan(300);
      expect(Object.values(await committedOffsets(admin, group, topic)).every((o) => o === 0)).toBe(true);
      // The file names the topics without the deployment's prefix, with the offsets the group had.
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        group: string;
        offsets: { topic: string; partition: number; offset: number }[];
      };
      expect(saved.group).toBe(GROUP);
      expect(Object.fromEntries(saved.offsets.map((o) => [o.partition, o.offset]))).toEqual(ends);
      expect(new Set(saved.offsets.map((o) => o.topic))).toEqual(new Set([TOPIC]));

      // Undone from the file: exactly the saved offsets again.
      const restored = await measured('replay', '--from-file', file, '--execute');
      expect(restored).toMatchObject({ code: 0 });
      expect(await committedOffsets(admin, group, topic)).toEqual(ends);

      // The offset replay itself: the group reads the whole range again, and every event was applied already.
      expect(await measured('replay', '--group', GROUP, '--topic', TOPIC, '--to-earliest', '--execute')).toMatchObject({
        code: 0,
      });
      await stack.startApp('split-ledger-service');
      await waitFor('the ledger to read the range again', async () => (await totalLag()) === 0, {
        timeoutMs: 300_000,
        intervalMs: 500,
      });
      expect(await committedOffsets(admin, group, topic)).toEqual(ends);
      expect(await processed()).toBe(applied);
      expect(await ledger("SELECT count(*)::int AS n FROM ledger_transactions WHERE status = 'success'")).toBe(
        EVENTS / 2,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      // The next test needs the ledger running, whatever happened here.
      if (!stack.app('split-ledger-service').running) await stack.startApp('split-ledger-service');
    }
  }, 900_000);

  it(`applies each of ${KILLED_EVENTS} replayed events once though the consumer is killed (-9) midway`, async () => {
    const processed = () => ledger('SELECT count(*)::int AS n FROM processed_events');
    // A business and transactions of their own: what the ledger made of them is theirs alone.
    const [business, firstTransaction] = [777_001, 5_000_000];
    const successes = () =>
      ledger(
        `SELECT count(*)::int AS n FROM ledger_transactions WHERE status = 'success' AND business_id = ${business}`,
      );
    // The daily totals as the dashboard reads them: compacted, plus the changes not compacted yet.
    const succeeded = () =>
      ledger(
        `SELECT COALESCE(sum(succeeded), 0)::int AS n FROM (
           SELECT succeeded FROM ledger_daily_totals WHERE business_id = ${business}
           UNION ALL SELECT succeeded FROM ledger_daily_totals_changes WHERE business_id = ${business}) AS parts`,
      );
    const processedBefore = await processed();
    const since = new Date().toISOString();
    await skipped(KILLED_EVENTS, business, firstTransaction);
    expect(await processed()).toBe(processedBefore);

    const replay = ops('replay', '--group', GROUP, '--topic', TOPIC, '--to-datetime', since, '--live', '--execute');
    // Killed once it has applied part of the copies: a bundle is then often applied in part.
    await waitFor('the ledger to apply part of the replay', async () => (await processed()) > processedBefore, {
      timeoutMs: 120_000,
      intervalMs: 20,
    });
    await stack.app('split-ledger-service').kill();
    // Midway: some of the copies applied, not all.
    expect(await processed()).toBeLessThan(processedBefore + KILLED_EVENTS);
    await stack.startApp('split-ledger-service');
    const done = await replay;
    process.stderr.write(`KILLED ${done.out.split('\n').slice(-3).join('\n')}\n`);
    expect(done.code).toBe(0);
    const counts = new RegExp(
      `${KILLED_EVENTS} event\\(s\\) replayed to ${GROUP}: (\\d+) applied, (\\d+) already applied, 0 dead-lettered`,
    ).exec(done.out);
    // Each event counted once: applied, or already applied when its chunk was applied but not yet reported.
    expect(Number(counts?.[1]) + Number(counts?.[2])).toBe(KILLED_EVENTS);
    await waitFor('every event applied', async () => (await processed()) === processedBefore + KILLED_EVENTS, {
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    // Each success applied once: one row each, counted once in the daily totals.
    expect(await successes()).toBe(KILLED_EVENTS / 2);
    expect(await succeeded()).toBe(KILLED_EVENTS / 2);
  }, 900_000);

  it(
    `lists and replays a dead-letter topic of ${LETTERS} messages page by page: each applied once, then removed`,
    async () => {
      const measured = (...args: string[]) => runOps(stack, args, 900_000, { OPS_REPORT_RSS: '1' });
      /** The command's wall time (start to exit, as an operator waits), rate and peak RSS, on stderr for the record. */
      const timed = async (...args: string[]) => {
        const started = performance.now();
        const result = await measured(...args);
        const seconds = (performance.now() - started) / 1000;
        process.stderr.write(
          `DLQ MEASURED ops ${args.join(' ')}: ${LETTERS} letters in ${seconds.toFixed(1)} s ` +
            `(${Math.round(LETTERS / seconds)} letters/s), peak ${peakRss(result.out)} MB RSS\n`,
        );
        return result;
      };
      const processed = () => ledger('SELECT count(*)::int AS n FROM processed_events');
      const before = await processed();
      await produceDeadLetters(stack, GROUP, TOPIC, LETTERS);
      const dlq = `${GROUP}.dlq`;

      const first = await measured('dlq', 'list', '--group', GROUP);
      expect(first.out).toContain(`${LETTERS} message(s) in ${dlq}`);
      expect(
        first.out.match(/^- \d+\/\d+ at \S+ from transaction\.status_changed partition \d offset \d+$/gm),
      ).toHaveLength(100);
      expect(first.out).toContain(`… and ${LETTERS - 100} more (--limit 0 shows all)`);
      const all = await timed('dlq', 'list', '--group', GROUP, '--limit', '0');
      expect(all.out.match(/^ {4}reason: database was down$/gm)).toHaveLength(LETTERS);
      expect(peakRss(all.out)).toBeLessThan(300);

      const dry = await timed('dlq', 'replay', '--group', GROUP);
      expect(dry.out).toContain(`${LETTERS} message(s) in ${dlq} (dry run: nothing is sent; add --execute)`);
      expect(await processed()).toBe(before);

      const replayed = await timed('dlq', 'replay', '--group', GROUP, '--execute');
      process.stderr.write(`DLQ ${replayed.out.split('\n').slice(-6).join('\n')}\n`);
      expect(replayed).toMatchObject({ code: 0 });
      expect(replayed.out).toContain(`${LETTERS} message(s) removed from ${dlq}`);
      expect(replayed.out).toContain(
        `${LETTERS} event(s) replayed to ${GROUP}: ${LETTERS} applied, 0 already applied, 0 dead-lettered`,
      );
      expect(peakRss(replayed.out)).toBeLessThan(300);
      expect(await processed()).toBe(before + LETTERS);
      expect((await ops('dlq', 'list', '--group', GROUP)).out).toContain(`0 message(s) in ${dlq}`);
    },
    Math.max(900_000, LETTERS * 15),
  );
});
