import type { EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { type DataSource, isConnectionError } from '@payments/database';
import { DeadLetterHeaders, deadLetterTopic, type EventEnvelope, type ReplayOutcome } from '@payments/contracts';
import { eventsConsumed, runWithContext } from '@payments/platform';
import type { AfterCommit, ConsumerOptions, EventHandler, MessageMeta } from './consumer-options';
import { FetchCommit } from './fetch-commit';
import { type Decoded, ownHeaders } from './replay';

class StoppingError extends Error {}
export const DEFAULT_PARTITIONS_AT_ONCE = 3;
export const DEFAULT_MAX_BATCH = 500;

/** Wait before trying again after the attempt-th failure in a row. */
const backoffMs = (attempt: number): number => Math.min(200 * 2 ** Math.min(attempt, 6), 5_000);

/**
 * How IdempotentConsumer applies events: a batch in the fetch's shared inbox transaction, or one
 * event at a time with retries, then the dead-letter topic. The event id is recorded in
 * processed_events in the same transaction as the effect, so a redelivery is a no-op.
 */
export class EventApplier {
  private readonly fetchCommit: FetchCommit;

  constructor(
    private readonly ds: DataSource,
    private readonly dlqProducer: Producer,
    private readonly options: ConsumerOptions,
    private readonly logger: Logger,
    private readonly isStopping: () => boolean,
  ) {
    this.fetchCommit = new FetchCommit(
      ds,
      async (manager, ids, topics) => {
        const inserted: { event_id: string }[] = await manager.query(
          'INSERT INTO processed_events (consumer_group, event_id, topic)' +
            ' SELECT $1, unnest($2::text[]), unnest($3::text[]) ON CONFLICT DO NOTHING RETURNING event_id',
          [options.group, ids, topics],
        );
        return new Set(inserted.map((r) => r.event_id));
      },
      {
        concurrency: options.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS_AT_ONCE,
        fullAt: options.maxBatch ?? DEFAULT_MAX_BATCH,
      },
    );
  }

  get deadLetterTopic(): string {
    return `${this.options.topicPrefix}${deadLetterTopic(this.options.group)}`;
  }

  /** A topic's name without the deployment prefix: what handlers are keyed by. */
  base(topic: string): string {
    return topic.startsWith(this.options.topicPrefix) ? topic.slice(this.options.topicPrefix.length) : topic;
  }

  /** Once stopping, what is in flight is abandoned unresolved: Kafka redelivers it to the next owner. */
  throwIfStopping(what: 'batch' | 'message'): void {
    if (this.isStopping()) throw new StoppingError(`consumer stopping; the ${what} will be redelivered`);
  }

  /**
   * Applies events in one shared inbox transaction, waiting out an unreachable database. Returns the ids
   * applied now; null when they must go one at a time (an event fails); 'lost' when the batch is not ours.
   */
  async applyTogether(
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

  /** Applies one event with retries; a message that cannot be applied goes to the dead-letter topic. */
  async onMessage(
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

  private async applyOnce(event: EventEnvelope, handler: EventHandler, meta: MessageMeta): Promise<boolean> {
    let then: AfterCommit | undefined;
    const applied = await this.ds.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        'INSERT INTO processed_events (consumer_group, event_id, topic)' +
          ' VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id',
        [this.options.group, event.id, meta.topic],
      );
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
    await this.dlqProducer.send({
      topic: this.deadLetterTopic,
      acks: -1,
      messages: [
        {
          key: message.key,
          value: message.value,
          headers: {
            ...ownHeaders(message.headers),
            [DeadLetterHeaders.Reason]: reason.slice(0, 1000),
            [DeadLetterHeaders.OriginalTopic]: meta.topic,
            [DeadLetterHeaders.OriginalPartition]: String(meta.partition),
            [DeadLetterHeaders.OriginalOffset]: meta.offset,
            [DeadLetterHeaders.ConsumerGroup]: this.options.group,
          },
        },
      ],
    });
    eventsConsumed.inc({ group: this.options.group, topic: meta.topic, outcome: 'dead_lettered' });
    this.logger.error({ ...meta, reason }, 'message sent to the dead-letter topic');
    return 'dead_lettered';
  }
}
