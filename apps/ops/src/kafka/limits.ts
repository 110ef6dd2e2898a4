import { ConfigResourceTypes } from 'kafkajs';
import type { KafkaSession } from './session';

/** Kafka's default of both settings, used only when the cluster does not say (never seen in practice). */
const KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

/**
 * The largest record batch a produce request to `topic` may carry: the topic's max.message.bytes (which overrides the
 * brokers' message.max.bytes), or the smallest broker value if the topic's cannot be read.
 */
export async function produceLimit(s: KafkaSession, topic: string): Promise<number> {
  const { brokers } = await s.admin.describeCluster();
  const { resources } = await s.admin.describeConfigs({
    includeSynonyms: false,
    resources: [
      { type: ConfigResourceTypes.TOPIC, name: s.full(topic), configNames: ['max.message.bytes'] },
      ...brokers.map((b) => ({
        type: ConfigResourceTypes.BROKER,
        name: String(b.nodeId),
        configNames: ['message.max.bytes'],
      })),
    ],
  });
  const valuesOf = (type: ConfigResourceTypes) =>
    resources
      .filter((r) => r.resourceType === type)
      .flatMap((r) => r.configEntries.map((e) => Number(e.configValue)))
      .filter((n) => Number.isFinite(n) && n > 0);
  const [topicLimit] = valuesOf(ConfigResourceTypes.TOPIC);
  const brokerLimits = valuesOf(ConfigResourceTypes.BROKER);
  return topicLimit ?? (brokerLimits.length > 0 ? Math.min(...brokerLimits) : KAFKA_DEFAULT_MAX_MESSAGE_BYTES);
}
