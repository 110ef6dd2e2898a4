/**
 * The relay → consumer Kafka hop alone, with the services' producer and consumer settings (libs/messaging): an
 * open-loop producer sends through the relay's `sendBatch`, a consumer group waits `work` ms per fetch as if its inbox
 * transaction ran. Prints produce-ack and produce → `eachBatch` latencies, offset commits and fetches, for each
 * offset-commit mode. Needs Kafka only (KAFKA_BROKERS); topics get a private prefix:
 *   source .local/infra.env && bash scripts/with-node.sh node scripts/ts-run.js \
 *     tests/bench/kafka-hop.ts [seconds] [rate] [work]
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { Partitioners, type Consumer } from 'kafkajs';
import { createKafka, ensureTopics, type KafkaSettings } from '../../libs/messaging/src/kafka';
import { stats, runMain } from './load';

const SECONDS = Number(process.argv[2] ?? 10);
const RATE = Number(process.argv[3] ?? 100);
const WORK_MS = Number(process.argv[4] ?? 4);
const PARTITIONS = 6;

const round = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runMode(mode: 'per-batch' | 'interval'): Promise<Record<string, unknown>> {
  const prefix = `khop-${randomUUID().slice(0, 8)}.`;
  const settings: KafkaSettings = {
    brokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    clientId: `kafka-hop-${process.pid}`,
    topicPrefix: prefix,
    partitions: PARTITIONS,
    replicationFactor: 1,
    createTopics: true,
    security: {
      KAFKA_SSL: false,
      KAFKA_SSL_CA_FILE: '',
      KAFKA_SASL_MECHANISM: '',
      KAFKA_SASL_USERNAME: '',
      KAFKA_SASL_PASSWORD: '',
    },
  };
  const kafka = createKafka(settings, pino({ level: 'error' }));
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, settings, ['events']);
  const topic = `${prefix}events`;
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();

  const sentAt = new Map<string, number>();
  const hop: number[] = [];
  const acks: number[] = [];
  let commits = 0;
  let fetches = 0;
  const consumer: Consumer = kafka.consumer({
    groupId: `${prefix}group`,
    sessionTimeout: 10_000,
    heartbeatInterval: 2_000,
    allowAutoTopicCreation: false,
  });
  consumer.on(consumer.events.COMMIT_OFFSETS, () => commits++);
  consumer.on(consumer.events.FETCH, () => fetches++);
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
  await consumer.run({
    // per-batch: as kafkajs does with autoCommit (it commits after every batch, whatever the interval).
    autoCommit: mode === 'per-batch',
    autoCommitInterval: 1_000,
    partitionsConsumedConcurrently: 3,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
      const now = performance.now();
      for (const m of batch.messages) {
        const t = sentAt.get(m.value!.toString());
        if (t !== undefined) hop.push(now - t);
      }
      await sleep(WORK_MS);
      for (const m of batch.messages) resolveOffset(m.offset);
      if (mode === 'interval') await commitOffsetsIfNecessary();
    },
  });
  while (!joined) await sleep(50);

  const c0 = { commits, fetches };
  const total = SECONDS * RATE;
  const t0 = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const id = randomUUID();
    const started = performance.now();
    sentAt.set(id, started);
    sends.push(
      producer
        .sendBatch({
          acks: -1,
          topicMessages: [{ topic, messages: [{ key: id, value: id, headers: { 'event-id': id } }] }],
        })
        .then(() => void acks.push(performance.now() - started)),
    );
  }
  await Promise.all(sends);
  const deadline = Date.now() + 10_000;
  while (hop.length < total && Date.now() < deadline) await sleep(20);
  const h = stats(hop);
  const a = stats(acks);
  const result = {
    mode,
    received: `${hop.length}/${total}`,
    'ack p50/p99 ms': `${round(a.p50)} / ${round(a.p99)}`,
    'produce→eachBatch p50/p95/p99 ms': `${round(h.p50)} / ${round(h.p95)} / ${round(h.p99)}`,
    'offset commits/s': round((commits - c0.commits) / SECONDS),
    'fetches/s': round((fetches - c0.fetches) / SECONDS),
  };
  await consumer.disconnect();
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.deleteGroups([`${prefix}group`]).catch(() => undefined);
  await admin.disconnect();
  return result;
}

async function main(): Promise<void> {
  const order = (process.env.KAFKA_HOP_MODES ?? 'per-batch,interval,per-batch,interval').split(',') as (
    'per-batch' | 'interval'
  )[];
  for (const mode of order) console.log(JSON.stringify(await runMode(mode)));
}

runMain(main);
