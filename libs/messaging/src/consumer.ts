import { CrashRestarter } from './crash-restarter';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { type DataSource, isConnectionError, type PreparedStatement } from '@payments/database';
import { deadLetterTopic, replayTopic, type EventEnvelope, type ReplayOutcome } from '@payments/contracts';
import { eventsConsumed, runWithContext } from '@payments/platform';
import type { AfterCommit, ConsumerOptions, EventHandler, MessageMeta } from './consumer-options';
import { FetchCommit } from './fetch-commit';
import { OffsetCommitter } from './offset-committer';
import { sendToDeadLetter } from './dead-letter';
import { type Decoded, decodeMessage, replayEntries, reportReplayOutcomes, runsOf } from './replay';

class StoppingError extends Error {}
const DEFAULT_PARTITIONS_AT_ONCE = 3;
const DEFAULT_MAX_BATCH = 500;
const IDLE_FETCH_WAIT_MS = 1_000; // without `fetch` options: a stop waits at most this long
/** How long a resolved offset may stay uncommitted (what a restart or rebalance redelivers, at most). */
const OFFSET_COMMIT_INTERVAL_MS = 1_000;

/**
 * The inbox: an event's id recorded for the consumer group, in the transaction of its effect; the ids returned are
 * those not recorded before. Prepared under a name, so each connection parses and plans it once instead of on every
 * consumer transaction (docs/benchmarks.md, twenty-sixth round).
 */
const RECORD_EVENTS: PreparedStatement = {
  name: 'inbox_record_events',
  text:
    'INSERT INTO processed_events (consumer_group, event_id, topic)' +
    ' SELECT $1, unnest($2::text[]), unnest($3::text[]) ON CONFLICT DO NOTHING RETURNING event_id',
};
/** One event's inbox record (the one-at-a-time path after a failed batch). */
const RECORD_EVENT: PreparedStatement = {
  name: 'inbox_record_event',
  text:
    'INSERT INTO processed_events (consumer_group, event_id, topic)' +
    ' VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id',
};

/** Wait before trying again after the attempt-th failure in a row. */
const backoffMs = (attempt: number): number => Math.min(200 * 2 ** Math.min(attempt, 6), 5_000);

/**
 * A Kafka consumer that applies each event exactly once: the event id goes into processed_events in the effect's
 * transaction, so redelivery, replay and crashes are harmless. A failed batch is retried one event at a time, so a
 * poison message alone is dead-lettered; while the database is unreachable the batch waits whole.
 */
export class IdempotentConsumer {
  private consumer: Consumer | undefined;
  private stopping = false;
  private readonly crashes: CrashRestarter;
  private readonly fetchCommit: FetchCommit;
  private readonly offsets: OffsetCommitter;

  constructor(
    private readonly kafka: Kafka,
    private readonly ds: DataSource,
    private readonly dlqProducer: Producer,
    private readonly options: ConsumerOptions,
    private readonly logger: Logger,
  ) {
    this.offsets = new OffsetCommitter(OFFSET_COMMIT_INTERVAL_MS, logger);
    this.crashes = new CrashRestarter(() => this.start(), logger, `${options.topicPrefix}${options.group}`);
    this.fetchCommit = new FetchCommit(
      ds,
      async (manager, ids, topics) => {
        const inserted: { event_id: string }[] = await manager.query(RECORD_EVENTS, [options.group, ids, topics]);
        return new Set(inserted.map((r) => r.event_id));
      },
      {
        concurrency: options.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS_AT_ONCE,
        fullAt: options.maxBatch ?? DEFAULT_MAX_BATCH,
      },
      options.transaction,
    );
  }

  get groupId(): string {
    return `${this.options.topicPrefix}${this.options.group}`;
  }

  get deadLetterTopic(): string {
    return `${this.options.topicPrefix}${deadLetterTopic(this.options.group)}`;
  }

  /** Joins the group and consumes; a consumer left by a failed start or a crash is let go first. */
  async start(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
    const session = this.options.sessionTimeoutMs;
    this.consumer = this.kafka.consumer({
      groupId: this.groupId,
      sessionTimeout: session,
      heartbeatInterval: Math.max(500, Math.floor(session / 5)),
      rebalanceTimeout: Math.max(session, 10_000),
      allowAutoTopicCreation: false,
      retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 5_000 },
      // kafkajs cannot abort a fetch: a stop waits for it (its default 5 s wait made stops slow).
      minBytes: this.options.fetch?.minBytes ?? 1,
      maxWaitTimeInMs: this.options.fetch?.maxWaitMs ?? IDLE_FETCH_WAIT_MS,
    });
    const consumer = this.consumer;
    this.crashes.watch(consumer, () => this.consumer === consumer);
    await this.consumer.connect();
    await this.consumer.subscribe({
      // The replay topic delivers records to this group only (ops live and dead-letter replays).
      topics: [...Object.keys(this.options.handlers), replayTopic(this.options.group)].map(
        (t) => `${this.options.topicPrefix}${t}`,
      ),
      // A new group must see events published before it first joined.
      fromBeginning: true,
    });
    await this.consumer.run({
      // Offsets are committed by OffsetCommitter on its interval, not by kafkajs after every batch.
      autoCommit: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS_AT_ONCE,
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        try {
          await this.onBatch(payload);
        } finally {
          // While stopping, the batch in flight commits before kafkajs leaves the group.
          if (this.stopping) await this.offsets.flush();
          else this.offsets.resolved(payload);
        }
      },
    });
  }

  /** Stops fetching, lets the message in flight finish, commits offsets and leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.crashes.stop();
    await this.offsets.flush();
    await this.consumer?.disconnect();
    this.offsets.close();
  }

  private base(topic: string): string {
    return topic.startsWith(this.options.topicPrefix) ? topic.slice(this.options.topicPrefix.length) : topic;
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    if (batch.topic === `${this.options.topicPrefix}${replayTopic(this.options.group)}`)
      return this.onReplayBatch(payload);
    const { topic, partition } = batch;
    const handler = this.options.handlers[this.base(topic)];
    const size = this.options.maxBatch ?? DEFAULT_MAX_BATCH;
    for (let i = 0; i < batch.messages.length; i += size) {
      if (!isRunning() || isStale()) return;
      this.throwIfStopping('batch');
      const chunk = batch.messages.slice(i, i + size).map((m) => decodeMessage(m));
      const valid = chunk.filter((d) => d.event && handler);
      const together =
        valid.length > 0
          ? await this.applyTogether(
              valid.map((d) => ({ event: d.event!, meta: { topic, partition, offset: d.message.offset } })),
              handler!,
              payload,
            )
          : null;
      if (together === 'lost') return;
      for (const d of chunk) {
        const meta: MessageMeta = { topic, partition, offset: d.message.offset };
        if (!together || !d.event || !handler) await this.onMessage(meta, d, handler, heartbeat);
        resolveOffset(d.message.offset);
      }
      await heartbeat().catch(() => undefined);
    }
  }

  /**
   * Applies events in one shared inbox transaction, waiting out an unreachable database: the ids applied
   * now; null when they must go one at a time (an event fails); 'lost' when the batch is not ours any more.
   */
  private async applyTogether(
    items: { event: EventEnvelope; meta: MessageMeta }[],
    handler: EventHandler,
    { heartbeat, isRunning, isStale }: EachBatchPayload,
  ): Promise<Set<string> | null | 'lost'> {
    const { topic, partition } = items[0].meta;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.applyBatch(items, handler);
      } catch (err) {
        // While the database is unreachable the batch waits whole: one at a time would only multiply the waiting.
        if (isConnectionError(err)) {
          await this.backOff(attempt, heartbeat, (delay) =>
            this.logger.warn(
              { err, topic, partition, count: items.length, attempt, delay },
              'database unreachable; retrying the batch',
            ),
          );
          if (!isRunning() || isStale()) return 'lost';
          this.throwIfStopping('batch');
          continue;
        }
        this.logger.warn(
          { err, topic, partition, count: items.length },
          'batch failed; applying its events one at a time',
        );
        return null;
      }
    }
  }

  /**
   * Records ops copied into the replay topic, applied like the originals (same handlers, same inbox). A chunk's
   * outcomes go to replay.results before its offsets move: a crash in between reports them again, never loses one.
   */
  private async onReplayBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const size = this.options.maxBatch ?? DEFAULT_MAX_BATCH;
    const entries = replayEntries(batch.topic, batch.messages);
    for (let i = 0; i < entries.length; i += size) {
      if (!isRunning() || isStale()) return;
      this.throwIfStopping('batch');
      const records = entries.slice(i, i + size).map(({ message, origin, problem, resolves }) => ({
        origin,
        resolves,
        decoded: problem ? { message, problem } : decodeMessage(message),
        meta: { topic: origin.topic, partition: origin.partition, offset: origin.offset } as MessageMeta,
      }));
      const outcomes: ReplayOutcome[] = [];
      for (const run of runsOf(records, (r) => r.origin.topic)) {
        const handler: EventHandler | undefined = this.options.handlers[this.base(run[0].origin.topic)];
        const valid = handler !== undefined && run.every((r) => r.decoded.event) ? run : [];
        const applied =
          valid.length > 0
            ? await this.applyTogether(
                valid.map((r) => ({ event: r.decoded.event!, meta: r.meta })),
                handler!,
                payload,
              )
            : null;
        if (applied === 'lost') return;
        for (const r of run) {
          // An id applied now counts as applied once; a second copy of it in the same run is a duplicate.
          if (applied) outcomes.push(applied.delete(r.decoded.event!.id) ? 'applied' : 'duplicate');
          else outcomes.push(await this.onMessage(r.meta, r.decoded, handler, heartbeat));
        }
      }
      await reportReplayOutcomes(
        this.dlqProducer,
        this.options.topicPrefix,
        this.options.group,
        records.map((r, k) => ({ origin: r.origin, outcome: outcomes[k] })),
      );
      // A bundle's offset moves once its last record is handled.
      for (const r of records) if (r.resolves !== undefined) resolveOffset(r.resolves);
      await heartbeat().catch(() => undefined);
    }
  }

  private async onMessage(
    meta: MessageMeta,
    { message, event, problem }: Decoded,
    handler: EventHandler | undefined,
    heartbeat: () => Promise<void>,
  ): Promise<ReplayOutcome> {
    const base = this.base(meta.topic);
    if (!event || !handler) return this.deadLetter(meta, message, problem ?? `no handler for topic ${base}`);

    return runWithContext({ correlation_id: event.correlation_id ?? undefined, event_id: event.id }, async () => {
      const maxAttempts = this.options.maxAttempts ?? 5;
      for (let attempt = 1; ; attempt++) {
        this.throwIfStopping('message');
        try {
          const applied = await this.applyOnce(event, handler, meta);
          eventsConsumed.inc({ group: this.options.group, topic: base, outcome: applied ? 'applied' : 'duplicate' });
          if (applied) this.options.afterCommit?.();
          return applied ? 'applied' : 'duplicate';
        } catch (err) {
          const transient = isConnectionError(err);
          if (!transient && attempt >= maxAttempts) {
            this.logger.error(
              { err, ...meta, attempt },
              'event failed after its retries; sending to the dead-letter topic',
            );
            return this.deadLetter(meta, message, (err as Error).message);
          }
          await this.backOff(attempt, heartbeat, (delay) =>
            this.logger.warn({ err, ...meta, attempt, transient, delay }, 'event failed; retrying'),
          );
        }
      }
    });
  }

  /**
   * Waits before trying again after the attempt-th failure in a row (said by `log`, given the
   * wait), then heartbeats so the group keeps the partition while the batch or message waits.
   */
  private async backOff(attempt: number, heartbeat: () => Promise<void>, log: (delay: number) => void): Promise<void> {
    const delay = backoffMs(attempt);
    log(delay);
    await new Promise((r) => setTimeout(r, delay));
    await heartbeat().catch(() => undefined);
  }

  /** Once stopping, what is in flight is abandoned unresolved: Kafka redelivers it to the next owner. */
  private throwIfStopping(what: 'batch' | 'message'): void {
    if (this.stopping) throw new StoppingError(`consumer stopping; the ${what} will be redelivered`);
  }

  private async applyOnce(event: EventEnvelope, handler: EventHandler, meta: MessageMeta): Promise<boolean> {
    let then: AfterCommit | undefined;
    const applied = await this.ds.transaction(this.options.transaction ?? {}, async (manager) => {
      const inserted: unknown[] = await manager.query(RECORD_EVENT, [this.options.group, event.id, meta.topic]);
      if (inserted.length === 0) return false;
      then = (await handler(event, manager, meta)) ?? undefined;
      return true;
    });
    if (then) this.afterCommit(then);
    return applied;
  }

  /** Applies new events of one partition in order, in the fetch's shared transaction; the ids applied now. */
  private async applyBatch(
    items: { event: EventEnvelope; meta: MessageMeta }[],
    handler: EventHandler,
  ): Promise<Set<string>> {
    const base = this.base(items[0].meta.topic);
    const { applied, appliedIds, thens } = await this.fetchCommit.submit({
      items,
      handler,
      batchHandler: this.options.batchHandlers?.[base],
    });
    if (applied > 0) eventsConsumed.inc({ group: this.options.group, topic: base, outcome: 'applied' }, applied);
    if (items.length > applied)
      eventsConsumed.inc({ group: this.options.group, topic: base, outcome: 'duplicate' }, items.length - applied);
    for (const then of thens) this.afterCommit(then);
    if (applied > 0) this.options.afterCommit?.();
    return appliedIds;
  }

  /** The events are committed whatever happens here: a failing follow-up must not fail their batch. */
  private afterCommit(then: AfterCommit): void {
    try {
      then();
    } catch (err) {
      this.logger.error({ err }, 'after-commit action failed');
    }
  }

  /** Keeps the key and the message's own headers so a dead-letter replay delivers it unchanged. */
  private async deadLetter(meta: MessageMeta, message: KafkaMessage, reason: string): Promise<'dead_lettered'> {
    await sendToDeadLetter(this.dlqProducer, this.deadLetterTopic, this.options.group, meta, message, reason);
    eventsConsumed.inc({ group: this.options.group, topic: meta.topic, outcome: 'dead_lettered' });
    this.logger.error({ ...meta, reason }, 'message sent to the dead-letter topic');
    return 'dead_lettered';
  }
}
