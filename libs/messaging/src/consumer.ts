import { CrashRestarter } from './crash-restarter';
import type { Consumer, EachBatchPayload, Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from '@payments/database';
import { replayTopic, type ReplayOutcome } from '@payments/contracts';
import type { ConsumerOptions, EventHandler, MessageMeta } from './consumer-options';
import { DEFAULT_MAX_BATCH, DEFAULT_PARTITIONS_AT_ONCE, EventApplier } from './event-applier';
import { OffsetCommitter } from './offset-committer';
import { decodeMessage, replayOrigin, reportReplayOutcomes, runsOf } from './replay';

const IDLE_FETCH_WAIT_MS = 1_000; // without `fetch` options: a stop waits at most this long
/** How long a resolved offset may stay uncommitted (what a restart or rebalance redelivers, at most). */
const OFFSET_COMMIT_INTERVAL_MS = 1_000;

/**
 * A Kafka consumer that applies each event exactly once: the event id goes into processed_events in
 * the same transaction as the effect, so redelivery, replay and a crash between DB commit and offset
 * commit are harmless. A batch shares one transaction with the fetch's other partitions (FetchCommit);
 * if it fails, its events go one at a time and a poison message is dead-lettered after `maxAttempts`.
 * While the database is unreachable the batch is not split: the partition backs off and retries it.
 */
export class IdempotentConsumer {
  private consumer: Consumer | undefined;
  private stopping = false;
  private readonly crashes: CrashRestarter;
  private readonly applier: EventApplier;
  private readonly offsets: OffsetCommitter;

  constructor(
    private readonly kafka: Kafka,
    ds: DataSource,
    private readonly dlqProducer: Producer,
    private readonly options: ConsumerOptions,
    logger: Logger,
  ) {
    this.offsets = new OffsetCommitter(OFFSET_COMMIT_INTERVAL_MS, logger);
    this.crashes = new CrashRestarter(() => this.start(), logger, `${options.topicPrefix}${options.group}`);
    this.applier = new EventApplier(ds, dlqProducer, options, logger, () => this.stopping);
  }

  get groupId(): string {
    return `${this.options.topicPrefix}${this.options.group}`;
  }

  get deadLetterTopic(): string {
    return this.applier.deadLetterTopic;
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

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    if (batch.topic === `${this.options.topicPrefix}${replayTopic(this.options.group)}`)
      return this.onReplayBatch(payload);
    const { topic, partition } = batch;
    const handler = this.options.handlers[this.applier.base(topic)];
    const size = this.options.maxBatch ?? DEFAULT_MAX_BATCH;
    for (let i = 0; i < batch.messages.length; i += size) {
      if (!isRunning() || isStale()) return;
      this.applier.throwIfStopping('batch');
      const chunk = batch.messages.slice(i, i + size).map((m) => decodeMessage(m));
      const valid = chunk.filter((d) => d.event && handler);
      const together =
        valid.length > 0
          ? await this.applier.applyTogether(
              valid.map((d) => ({ event: d.event!, meta: { topic, partition, offset: d.message.offset } })),
              handler!,
              payload,
            )
          : null;
      if (together === 'lost') return;
      for (const d of chunk) {
        const meta: MessageMeta = { topic, partition, offset: d.message.offset };
        if (!together || !d.event || !handler) await this.applier.onMessage(meta, d, handler, heartbeat);
        resolveOffset(d.message.offset);
      }
      await heartbeat().catch(() => undefined);
    }
  }

  /**
   * Records ops copied into this group's replay topic, applied like the records they copy (same
   * handlers, same inbox; a run of one source topic shares a transaction). A chunk's outcomes go to
   * ops in one request before its offsets move: a crash in between reports them again, never loses one.
   */
  private async onReplayBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const size = this.options.maxBatch ?? DEFAULT_MAX_BATCH;
    for (let i = 0; i < batch.messages.length; i += size) {
      if (!isRunning() || isStale()) return;
      this.applier.throwIfStopping('batch');
      const records = batch.messages.slice(i, i + size).map((message) => {
        const origin = replayOrigin(batch.topic, message);
        return {
          message,
          origin,
          decoded: decodeMessage(message),
          meta: { topic: origin.topic, partition: origin.partition, offset: origin.offset } as MessageMeta,
        };
      });
      const outcomes: ReplayOutcome[] = [];
      for (const run of runsOf(records, (r) => r.origin.topic)) {
        const handler: EventHandler | undefined = this.options.handlers[this.applier.base(run[0].origin.topic)];
        const valid = handler !== undefined && run.every((r) => r.decoded.event) ? run : [];
        const applied =
          valid.length > 0
            ? await this.applier.applyTogether(
                valid.map((r) => ({ event: r.decoded.event!, meta: r.meta })),
                handler!,
                payload,
              )
            : null;
        if (applied === 'lost') return;
        for (const r of run) {
          // An id applied now counts as applied once; a second copy of it in the same run is a duplicate.
          if (applied) outcomes.push(applied.delete(r.decoded.event!.id) ? 'applied' : 'duplicate');
          else outcomes.push(await this.applier.onMessage(r.meta, r.decoded, handler, heartbeat));
        }
      }
      await reportReplayOutcomes(
        this.dlqProducer,
        this.options.topicPrefix,
        this.options.group,
        records.map((r, k) => ({ origin: r.origin, outcome: outcomes[k] })),
      );
      for (const r of records) resolveOffset(r.message.offset);
      await heartbeat().catch(() => undefined);
    }
  }
}
