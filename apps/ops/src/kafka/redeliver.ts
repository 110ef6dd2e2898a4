import { randomUUID } from 'node:crypto';
import { Partitioners, type IHeaders, type Producer } from 'kafkajs';
import {
  REPLAY_RESULTS_TOPIC,
  ReplayHeaders,
  formatReplayOrigin,
  replayTopic,
  type ReplayResult,
  type ReplayResultRanges,
} from '@payments/contracts';
import { InterruptedError } from '../cli/errors';
import { Progress } from '../cli/progress';
import { chunkBySize } from './chunks';
import { produceLimit } from './limits';
import { OutcomeTally, type OutcomeCounts } from './outcome-tally';
import { readFrom, type ReadEnd } from './reader';
import type { KafkaSession } from './session';

/** One record to deliver again, with the coordinates it was first published at. */
export interface ReplayRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
  sourceTopic: string;
  sourcePartition: number;
  sourceOffset: string;
}

/** Records per produce request at most (see send()). */
const CHUNK_RECORDS = 500;

export type { OutcomeCounts } from './outcome-tally';

/**
 * Delivers records to ONE consumer group through its replay topic and collects what its idempotent
 * consumer did with each (applied, already applied, dead-lettered again). Chunks stay under the
 * replay topic's size limit as the cluster states it: a batch fetched whole could exceed it once
 * the replay headers are added.
 */
export class Redelivery {
  readonly run = randomUUID();
  private producer: Producer | undefined;
  private resultStarts = new Map<number, number>();
  private limit = 0;
  private partitions = 0;
  sent = 0;
  /** The next record's replay-seq (records are numbered as they are handed to send()). */
  private sequence = 0;

  constructor(
    private readonly s: KafkaSession,
    private readonly group: string,
  ) {}

  /** Notes where this run's results will start before anything is sent, so none is missed. */
  async open(): Promise<void> {
    const offsets = await this.s.admin.fetchTopicOffsets(this.s.full(REPLAY_RESULTS_TOPIC));
    this.resultStarts = new Map(offsets.map((o) => [o.partition, Number(o.high)]));
    this.limit = await produceLimit(this.s, replayTopic(this.group));
    const [meta] = (await this.s.admin.fetchTopicMetadata({ topics: [this.s.full(replayTopic(this.group))] })).topics;
    this.partitions = meta.partitions.length;
    this.producer = this.s.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await this.producer.connect();
  }

  /**
   * Sends the records in order; `sent` counts each chunk once acknowledged. A record goes to the
   * replay partition of its source partition (modulo the count): a key's records all come from one
   * source partition, so per-key order holds without hashing. Chunks stay small because kafkajs
   * groups a request's records per partition in time quadratic in their number.
   */
  async send(records: ReplayRecord[], onChunk: () => void = () => undefined): Promise<void> {
    const messages = records.map((r) => ({
      key: r.key,
      value: r.value,
      partition: r.sourcePartition >= 0 ? r.sourcePartition % this.partitions : undefined,
      // One header for the replay's fields (each header costs kafkajs a buffer of its own).
      headers: {
        ...r.headers,
        [ReplayHeaders.Origin]: formatReplayOrigin({
          run: this.run,
          seq: this.sequence++,
          partition: r.sourcePartition,
          offset: r.sourceOffset,
          topic: r.sourceTopic,
        }),
      },
      record: r,
    }));
    const describe = (m: (typeof messages)[number]) =>
      `${this.s.base(m.record.sourceTopic)} partition ${m.record.sourcePartition} offset ${m.record.sourceOffset}`;
    for (const chunk of chunkBySize(messages, this.limit, CHUNK_RECORDS, describe)) {
      // kafkajs reads key, value, partition and headers; `record` rides along for the error message.
      await this.producer!.send({ topic: this.s.full(replayTopic(this.group)), acks: -1, messages: chunk });
      this.sent += chunk.length;
      onChunk();
    }
  }

  async close(): Promise<void> {
    await this.producer?.disconnect();
  }

  /** Waits until the group reported an outcome for every record sent; fails only when none came for `stallMs`. */
  async outcomes(stallMs: number): Promise<OutcomeCounts> {
    const tally = new OutcomeTally(this.sequence);
    const { counts } = tally;
    const total = () => tally.total;
    const progress = new Progress(`applying in ${this.group}`, this.sent, { unit: 'events' });
    const detail = () =>
      `applied ${counts.applied}, already applied ${counts.duplicate}, dead-lettered ${counts.dead_lettered}`;
    let end: ReadEnd = 'done';
    try {
      end = await readFrom(
        this.s,
        REPLAY_RESULTS_TOPIC,
        this.resultStarts,
        async (_partition, messages) => {
          let mine = false;
          for (const m of messages) {
            if (m.key?.toString() !== this.run) continue;
            mine = true;
            tally.addMessage(JSON.parse(m.value?.toString() ?? '{}') as ReplayResult | ReplayResultRanges);
          }
          progress.update(total(), detail());
          return mine;
        },
        () => tally.total >= this.sent,
        {
          stallMs,
          what:
            `waiting for ${this.group} to apply the ${this.sent} replayed event(s) (${total()} so far); ` +
            'are its consumers running?',
        },
      );
    } finally {
      progress.stop(detail());
    }
    if (end === 'interrupted') {
      throw new InterruptedError(
        `interrupted while ${this.group} applies the ${this.sent} event(s) sent: ` +
          `${total()} reported so far (${detail()}); the rest is applied all the same`,
      );
    }
    return counts;
  }
}
