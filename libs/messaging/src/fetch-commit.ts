import {
  type DataSource,
  type EntityManager,
  type TransactionManager,
  type TransactionOptions,
  isConnectionError,
} from '@payments/database';
import type { EventEnvelope } from '@payments/contracts';
import { runWithContext } from '@payments/platform';
import type { AfterCommit, BatchEventHandler, EventHandler, LastStatement, MessageMeta } from './consumer-options';

/** New-or-not events of one partition, in offset order, with the handlers of their topic. */
export interface PartitionChunk {
  items: { event: EventEnvelope; meta: MessageMeta }[];
  handler: EventHandler;
  batchHandler?: BatchEventHandler;
}

/** What one chunk's share of a committed transaction was. */
export interface ChunkOutcome {
  applied: number;
  /** The ids of the events applied now (each once; the others were in the inbox already). */
  appliedIds: Set<string>;
  thens: AfterCommit[];
}

/** Records events in the inbox; returns the ids that were not there yet. */
export type RecordInbox = (manager: EntityManager, ids: string[], topics: string[]) => Promise<Set<string>>;

interface Pending {
  chunk: PartitionChunk;
  resolve: (outcome: ChunkOutcome) => void;
  reject: (err: unknown) => void;
}

/** How many transactions may run at once, and how many queued events are worth a transaction beside a running one. */
export interface FetchCommitLimits {
  concurrency: number;
  fullAt: number;
}

/**
 * One inbox transaction for the chunks a fetch delivered; no timer, so a lone chunk waits for nothing. Up to
 * `concurrency` full chunks run side by side (one at a time made replays 1.7× slower). A failed shared transaction
 * retries each chunk alone, so one partition's poison event holds back no other.
 */
export class FetchCommit {
  private queue: Pending[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly ds: DataSource,
    private readonly recordInbox: RecordInbox,
    private readonly limits: FetchCommitLimits = { concurrency: 1, fullAt: Infinity },
    /** How its transactions begin (ConsumerOptions.transaction). */
    private readonly transaction: TransactionOptions = {},
  ) {}

  submit(chunk: PartitionChunk): Promise<ChunkOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ chunk, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.canStart()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.canStart()) void this.run(this.take());
    });
  }

  private canStart(): boolean {
    if (this.queue.length === 0 || this.running >= this.limits.concurrency) return false;
    return this.running === 0 || this.queued() >= this.limits.fullAt;
  }

  private queued(): number {
    return this.queue.reduce((n, p) => n + p.chunk.items.length, 0);
  }

  /** The oldest chunks, up to `fullAt` events (at least one chunk). */
  private take(): Pending[] {
    let events = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || events + this.queue[n].chunk.items.length <= this.limits.fullAt))
      events += this.queue[n++].chunk.items.length;
    return this.queue.splice(0, n);
  }

  private async run(taken: Pending[]): Promise<void> {
    this.running++;
    try {
      const outcomes = await this.apply(taken.map((p) => p.chunk));
      taken.forEach((p, i) => p.resolve(outcomes[i]));
    } catch (err) {
      if (taken.length === 1 || isConnectionError(err)) taken.forEach((p) => p.reject(err));
      else {
        for (const p of taken) {
          await this.apply([p.chunk]).then(
            ([outcome]) => p.resolve(outcome),
            (e: unknown) => p.reject(e),
          );
        }
      }
    } finally {
      this.running--;
      this.schedule();
    }
  }

  /**
   * Applies the new events of every chunk in one transaction; outcomes in chunk order. A batch handler gets all its
   * chunks in one call (one set of statements, not one per partition), each partition's events in order; its
   * after-commit action is its first chunk's.
   */
  private async apply(chunks: PartitionChunk[]): Promise<ChunkOutcome[]> {
    return this.ds.transaction(this.transaction, async (manager) => {
      const all = chunks.flatMap((c) => c.items);
      const fresh = await this.recordInbox(
        manager,
        all.map((x) => x.event.id),
        all.map((x) => x.meta.topic),
      );
      // A redelivered event, or the same id twice in one transaction, is applied once.
      const todos = chunks.map((chunk) => chunk.items.filter(({ event }) => fresh.delete(event.id)));
      const outcomes: ChunkOutcome[] = todos.map((todo) => ({
        applied: todo.length,
        appliedIds: new Set(todo.map((x) => x.event.id)),
        thens: [],
      }));
      const batched = new Map<BatchEventHandler, number[]>();
      for (let i = 0; i < chunks.length; i++) {
        const handler = chunks[i].batchHandler;
        if (todos[i].length === 0) continue;
        if (!handler) outcomes[i].thens = await applyEach(todos[i], chunks[i].handler, manager);
        else batched.set(handler, [...(batched.get(handler) ?? []), i]);
      }
      let left = batched.size;
      for (const [handler, indexes] of batched) {
        // The last handler's last statement may carry COMMIT: nothing else runs in this transaction after it.
        const { m, last } = endingWith(manager, --left === 0);
        const then = await handler(
          indexes.flatMap((i) => todos[i].map((x) => x.event)),
          m,
          last,
        );
        if (then) outcomes[indexes[0]].thens.push(then);
      }
      return outcomes;
    });
  }
}

/**
 * A batch handler's view of the transaction: once it has sent its `last` statement (with COMMIT if `commits`), any
 * further statement is refused, whether or not this one committed, so a handler that breaks the rule fails the same
 * way wherever its topic comes in the transaction.
 */
function endingWith(manager: TransactionManager, commits: boolean): { m: TransactionManager; last: LastStatement } {
  let ended = false;
  const refused = () => Promise.reject(new Error("no statement may follow a batch handler's last statement"));
  const m: TransactionManager = {
    transactional: true,
    query: (sql, params) => (ended ? refused() : manager.query(sql, params)),
    // Only the consumer knows whether anything follows the handler: it ends the transaction through `last`.
    commitWith: () => Promise.reject(new Error("a batch handler's transaction ends with its `last` statement")),
  };
  const last: LastStatement = (sql, params) => {
    if (ended) return refused();
    ended = true;
    return commits ? manager.commitWith(sql, params) : manager.query(sql, params);
  };
  return { m, last };
}

async function applyEach(
  todo: PartitionChunk['items'],
  handler: EventHandler,
  manager: TransactionManager,
): Promise<AfterCommit[]> {
  const thens: AfterCommit[] = [];
  for (const { event, meta } of todo) {
    const then = await runWithContext({ correlation_id: event.correlation_id ?? undefined, event_id: event.id }, () =>
      handler(event, manager, meta),
    );
    if (then) thens.push(then);
  }
  return thens;
}
