import { randomUUID } from 'node:crypto';
import { CompressionTypes, Partitioners, type IHeaders, type PartitionMetadata, type Producer } from 'kafkajs';
import {
  REPLAY_RESULTS_TOPIC,
  ReplayHeaders,
  deadLetterTopic,
  encodeReplayBundle,
  formatBundleHeader,
  formatReplayOrigin,
  replayTopic,
  type ReplayResult,
  type ReplayResultRanges,
} from '@payments/contracts';
import { InterruptedError } from '../cli/errors';
import { Progress } from '../cli/progress';
import { chunkBySize } from './chunks';
import { useFastGzip } from './fast-gzip';
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

/** What the dead-letter headers of a whole bundle's letter take, at most (with room). */
const DEAD_LETTER_ROOM = 2_048;

/** Replay partitions beyond this share producers (partition modulo this): a connection and producer id each. */
const MAX_PRODUCERS = 8;

/** Records per bundle at most; the size limit usually ends a bundle first (about 1,000 events of 750 bytes). */
const BUNDLE_RECORDS = 5_000;

export type { OutcomeCounts } from './outcome-tally';

/** Consecutive records of one source partition; a record whose partition is unknown stands alone. */
function sourceRuns(records: ReplayRecord[]): ReplayRecord[][] {
  const runs: ReplayRecord[][] = [];
  for (const r of records) {
    const last = runs.at(-1)?.[0];
    const same = last && r.sourcePartition >= 0 && last.sourcePartition === r.sourcePartition;
    if (same && last.sourceTopic === r.sourceTopic) runs.at(-1)!.push(r);
    else runs.push([r]);
  }
  return runs;
}

/**
 * Delivers records to ONE consumer group through its replay topic and collects what its idempotent
 * consumer did with each (applied, already applied, dead-lettered again). Bundles stay under the
 * size limits as the cluster states them: a batch fetched whole could exceed them.
 */
export class Redelivery {
  readonly run = randomUUID();
  /** Idempotent producers, one per replay partition up to MAX_PRODUCERS, made when first needed (see send()). */
  private producers = new Map<number, Promise<Producer>>();
  private closed = false;
  private resultStarts = new Map<number, number>();
  private limit = 0;
  private partitions: PartitionMetadata[] = [];
  private readonly partitioner = Partitioners.DefaultPartitioner();
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
    // A bundle the group cannot read is dead-lettered whole: it must fit its dead-letter topic too,
    // with the dead-letter headers (a reason of up to 1000 bytes among them).
    const [replay, dlq] = await Promise.all([
      produceLimit(this.s, replayTopic(this.group)),
      produceLimit(this.s, deadLetterTopic(this.group)).catch(() => Infinity),
    ]);
    this.limit = Math.min(replay, dlq - DEAD_LETTER_ROOM);
    const [meta] = (await this.s.admin.fetchTopicMetadata({ topics: [this.s.full(replayTopic(this.group))] })).topics;
    this.partitions = meta.partitions;
    useFastGzip();
    await this.producerFor(0);
  }

  /**
   * The producer of one replay partition. An idempotent kafkajs producer keeps one request in
   * flight per broker, so a single producer would send the partitions' bundles one after another;
   * one per partition sends them side by side and still keeps each partition's order.
   */
  private producerFor(partition: number): Promise<Producer> {
    if (this.closed) return Promise.reject(new Error('the replay producers are closed'));
    const slot = partition % MAX_PRODUCERS;
    let producer = this.producers.get(slot);
    if (!producer) {
      const made = this.s.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      // A failed connect (e.g. no IdempotentWrite permission) is not kept: its sockets close, a later send retries.
      producer = made.connect().then(
        () => made,
        async (err: unknown) => {
          this.producers.delete(slot);
          await made.disconnect().catch(() => undefined);
          throw err;
        },
      );
      this.producers.set(slot, producer);
    }
    return producer;
  }

  /** The replay partition of a bundle: its source partition's (modulo the count), else its key's. */
  private partitionOf(first: ReplayRecord): number {
    if (first.sourcePartition >= 0) return first.sourcePartition % this.partitions.length;
    const topic = this.s.full(replayTopic(this.group));
    return this.partitioner({ topic, partitionMetadata: this.partitions, message: { key: first.key, value: null } });
  }

  /**
   * Sends the records in order; `sent` counts each bundle's records once acknowledged. Consecutive records of one
   * source partition go as one bundle (replay-bundle.ts) to that partition's replay partition, so per-key order holds;
   * a record of unknown partition is a bundle of its own, placed by its key.
   */
  async send(records: ReplayRecord[], onChunk: () => void = () => undefined): Promise<void> {
    const describe = (r: ReplayRecord) =>
      `${this.s.base(r.sourceTopic)} partition ${r.sourcePartition} offset ${r.sourceOffset}`;
    for (const run of sourceRuns(records)) {
      for (const chunk of chunkBySize(run, this.limit, BUNDLE_RECORDS, describe)) {
        const first = chunk[0];
        const value = encodeReplayBundle(
          chunk.map((r) => ({ key: r.key, value: r.value, headers: r.headers, offset: r.sourceOffset })),
        );
        const origin = formatReplayOrigin({
          run: this.run,
          seq: this.sequence,
          partition: first.sourcePartition,
          offset: first.sourceOffset,
          topic: first.sourceTopic,
        });
        this.sequence += chunk.length;
        const partition = this.partitionOf(first);
        await (
          await this.producerFor(partition)
        ).send({
          topic: this.s.full(replayTopic(this.group)),
          acks: -1,
          compression: CompressionTypes.GZIP,
          messages: [
            {
              key: first.key,
              value,
              partition,
              headers: {
                [ReplayHeaders.Origin]: origin,
                [ReplayHeaders.Bundle]: formatBundleHeader(chunk.length, this.run),
              },
            },
          ],
        });
        this.sent += chunk.length;
        onChunk();
      }
    }
  }

  /** Disconnects every producer; a send still running afterwards fails instead of opening a new one. */
  async close(): Promise<void> {
    this.closed = true;
    const producers = [...this.producers.values()];
    this.producers.clear();
    await Promise.all(
      producers.map((p) =>
        p.then(
          (made) =>
            made
              .disconnect()
              .catch((err: Error) => console.error(`warning: closing a replay producer: ${err.message}`)),
          () => undefined, // its connect failed, and was reported to the send that waited for it
        ),
      ),
    );
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
