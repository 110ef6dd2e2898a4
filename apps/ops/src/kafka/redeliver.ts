import { randomUUID } from 'node:crypto';
import { Partitioners, type IHeaders, type Producer } from 'kafkajs';
import { REPLAY_RESULTS_TOPIC, ReplayHeaders, replayTopic, type ReplayOutcome, type ReplayResult } from '@payments/contracts';
import { InterruptedError } from '../cli/errors';
import { Progress } from '../cli/progress';
import { chunkBySize } from './chunks';
import { produceLimit } from './limits';
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

export type OutcomeCounts = Record<ReplayOutcome, number>;

/**
 * Delivers records to ONE consumer group through its replay topic and collects what its
 * idempotent consumer did with each (applied, already applied, dead-lettered again). Records go
 * out in chunks under the replay topic's size limit as the cluster states it, so a batch that was
 * fetched whole (up to the fetch size) is never produced as one request above the limit once the
 * replay headers are added.
 */
export class Redelivery {
  readonly run = randomUUID();
  private producer: Producer | undefined;
  private resultStarts = new Map<number, number>();
  private limit = 0;
  sent = 0;

  constructor(
    private readonly s: KafkaSession,
    private readonly group: string,
  ) {}

  /** Notes where this run's results will start before anything is sent, so none is missed. */
  async open(): Promise<void> {
    const offsets = await this.s.admin.fetchTopicOffsets(this.s.full(REPLAY_RESULTS_TOPIC));
    this.resultStarts = new Map(offsets.map((o) => [o.partition, Number(o.high)]));
    this.limit = await produceLimit(this.s, replayTopic(this.group));
    this.producer = this.s.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await this.producer.connect();
  }

  /** Sends the records in order, in as many requests as the size limit needs; `sent` counts each chunk once it is acknowledged. */
  async send(records: ReplayRecord[], onChunk: () => void = () => undefined): Promise<void> {
    const messages = records.map((r) => ({
      key: r.key,
      value: r.value,
      headers: {
        ...r.headers,
        [ReplayHeaders.Run]: this.run,
        [ReplayHeaders.SourceTopic]: r.sourceTopic,
        [ReplayHeaders.SourcePartition]: String(r.sourcePartition),
        [ReplayHeaders.SourceOffset]: r.sourceOffset,
      },
    }));
    const describe = (m: (typeof messages)[number]) => `${this.s.base(m.headers[ReplayHeaders.SourceTopic])} partition ${m.headers[ReplayHeaders.SourcePartition]} offset ${m.headers[ReplayHeaders.SourceOffset]}`;
    for (const chunk of chunkBySize(messages, this.limit, 5_000, describe)) {
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
    const counts: OutcomeCounts = { applied: 0, duplicate: 0, dead_lettered: 0 };
    const total = () => counts.applied + counts.duplicate + counts.dead_lettered;
    const progress = new Progress(`applying in ${this.group}`, this.sent, { unit: 'events' });
    const detail = () => `applied ${counts.applied}, already applied ${counts.duplicate}, dead-lettered ${counts.dead_lettered}`;
    let end: ReadEnd = 'done';
    try {
      end = await readFrom(
        this.s,
        REPLAY_RESULTS_TOPIC,
        this.resultStarts,
        async (_partition, messages) => {
          for (const m of messages) {
            if (m.key?.toString() !== this.run) continue;
            const result = JSON.parse(m.value?.toString() ?? '{}') as ReplayResult;
            if (result.outcome in counts) counts[result.outcome] += 1;
          }
          progress.update(total(), detail());
        },
        () => total() >= this.sent,
        { stallMs, what: `waiting for ${this.group} to apply the ${this.sent} replayed event(s) (${total()} so far); are its consumers running?` },
      );
    } finally {
      progress.stop(detail());
    }
    if (end === 'interrupted') {
      throw new InterruptedError(`interrupted while ${this.group} applies the ${this.sent} event(s) sent: ${total()} reported so far (${detail()}); the rest is applied all the same`);
    }
    return counts;
  }
}
