import pino from 'pino';
import type { Admin, Kafka } from 'kafkajs';
import { prefixed } from '@payments/contracts';
import { connectAdmin, createKafka } from '@payments/messaging';
import type { OpsConfig } from '../ops.config';

/** A connected admin client and the deployment's topic prefix; names on screen are without it. */
export class KafkaSession {
  constructor(
    readonly kafka: Kafka,
    readonly admin: Admin,
    readonly prefix: string,
  ) {}

  full(name: string): string {
    return prefixed(this.prefix, name);
  }

  base(name: string): string {
    return this.prefix && name.startsWith(this.prefix) ? name.slice(this.prefix.length) : name;
  }

  /** Names of this deployment (with the prefix) turned into names without it. */
  ownNames(names: string[]): string[] {
    return names.filter((n) => n.startsWith(this.prefix)).map((n) => this.base(n));
  }
}

/** The same client factory as the services, so TLS/SASL and timeouts are configured once. */
export async function withKafka<T>(config: OpsConfig, fn: (session: KafkaSession) => Promise<T>): Promise<T> {
  const logger = pino({ level: config.LOG_LEVEL }, pino.destination(2));
  const kafka = createKafka(
    // ops never creates topics: partitions and replication are not used.
    {
      brokers: config.KAFKA_BROKERS,
      clientId: `ops-cli-${process.pid}`,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      partitions: 1,
      replicationFactor: 1,
      createTopics: false,
      security: config,
    },
    logger,
  );
  const admin = await connectAdmin(kafka, config.KAFKA_BROKERS, config);
  try {
    return await fn(new KafkaSession(kafka, admin, config.KAFKA_TOPIC_PREFIX));
  } finally {
    await admin.disconnect();
  }
}
