import { randomUUID } from 'node:crypto';
import { Partitioners, type Admin, type Message, type PartitionMetadata, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource, FollowUp, PreparedStatement, TransactionManager } from '@payments/database';
import type { EventEnvelope, Mode } from '@payments/contracts';
import { outboxRelayFailures, outboxRelayed, type TickResult } from '@payments/platform';

export interface NewEvent<TData> {
  topic: string;
  type: string;
  key: string;
  producer: string;
  mode: Mode;
  businessId: number;
  correlationId: string | null;
  data: TData;
  /** Stable id when the event must be derivable (e.g. from a source event); random otherwise. */
  id?: string;
}

export function buildEnvelope<TData>(e: NewEvent<TData>): EventEnvelope<string, TData> {
  return {
    id: e.id ?? randomUUID(),
    type: e.type,
    version: 1,
    occurred_at: new Date().toISOString(),
    producer: e.producer,
    mode: e.mode,
    business_id: e.businessId,
    correlation_id: e.correlationId,
    data: e.data,
  };
}

/** Columns of an outbox insert, in the order of outboxValues(). */
export const OUTBOX_INSERT_COLUMNS = 'event_id, topic, message_key, payload, headers';

/** An outbox row of `event` as one object (for a statement that inserts several from one JSON parameter). */
export function outboxRecord<TData>(event: NewEvent<TData>, envelope: EventEnvelope<string, TData>) {
  return {
    event_id: envelope.id,
    topic: event.topic,
    message_key: event.key,
    payload: envelope,
    headers: { 'correlation-id': event.correlationId ?? '' },
  };
}

/** Parameters of an outbox insert for `event` (see OUTBOX_INSERT_COLUMNS). */
export function outboxValues<TData>(
  event: NewEvent<TData>,
  envelope: EventEnvelope<string, TData>,
): [string, string, string, string, string] {
  const r = outboxRecord(event, envelope);
  return [r.event_id, r.topic, r.message_key, JSON.stringify(r.payload), JSON.stringify(r.headers)];
}

const APPEND_MANY: PreparedStatement = {
  name: 'outbox_append_many',
  text: `INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         SELECT ${OUTBOX_INSERT_COLUMNS}
           FROM jsonb_to_recordset($1::jsonb)
                AS e(n integer, event_id uuid, topic text, message_key text, payload jsonb, headers jsonb)
          ORDER BY n`,
};

/** The statement appending `events` to the outbox in order: the follow-up of the write they describe (queryChained). */
export function outboxAppend(events: NewEvent<unknown>[]): FollowUp {
  const records = events.map((event, n) => ({ n, ...outboxRecord(event, buildEnvelope(event)) }));
  return { statement: APPEND_MANY, params: [JSON.stringify(records)] };
}

/**
 * Appends an event to the outbox inside the caller's transaction: it is published if and only if
 * that transaction commits.
 */
export async function appendToOutbox<TData>(
  manager: TransactionManager,
  event: NewEvent<TData>,
): Promise<EventEnvelope<string, TData>> {
  const envelope = buildEnvelope(event);
  await manager.query(
    `INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`,
    outboxValues(event, envelope),
  );
  return envelope;
}

interface OutboxRow {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  /** The envelope as stored (jsonb as text): published as is, never parsed here. */
  payload: string;
  headers: Record<string, string>;
}

/** What the batch's statement answers: the lock, and a row to send unless `id` is null (nothing to send). */
type TakenRow = { locked: boolean } & (({ id: string } & Omit<OutboxRow, 'id'>) | { id: null });

/** Ids are bigints as text: the shorter is the smaller, and equal lengths compare as strings. */
const byId = (a: OutboxRow, b: OutboxRow) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The ids read through a sub-select: with `= ANY($1)` PostgreSQL saw each array's length and planned most runs anew (a
 * custom plan looked cheaper), 788 of 1,078 in a part (b) run (docs/benchmarks.md, twenty-sixth round).
 */
const MARK_PUBLISHED: PreparedStatement = {
  name: 'outbox_mark_published',
  text: 'UPDATE outbox_events SET published_at = now() WHERE id = ANY ((SELECT $1::bigint[])::bigint[])',
};

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** After a prune's statement failed: the relay goes on, and the prune is tried again this much later. */
const PRUNE_RETRY_MS = 5 * 60 * 1000;
/**
 * Published rows past their retention, deleted oldest first: the next `$2` rows of the primary key after id `$3` (ids
 * grow with time), so one statement reads a short stretch of an index, never the whole table (which holds the
 * retention's days of events), and holds its locks briefly. Rows of the stretch not published, or not old enough, stay.
 * Every replica's relay prunes; one at a time (an advisory lock: the others look at no row and wait for the next
 * hour). Returns how many rows it looked at, the last one's id and how many it deleted.
 */
const PRUNE_OLDEST = `WITH pruner AS (SELECT pg_try_advisory_xact_lock(hashtext('outbox_prune')) AS held),
       picked AS (SELECT o.id FROM pruner, outbox_events o WHERE pruner.held AND o.id > $3::bigint
                   ORDER BY o.id LIMIT $2),
       done AS (DELETE FROM outbox_events o USING picked
                 WHERE o.id = picked.id AND o.published_at < now() - make_interval(days => $1) RETURNING o.id)
  SELECT (SELECT count(*) FROM picked)::int AS looked, (SELECT max(id) FROM picked)::text AS last,
         (SELECT count(*) FROM done)::int AS deleted`;
/**
 * A prune's statement may not hold up the relay's tick for long: a stretch takes a few ms, so one stuck behind a lock
 * or on a bloated index gives up after these and the prune is tried again later.
 */
const PRUNE_TRANSACTION = { settings: { statement_timeout: '5s', lock_timeout: '1s' } };
/** Rows each relay tick looks at while pruning: a few ms a tick, while traffic goes on. */
export const OUTBOX_PRUNE_BATCH = 1_000;
/** The advisory lock's name: one relay per database works at a time. */
const RELAY_LOCK = 'outbox_relay';
/**
 * The relay's transaction: BEGIN, this setting and the batch's statement go in one round trip. A plain index scan,
 * never a bitmap scan: every published row leaves a dead entry in the partial index until vacuum, and a bitmap scan
 * visits each one's heap page on every tick (1-2 ms a tick with a minute of traffic behind it), while an index scan
 * marks them dead in the index once and skips them from then on. The planner prefers the bitmap scan because it
 * expects few rows. The setting lasts to the end of the transaction, so the mark (a primary-key lookup of the batch's
 * ids) is planned without bitmap scans too, which suits it.
 */
const RELAY_TRANSACTION = { settings: { enable_bitmapscan: 'off' } };

/**
 * Publishes committed outbox rows to Kafka in id order. Only one relay works at a time (advisory
 * lock), which keeps each aggregate's events in order across replicas. A crash after the send and
 * before the commit publishes those rows again: consumers dedupe by event id.
 */
export class OutboxRelay {
  /** When the next prune starts (the first tick prunes); while one is under way, every tick deletes a batch. */
  private nextPrune = Date.now();
  /**
   * Where the prune under way goes on: after the stretch the last tick looked at, so it never walks again over the
   * index entries of rows it deleted (they stay until vacuum). Each prune starts again from the first row.
   */
  private pruneAfter = '0';
  private readonly takeBatch: PreparedStatement;

  constructor(
    private readonly ds: DataSource,
    private readonly producer: Producer,
    private readonly topicPrefix: string,
    private readonly logger: Logger,
    /**
     * Partitions of a (prefixed) topic (`cachedPartitionCounts`): the relay picks each message's
     * partition itself and checks Kafka's answer names every one (see send).
     */
    private readonly partitionCount: (topic: string) => Promise<number>,
    private readonly batchSize = 500,
    private readonly retentionDays = 7,
  ) {
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new Error(`outbox relay batch size must be a positive integer, got ${batchSize}`);
    // A plain SELECT: no transaction id is assigned and no row is locked while the batch is sent
    // (a transaction id held across the send would hold back every horizon PostgreSQL keeps by
    // the oldest running writer: vacuum's, and the events API's recorded order).
    //
    // Prepared under a name (one per batch size: the size is part of the text), so each connection parses and plans it
    // once, not on every tick (docs/benchmarks.md, twenty-sixth round). It has no parameters, so its one plan is made
    // the first time it runs, inside RELAY_TRANSACTION.
    this.takeBatch = {
      name: `outbox_take_batch_${batchSize}`,
      //
      // Its first row says whether this relay holds the lock, also when there is nothing to send (its other columns
      // null then): an empty outbox lets the relay sleep longer, another relay at work does not (see tick).
      text: `WITH relay AS (SELECT pg_try_advisory_xact_lock(hashtext('${RELAY_LOCK}')) AS locked)
         SELECT relay.locked, o.id, o.event_id, o.topic, o.message_key, o.payload, o.headers
           FROM relay LEFT JOIN LATERAL (
                  SELECT o.id, o.event_id, o.topic, o.message_key, o.payload::text AS payload, o.headers
                    FROM outbox_events o
                   WHERE relay.locked AND o.published_at IS NULL ORDER BY o.id LIMIT ${batchSize}) o ON true`,
    };
  }

  /**
   * One pass. `true` when a full batch went out (there may be more: go again at once); `Infinity` when this relay held
   * the lock and found nothing to send (no known work: the PollingWorker sleeps its idle maximum, unless a commit of
   * this process wakes it); `false` otherwise (look again after the interval): a part batch, or another relay at work,
   * whose batch may not hold what this process committed meanwhile.
   */
  async tick(): Promise<TickResult> {
    const { locked, sent } = await this.pass();
    const pruning = Date.now() >= this.nextPrune;
    if (pruning) await this.pruneBatch();
    if (sent === this.batchSize) return true;
    // A prune under way goes on at the interval's pace, as it did while the relay had events to send.
    return locked && sent === 0 && !pruning ? Infinity : false;
  }

  /**
   * At shutdown, once the loop has stopped: sends what this process committed last. Passes until one held the lock and
   * found less than a full batch. While another replica's relay holds the lock (its batch may not hold this process's
   * last commits, and it may then sleep its idle maximum) it tries again every `retryMs`, `tries` times at most. A
   * failing pass ends it: the rows stay for the other replicas' relays, or for this service's next start.
   */
  async drain(retryMs: number, tries = 10): Promise<void> {
    for (let i = 0; i < tries; i++) {
      let pass: { locked: boolean; sent: number };
      try {
        pass = await this.pass();
      } catch (err) {
        this.logger.warn({ err }, 'outbox relay: the last pass before shutdown failed; the rows stay in the outbox');
        return;
      }
      if (pass.sent === this.batchSize) continue;
      if (pass.locked) return;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  /** Sends one batch under the relay's lock: whether this relay held the lock, and how many rows it sent. */
  private async pass(): Promise<{ locked: boolean; sent: number }> {
    // The relay lock and the batch in one statement sent with BEGIN (one round trip): the lock is held until commit, so
    // no other relay sends these rows meanwhile; rows are marked after the send, and not if it fails. A relay starting
    // just before another's commit may resend that batch; consumers dedupe by event id.
    return this.ds.transaction(RELAY_TRANSACTION, async (m) => {
      const [first, ...more] = await m.query<TakenRow[]>(this.takeBatch);
      if (!first?.locked || first.id === null) return { locked: first?.locked === true, sent: 0 };
      // In id order (each key's order on Kafka), which the join's output keeps; sorted again should a plan not.
      const rows = [first, ...more] as OutboxRow[];
      rows.sort(byId);
      await this.publish(rows);
      // The mark and the COMMIT in one round trip.
      await m.commitWith(MARK_PUBLISHED, [rows.map((r) => r.id)]);
      return { locked: true, sent: rows.length };
    });
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    const byTopic = new Map<string, OutboxRow[]>();
    for (const row of rows) {
      const list = byTopic.get(row.topic);
      if (list) list.push(row);
      else byTopic.set(row.topic, [row]);
    }
    try {
      await this.send(byTopic);
    } catch (err) {
      // Loud, and the rows stay: the caller's transaction rolls back, so nothing is marked sent
      // and the next try publishes them again (consumers dedupe by event id, should part of the
      // batch have been written).
      const failure = relayFailure(err);
      outboxRelayFailures.inc({ reason: failure.reason });
      this.logger.error(
        { err, reason: failure.reason, kafkaError: failure.types, count: rows.length, topics: [...byTopic.keys()] },
        `outbox relay: Kafka did not take ${rows.length} events: ${failure.explanation}; ` +
          'they stay in the outbox and are sent again on the next try',
      );
      throw err;
    }
    for (const [topic, list] of byTopic) outboxRelayed.inc({ topic }, list.length);
    this.logger.debug({ count: rows.length }, 'outbox events relayed');
  }

  /**
   * One request for the batch, each message on its key's murmur2 partition (an aggregate keeps its order), and every
   * partition's answer checked: kafkajs 2.2.4 may silently skip a partition whose leader moved, so such a batch is
   * refused and resent (consumers dedupe). One request per partition avoids that but cut throughput.
   */
  private async send(byTopic: Map<string, OutboxRow[]>): Promise<void> {
    const topicMessages: Array<{ topic: string; messages: Message[] }> = [];
    const expected = new Set<string>();
    for (const [name, list] of byTopic) {
      const topic = `${this.topicPrefix}${name}`;
      const count = await this.partitionCount(topic);
      const partitionMetadata: PartitionMetadata[] = Array.from({ length: count }, (_, i) => ({
        partitionErrorCode: 0,
        partitionId: i,
        leader: 0,
        replicas: [],
        isr: [],
      }));
      const messages = list.map((r): Message => {
        const message: Message = {
          key: r.message_key,
          value: r.payload,
          headers: { ...r.headers, 'event-id': r.event_id },
        };
        const partition = partitionFor({ topic, partitionMetadata, message });
        expected.add(`${topic}/${partition}`);
        return { ...message, partition };
      });
      topicMessages.push({ topic, messages });
    }
    const acknowledged = await this.producer.sendBatch({ acks: -1, topicMessages });
    for (const r of acknowledged) expected.delete(`${r.topicName}/${r.partition}`);
    if (expected.size > 0) {
      throw new Error(
        `Kafka acknowledged no write for ${[...expected].join(', ')} ` +
          '(their leader moved during the send); the batch is sent again',
      );
    }
  }

  /**
   * One batch of the prune. A prune is done at a stretch in which nothing was old enough (ids grow with time, so the
   * rows after it are younger still) or at the end of the table, and the next one starts an hour later. A prune used to
   * be one statement over the whole table, which read every row kept (days of events) once an hour. A failing batch
   * does not fail the tick: the events went out, and the prune is tried again a few minutes later.
   */
  private async pruneBatch(): Promise<void> {
    let batch: { looked: number; last: string | null; deleted: number };
    try {
      // BEGIN, the settings, the statement and COMMIT in one round trip.
      [batch] = await this.ds.transaction(PRUNE_TRANSACTION, (m) =>
        m.commitWith<(typeof batch)[]>(PRUNE_OLDEST, [this.retentionDays, OUTBOX_PRUNE_BATCH, this.pruneAfter]),
      );
    } catch (err) {
      this.logger.warn({ err }, `outbox prune failed; trying again in ${PRUNE_RETRY_MS / 60_000} minutes`);
      this.pruneAfter = '0';
      this.nextPrune = Date.now() + PRUNE_RETRY_MS;
      return;
    }
    if (batch.deleted > 0 && batch.looked === OUTBOX_PRUNE_BATCH && batch.last !== null) {
      this.pruneAfter = batch.last;
      return;
    }
    this.pruneAfter = '0';
    this.nextPrune = Date.now() + PRUNE_EVERY_MS;
  }
}

const partitionFor = Partitioners.DefaultPartitioner();

/** Partition counts of topics from the cluster, each asked again after `ttlMs` (partitions may be added). */
export function cachedPartitionCounts(admin: Admin, ttlMs = 60_000): (topic: string) => Promise<number> {
  const cache = new Map<string, { count: number; at: number }>();
  return async (topic) => {
    const hit = cache.get(topic);
    if (hit && Date.now() - hit.at < ttlMs) return hit.count;
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    const count = meta.topics[0]?.partitions.length ?? 0;
    if (count < 1) throw new Error(`topic ${topic} has no partitions in the cluster's metadata`);
    cache.set(topic, { count, at: Date.now() });
    return count;
  };
}

export type RelayFailureReason = 'not_enough_replicas' | 'leader_unavailable' | 'timeout' | 'connection' | 'other';

/**
 * Why Kafka did not take a batch, from a kafkajs error: the protocol error types found along its
 * causes (a send that ran out of retries wraps the last one), and what they mean to an operator.
 */
export function relayFailure(err: unknown): { reason: RelayFailureReason; types: string[]; explanation: string } {
  const types: string[] = [];
  const names: string[] = [];
  const seen = new Set<unknown>();
  const walk = (e: unknown): void => {
    if (!e || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const x = e as { type?: unknown; name?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown };
    if (typeof x.type === 'string' && !types.includes(x.type)) types.push(x.type);
    if (typeof x.name === 'string') names.push(x.name);
    walk(x.cause);
    walk(x.originalError);
    if (Array.isArray(x.errors)) x.errors.forEach(walk);
  };
  walk(err);
  const has = (...t: string[]) => t.some((type) => types.includes(type));
  if (has('NOT_ENOUGH_REPLICAS', 'NOT_ENOUGH_REPLICAS_AFTER_APPEND')) {
    const replicaTypes = types.filter((t) => t.startsWith('NOT_ENOUGH_REPLICAS')).join(', ');
    return {
      reason: 'not_enough_replicas',
      types,
      explanation:
        `fewer brokers than min.insync.replicas hold an in-sync copy of a partition (${replicaTypes}): ` +
        'brokers of the cluster are down or behind',
    };
  }
  if (has('LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'NOT_LEADER_OR_FOLLOWER', 'UNKNOWN_TOPIC_OR_PARTITION')) {
    return {
      reason: 'leader_unavailable',
      types,
      explanation:
        `a partition has no leader it can reach (${types.join(', ')}): ` + 'a broker is down or leaders are moving',
    };
  }
  if (has('REQUEST_TIMED_OUT') || names.includes('KafkaJSRequestTimeoutError')) {
    return { reason: 'timeout', types, explanation: 'the brokers did not answer in time' };
  }
  if (
    names.some(
      (n) => n === 'KafkaJSConnectionError' || n === 'KafkaJSBrokerNotFound' || n === 'KafkaJSConnectionClosedError',
    )
  ) {
    return { reason: 'connection', types, explanation: 'no connection to the brokers' };
  }
  return { reason: 'other', types, explanation: err instanceof Error ? err.message : String(err) };
}
