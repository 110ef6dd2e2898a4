import type { PreparedStatement, TransactionManager, TransactionOptions } from '@payments/database';
import type { ConsumedEvent, ConsumedType, EventEnvelope } from '@payments/contracts';

export interface MessageMeta {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * What a handler wants done once its transaction has committed (e.g. hand the rows it wrote to an
 * in-process worker): never run when the transaction rolls back.
 */
export type AfterCommit = () => void;

/** Applies one event inside the transaction that also records it in the inbox. */
export type EventHandler = (
  event: EventEnvelope,
  manager: TransactionManager,
  meta: MessageMeta,
) => Promise<void | AfterCommit>;

/**
 * Applies several new events of one topic in one transaction, with the same effect as the topic's EventHandler called
 * on each in turn (set-based SQL instead of a statement per event). Each partition's events come in offset order.
 */
export type BatchEventHandler = (
  events: EventEnvelope[],
  manager: TransactionManager,
  last: LastStatement,
) => Promise<void | AfterCommit>;

/**
 * Runs a batch handler's last statement in its transaction. Where nothing else is left to run in that transaction, the
 * statement carries its COMMIT (TransactionManager.commitWith: one round trip fewer); otherwise it is a plain
 * statement. Either way nothing may follow it in the handler.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as TransactionManager.commitWith
export type LastStatement = <T = any>(sql: string | PreparedStatement, parameters?: unknown[]) => Promise<T>;

export interface ConsumerOptions {
  group: string;
  /** Handlers by topic base name (without the deployment prefix). */
  handlers: Record<string, EventHandler>;
  /** Optional set-based handlers by topic base name, used for batches; `handlers` still serves single events. */
  batchHandlers?: Record<string, BatchEventHandler>;
  topicPrefix: string;
  sessionTimeoutMs: number;
  /** Attempts for an event that fails for a reason other than a dependency being down. */
  maxAttempts?: number;
  /** Partitions of a fetch applied at once (default 3); all of them lets one transaction take the whole fetch. */
  partitionsConsumedConcurrently?: number;
  /** Most events of one partition applied in one database transaction (default 500). */
  maxBatch?: number;
  /** Called after a transaction that applied at least one new event has committed (e.g. to wake the next stage). */
  afterCommit?: () => void;
  /** How long a fetch may wait for data (see ConsumerFetch); 1 byte and 1 s when absent (consumer.ts). */
  fetch?: ConsumerFetch;
  /** How the consumer's transactions begin (settings its handlers' statements need, sent with BEGIN). */
  transaction?: TransactionOptions;
}

/**
 * Kafka fetch settings: the broker answers a fetch once `minBytes` are there or `maxWaitMs` have
 * passed. Above 1 byte, events at a low rate arrive in fewer, larger batches — fewer transactions
 * and less CPU per event — at the cost of up to `maxWaitMs` more latency.
 */
export interface ConsumerFetch {
  minBytes: number;
  maxWaitMs: number;
}

/** Only events of `type` (the topic's own), whose data the consumer decoded against that type's schema. */
function ofType<T extends ConsumedType>(type: T, events: EventEnvelope[]): ConsumedEvent<T>[] {
  for (const e of events) if (e.type !== type) throw new Error(`a ${e.type} event where ${type} events go`);
  return events as ConsumedEvent<T>[];
}

/** The EventHandler of a consumed type's topic, given its events typed (another type fails, then is dead-lettered). */
export function handlerOf<T extends ConsumedType>(
  type: T,
  handle: (event: ConsumedEvent<T>, manager: TransactionManager, meta: MessageMeta) => Promise<void | AfterCommit>,
): EventHandler {
  return async (event, manager, meta) => handle(ofType(type, [event])[0], manager, meta);
}

/** The BatchEventHandler of a consumed type's topic, given its events typed. */
export function batchHandlerOf<T extends ConsumedType>(
  type: T,
  handle: (events: ConsumedEvent<T>[], manager: TransactionManager, last: LastStatement) => Promise<void | AfterCommit>,
): BatchEventHandler {
  return async (events, manager, last) => handle(ofType(type, events), manager, last);
}
