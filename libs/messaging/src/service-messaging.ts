import { Partitioners, type Admin, type Kafka, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource, TransactionOptions } from '@payments/database';
import type { ServiceConfig } from '@payments/config';
import { ALL_TOPICS, REPLAY_RESULTS_TOPIC, deadLetterTopic, replayTopic } from '@payments/contracts';
import { PollingWorker } from '@payments/platform';
import { IdempotentConsumer } from './consumer';
import { startRetrying } from './crash-restarter';
import type { BatchEventHandler, ConsumerFetch, EventHandler } from './consumer-options';
import { connectAdmin, createKafka, ensureTopics, type KafkaSettings } from './kafka';
import { OutboxNotifier } from './outbox-notifier';
import { OutboxRelay, cachedPartitionCounts } from './outbox';

export interface ConsumerSpec {
  group: string;
  handlers: Record<string, EventHandler>;
  /** Optional set-based handlers by topic, for a whole consumer batch (see ConsumerOptions). */
  batchHandlers?: Record<string, BatchEventHandler>;
  /** Runs after a consumer transaction that applied new events commits (wakes the next stage). */
  afterCommit?: () => void;
  /** Fetch batching (ConsumerOptions.fetch): only for a consumer whose latency does not matter. */
  fetch?: ConsumerFetch;
  /** How its transactions begin (ConsumerOptions.transaction). */
  transaction?: TransactionOptions;
}

export function kafkaSettings(config: ServiceConfig, clientId: string): KafkaSettings {
  return {
    brokers: config.KAFKA_BROKERS,
    clientId,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    partitions: config.KAFKA_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS,
    createTopics: config.KAFKA_CREATE_TOPICS,
    security: config,
  };
}

/**
 * The relay's loop: a tick after each wake (once the linger has passed), every OUTBOX_POLL_INTERVAL_MS while the relay
 * finds events or another replica's relay is at work, up to OUTBOX_IDLE_MAX_MS apart after it found the outbox empty.
 */
export function relayLoop(
  relay: Pick<OutboxRelay, 'tick'>,
  config: Pick<ServiceConfig, 'OUTBOX_POLL_INTERVAL_MS' | 'OUTBOX_IDLE_MAX_MS' | 'OUTBOX_RELAY_LINGER_MS'>,
  logger: Logger,
): PollingWorker {
  return new PollingWorker(
    'outbox-relay',
    () => relay.tick(),
    config.OUTBOX_POLL_INTERVAL_MS,
    logger,
    config.OUTBOX_IDLE_MAX_MS,
    config.OUTBOX_RELAY_LINGER_MS,
  );
}

/**
 * A service's Kafka side: admin and idempotent producer, the outbox relay (only when the service
 * publishes and OUTBOX_RELAY_ENABLED) and its consumers. Started after the service listens, stopped
 * in two steps around the servers' close so the relay publishes what the last requests wrote.
 */
export class ServiceMessaging {
  readonly notifier: OutboxNotifier;
  private readonly relay: OutboxRelay | undefined;
  private readonly relayWorker: PollingWorker | undefined;
  private consumers: IdempotentConsumer[] = [];

  private constructor(
    readonly kafka: Kafka,
    readonly admin: Admin,
    readonly producer: Producer,
    private readonly settings: KafkaSettings,
    private readonly ds: DataSource,
    private readonly logger: Logger,
    private readonly config: ServiceConfig,
    publishesEvents: boolean,
  ) {
    if (config.OUTBOX_RELAY_ENABLED && publishesEvents) {
      this.relay = new OutboxRelay(
        ds,
        producer,
        config.KAFKA_TOPIC_PREFIX,
        logger.child({ component: 'outbox-relay' }),
        cachedPartitionCounts(admin),
      );
      this.relayWorker = relayLoop(this.relay, config, logger);
    }
    this.notifier = new OutboxNotifier(this.relayWorker);
  }

  static async connect(
    name: string,
    config: ServiceConfig,
    ds: DataSource,
    logger: Logger,
    publishesEvents: boolean,
  ): Promise<ServiceMessaging> {
    const settings = kafkaSettings(config, `${name}-${process.pid}`);
    const kafka = createKafka(settings, logger);
    const admin = await connectAdmin(kafka, config.KAFKA_BROKERS, config);
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    return new ServiceMessaging(kafka, admin, producer, settings, ds, logger, config, publishesEvents);
  }

  /** Every catalogue topic plus each consumer group's dead-letter and replay topics. */
  ensureTopics(specs: ConsumerSpec[]): Promise<void> {
    return ensureTopics(this.admin, this.settings, [
      ...ALL_TOPICS,
      REPLAY_RESULTS_TOPIC,
      ...specs.flatMap((s) => [deadLetterTopic(s.group), replayTopic(s.group)]),
    ]);
  }

  async start(specs: ConsumerSpec[]): Promise<void> {
    this.relayWorker?.start();
    this.consumers = specs.map(
      (s) =>
        new IdempotentConsumer(
          this.kafka,
          this.ds,
          this.producer,
          {
            group: s.group,
            handlers: s.handlers,
            batchHandlers: s.batchHandlers,
            afterCommit: s.afterCommit,
            fetch: s.fetch,
            transaction: s.transaction,
            topicPrefix: this.config.KAFKA_TOPIC_PREFIX,
            sessionTimeoutMs: this.config.KAFKA_SESSION_TIMEOUT_MS,
          },
          this.logger.child({ component: 'consumer', group: s.group }),
        ),
    );
    await Promise.all(this.consumers.map((c) => startRetrying(() => c.start(), this.logger, c.groupId)));
  }

  /** Consumers stop fetching and commit the offsets of what they applied. */
  async stopConsuming(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.stop()));
  }

  /** The relay finishes its iteration and publishes once more; then the connections close. */
  async close(): Promise<void> {
    if (this.relayWorker) await this.relayWorker.stop();
    if (this.relay) await this.relay.drain(this.config.OUTBOX_POLL_INTERVAL_MS);
    await this.producer.disconnect();
    await this.admin.disconnect();
  }
}
