import { Inject, Injectable } from '@nestjs/common';
import { DataSource, GroupCommit, RUN_ALONE, type EntityManager } from '@payments/database';
import { TransactionServiceConfig } from '../config/transaction.config';
import type { TransactionRow } from './transaction-row';
import { TransactionStore, type NewTransaction, type PreparedInsert } from './transaction-store';

/**
 * Group commit of initialize inserts (ADR 0013): inserts arriving while INITIALIZE_INSERTS_IN_FLIGHT statements run go
 * out together, each caller answered as if alone. Pool inserts only; one inside a caller's transaction uses
 * TransactionStore.create.
 */
@Injectable()
export class TransactionInsertBatch {
  private readonly group: GroupCommit<PreparedInsert, TransactionRow>;

  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    @Inject(TransactionServiceConfig) config: TransactionServiceConfig,
  ) {
    this.margin = config.RPC_DEADLINE_MARGIN_MS;
    this.group = new GroupCommit((items) => this.write(items), {
      max: config.INITIALIZE_BATCH_MAX,
      inFlight: config.INITIALIZE_INSERTS_IN_FLIGHT,
      alone: (item) => this.store.insert(this.bounded([item]), item),
      deadline: (item) => item.deadlineAt,
    });
  }

  private readonly margin: number;

  /**
   * Where the statement of these items runs: on the pool, cancelled RPC_DEADLINE_MARGIN_MS after
   * the last of their callers' deadlines (a caller without one: statement_timeout only).
   */
  private bounded(items: PreparedInsert[]): EntityManager {
    let last = 0;
    for (const item of items) {
      if (item.deadlineAt === undefined) return this.ds;
      last = Math.max(last, item.deadlineAt);
    }
    return this.ds.until(last + this.margin);
  }

  /** Inserts `t` (in a group under load); not at all once t.deadlineAt has passed (DeadlineExceededError). */
  async create(t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
    return this.group.submit(this.store.prepare(t, correlationId));
  }

  private async write(items: PreparedInsert[]): Promise<(TransactionRow | typeof RUN_ALONE)[]> {
    // A lone insert skips no conflict: a reference already used is its own error at once.
    const m = this.bounded(items);
    if (items.length === 1) return [await this.store.insert(m, items[0])];
    const rows = await this.store.insertMany(m, items);
    const byId = new Map(rows.map((r) => [r.public_id, r]));
    return items.map((item) => byId.get(item.row.public_id) ?? RUN_ALONE);
  }
}
