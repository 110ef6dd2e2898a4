import { Kafka, logLevel, type Admin, type ITopicConfig, type LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import { DependencyUnavailableError } from '@payments/database';
import { kafkaConnectHint, kafkaSecurityOptions, type KafkaSecuritySettings } from './kafka-security';
import { fixKafkajsNegativeTimer } from './kafkajs-timer';

export interface KafkaSettings {
  brokers: string;
  clientId: string;
  topicPrefix: string;
  partitions: number;
  replicationFactor: number;
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
  fixKafkajsNegativeTimer();
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
        const lvl = LEVELS[level] === 'error' && /rebalanc|coordinator|not the leader/i.test(message) ? 'warn' : LEVELS[level] ?? 'info';
        log[lvl](rest, message);
      },
  });
}

/**
 * Creates missing topics with the configured partition count; existing topics are left alone.
 * Several services boot at once and race to create the same topics, so this retries until every
 * topic exists with a leader on each partition.
 */
export async function ensureTopics(admin: Admin, settings: KafkaSettings, names: string[], deadlineMs = 30_000): Promise<void> {
  const topics = [...new Set(names.map((n) => (settings.topicPrefix ? `${settings.topicPrefix}${n}` : n)))];
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = new Set(await admin.listTopics());
      if (!settings.createTopics) {
        const missing = topics.filter((n) => !existing.has(n));
        if (missing.length > 0) {
          throw new DependencyUnavailableError(
            'Kafka',
            settings.brokers,
            `topics missing and KAFKA_CREATE_TOPICS=false: ${missing.join(', ')}`,
            `Create them (${settings.partitions} partitions, replication factor ${settings.replicationFactor}) or set KAFKA_CREATE_TOPICS=true`,
          );
        }
      }
      const wanted: ITopicConfig[] = topics
        .filter((n) => !existing.has(n))
        .map((topic) => ({ topic, numPartitions: settings.partitions, replicationFactor: settings.replicationFactor }));
      if (wanted.length > 0) await admin.createTopics({ topics: wanted, waitForLeaders: false });
      const meta = await admin.fetchTopicMetadata({ topics });
      const leaderless = meta.topics.filter((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0));
      if (leaderless.length === 0) return;
      throw new Error(`no leader yet for ${leaderless.map((t) => t.name).join(', ')}`);
    } catch (err) {
      if (err instanceof DependencyUnavailableError) throw err;
      if (Date.now() > deadline) throw new Error(`could not create Kafka topics ${topics.join(', ')}: ${(err as Error).message}`);
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
      security ? kafkaConnectHint(err, security) : 'Start it with `npm run infra:up` or point KAFKA_BROKERS at a running broker',
    );
  }
  return admin;
}
