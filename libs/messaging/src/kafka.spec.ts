import type { Admin, ITopicConfig } from 'kafkajs';
import { ensureTopics, newTopic, topicReplication, type KafkaSettings } from './kafka';

const settings = (over: Partial<KafkaSettings> = {}): KafkaSettings => ({
  brokers: '127.0.0.1:9092',
  clientId: 'spec',
  topicPrefix: 'p.',
  partitions: 6,
  replicationFactor: 0,
  minInsyncReplicas: 0,
  createTopics: true,
  security: {
    KAFKA_SSL: false,
    KAFKA_SSL_CA_FILE: '',
    KAFKA_SASL_MECHANISM: '',
    KAFKA_SASL_USERNAME: '',
    KAFKA_SASL_PASSWORD: '',
  } as unknown as KafkaSettings['security'],
  ...over,
});

describe('topicReplication', () => {
  it('keeps one copy and the broker default on one broker', () => {
    expect(topicReplication(1, settings())).toEqual({ replicationFactor: 1, minInsyncReplicas: undefined });
  });

  it('asks for three copies with two in sync on three brokers or more', () => {
    expect(topicReplication(3, settings())).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(topicReplication(5, settings())).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it('uses every broker of a two-broker cluster, with the broker default for in-sync replicas', () => {
    expect(topicReplication(2, settings())).toEqual({ replicationFactor: 2, minInsyncReplicas: undefined });
  });

  it('keeps an explicit replication factor whatever the cluster, and min.insync.replicas 2 from three copies', () => {
    expect(topicReplication(5, settings({ replicationFactor: 1 }))).toEqual({
      replicationFactor: 1,
      minInsyncReplicas: undefined,
    });
    expect(topicReplication(0, settings({ replicationFactor: 3 }))).toEqual({
      replicationFactor: 3,
      minInsyncReplicas: 2,
    });
    expect(topicReplication(5, settings({ replicationFactor: 5, minInsyncReplicas: 3 }))).toEqual({
      replicationFactor: 5,
      minInsyncReplicas: 3,
    });
  });

  it('refuses more in-sync replicas than copies', () => {
    expect(() => topicReplication(1, settings({ minInsyncReplicas: 2 }))).toThrow(
      /KAFKA_MIN_INSYNC_REPLICAS \(2\) is larger than the replication factor \(1\)/,
    );
  });

  it('gives the topic its min.insync.replicas only when there is one to set', () => {
    expect(newTopic('t', 6, { replicationFactor: 3, minInsyncReplicas: 2 })).toEqual({
      topic: 't',
      numPartitions: 6,
      replicationFactor: 3,
      configEntries: [{ name: 'min.insync.replicas', value: '2' }],
    });
    expect(newTopic('t', 6, { replicationFactor: 1, minInsyncReplicas: undefined })).toEqual({
      topic: 't',
      numPartitions: 6,
      replicationFactor: 1,
    });
  });
});

describe('ensureTopics', () => {
  /** An admin client of a cluster with `brokers` brokers that records what it is asked to create. */
  function adminOf(brokers: number) {
    const created: ITopicConfig[] = [];
    let describeCalls = 0;
    const admin = {
      listTopics: async () => created.map((t) => t.topic),
      describeCluster: async () => {
        describeCalls += 1;
        return {
          brokers: Array.from({ length: brokers }, (_, i) => ({ nodeId: i + 1, host: '127.0.0.1', port: 9092 + i })),
          controller: 1,
          clusterId: 'c',
        };
      },
      createTopics: async ({ topics }: { topics: ITopicConfig[] }) => {
        created.push(...topics);
        return true;
      },
      fetchTopicMetadata: async ({ topics }: { topics: string[] }) => ({
        topics: topics.map((name) => ({ name, partitions: [{ partitionId: 0, leader: 1, replicas: [1], isr: [1] }] })),
      }),
    } as unknown as Admin;
    return { admin, created, describeCalls: () => describeCalls };
  }

  it('creates the topics with the replication the cluster calls for when none is set', async () => {
    const three = adminOf(3);
    await ensureTopics(three.admin, settings(), ['a', 'b']);
    expect(three.created).toEqual([
      {
        topic: 'p.a',
        numPartitions: 6,
        replicationFactor: 3,
        configEntries: [{ name: 'min.insync.replicas', value: '2' }],
      },
      {
        topic: 'p.b',
        numPartitions: 6,
        replicationFactor: 3,
        configEntries: [{ name: 'min.insync.replicas', value: '2' }],
      },
    ]);
    const one = adminOf(1);
    await ensureTopics(one.admin, settings(), ['a']);
    expect(one.created).toEqual([{ topic: 'p.a', numPartitions: 6, replicationFactor: 1 }]);
  });

  it('does not ask the cluster when the replication factor is set', async () => {
    const three = adminOf(3);
    await ensureTopics(three.admin, settings({ replicationFactor: 1 }), ['a']);
    expect(three.created).toEqual([{ topic: 'p.a', numPartitions: 6, replicationFactor: 1 }]);
    expect(three.describeCalls()).toBe(0);
  });
});
