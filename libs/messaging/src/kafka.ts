import { Kafka, logLevel, type Admin, type ITopicConfig, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import { DependencyUnavailableError } from '@payments/database';
import { kafkaConnectHint, kafkaSecurityOptions, type KafkaSecuritySettings } from './kafka-security';
import { fixKafkajsTimers } from './kafkajs-timer';

export interface KafkaSettings {
  brokers: string;
  clientId: string;
  topicPrefix: string;
  partitions: number;
  /** Copies of each partition of the topics created here; 0: from the cluster (topicReplication). */
  replicationFactor: number;
  /** min.insync.replicas of the topics created here; 0 or unset: 2 with three copies or more, else the broker's. */
  minInsyncReplicas?: number;
  /** false: topics must exist already (managed Kafka without topic-creation rights). */
  createTopics: boolean;
  security: KafkaSecuritySettings;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka(settings: KafkaSettings, logger: Logger): Kafka {
  fixKafkajsTimers();
  const log = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers.split(',').map((b) => b.trim()),
    ...kafkaSecurityOptions(settings.security),
    connectionTimeout: 3_000,
    requestTimeout: 15_000,
    retry: { initialRetryTime: 200, retries: 8, maxRetryTime: 5_000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        // kafkajs logs rebalances and retried requests as errors; they are normal operation.
        const lvl =
          LEVELS[level] === 'error' && /rebalanc|coordinator|not the leader/i.test(message)
            ? 'warn'
            : (LEVELS[level] ?? 'info');
        log[lvl](rest, message);
      },
  });
}

export interface TopicReplication {
  replicationFactor: number;
  /** Undefined: the topic gets no min.insync.replicas of its own (the broker's default applies). */
  minInsyncReplicas: number | undefined;
}

/**
 * The replication of new topics: an explicit factor, or for 0 three copies with three brokers or more, else one per
 * broker. With three copies or more, min.insync.replicas defaults to 2, so an acknowledged write (acks=-1) is on two
 * brokers and one broker may be down without refusing writes.
 */
export function topicReplication(
  brokerCount: number,
  settings: Pick<KafkaSettings, 'replicationFactor' | 'minInsyncReplicas'>,
): TopicReplication {
  const replicationFactor =
    settings.replicationFactor > 0 ? settings.replicationFactor : Math.min(3, Math.max(1, brokerCount));
  const minInsyncReplicas =
    settings.minInsyncReplicas && settings.minInsyncReplicas > 0
      ? settings.minInsyncReplicas
      : replicationFactor >= 3
        ? 2
        : undefined;
  if (minInsyncReplicas !== undefined && minInsyncReplicas > replicationFactor) {
    throw new Error(
      `KAFKA_MIN_INSYNC_REPLICAS (${minInsyncReplicas}) is larger than the replication factor ` +
        `(${replicationFactor}): no write could ever succeed`,
    );
  }
  return { replicationFactor, minInsyncReplicas };
}

/** What topicReplication gives on this cluster: asks for the broker count only when the factor is not set. */
export async function clusterTopicReplication(admin: Admin, settings: KafkaSettings): Promise<TopicReplication> {
  const brokers = settings.replicationFactor > 0 ? 0 : (await admin.describeCluster()).brokers.length;
  return topicReplication(brokers, settings);
}

/** The createTopics entry of a new topic. */
export function newTopic(topic: string, partitions: number, replication: TopicReplication): ITopicConfig {
  return {
    topic,
    numPartitions: partitions,
    replicationFactor: replication.replicationFactor,
    ...(replication.minInsyncReplicas !== undefined
      ? { configEntries: [{ name: 'min.insync.replicas', value: String(replication.minInsyncReplicas) }] }
      : {}),
  };
}

/**
 * Creates missing topics with the configured partition count and replication (topicReplication);
 * existing topics are left alone. Several services boot at once and race to create the same topics,
 * so this retries until every topic exists with a leader on each partition.
 */
export async function ensureTopics(
  admin: Admin,
  settings: KafkaSettings,
  names: string[],
  deadlineMs = 30_000,
): Promise<void> {
  const topics = [...new Set(names.map((n) => (settings.topicPrefix ? `${settings.topicPrefix}${n}` : n)))];
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = new Set(await admin.listTopics());
      if (!settings.createTopics) {
        const missing = topics.filter((n) => !existing.has(n));
        if (missing.length > 0) {
          const wanted =
            settings.replicationFactor > 0
              ? `replication factor ${settings.replicationFactor}`
              : 'replication factor 3 and min.insync.replicas=2 on three brokers or more';
          throw new DependencyUnavailableError(
            'Kafka',
            settings.brokers,
            `topics missing and KAFKA_CREATE_TOPICS=false: ${missing.join(', ')}`,
            `Create them (${settings.partitions} partitions, ${wanted}) or set KAFKA_CREATE_TOPICS=true`,
          );
        }
      }
      const missing = topics.filter((n) => !existing.has(n));
      if (missing.length > 0) {
        const replication = await clusterTopicReplication(admin, settings);
        await admin.createTopics({
          topics: missing.map((topic) => newTopic(topic, settings.partitions, replication)),
          waitForLeaders: false,
        });
      }
      const meta = await admin.fetchTopicMetadata({ topics });
      const leaderless = meta.topics.filter((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0));
      if (leaderless.length === 0) return;
      throw new Error(`no leader yet for ${leaderless.map((t) => t.name).join(', ')}`);
    } catch (err) {
      if (err instanceof DependencyUnavailableError) throw err;
      if (Date.now() > deadline)
        throw new Error(`could not create Kafka topics ${topics.join(', ')}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, Math.min(100 * attempt, 1_000)));
    }
  }
}

/** Connects an admin client once to prove the cluster answers; a clear error names Kafka if not. */
export async function connectAdmin(kafka: Kafka, brokers: string, security?: KafkaSecuritySettings): Promise<Admin> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (err) {
    await admin.disconnect().catch(() => undefined);
    throw new DependencyUnavailableError(
      'Kafka',
      brokers,
      (err as Error).message,
      security
        ? kafkaConnectHint(err, security)
        : 'Start it with `npm run infra:up` or point KAFKA_BROKERS at a running broker',
    );
  }
  return admin;
}
