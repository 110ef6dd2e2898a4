import { Inject, Injectable } from '@nestjs/common';
import { DataSource, GroupCommit, RUN_ALONE, type TransactionManager } from '@payments/database';
import { TransactionServiceConfig } from '../config/transaction.config';
import type { TransactionRow } from './transaction-row';
import { TransactionStore, type NewTransaction, type PreparedInsert } from './transaction-store';

/**
 * Group commit of the initialize inserts (docs/decisions/0013-group-commit-of-initialize.md): an
 * insert that finds fewer than INITIALIZE_INSERTS_IN_FLIGHT writes running goes out at once; those
 * that arrive while that many run go out together in one transaction (TransactionStore.insertMany),
 * so every caller is answered only after the transaction that carries its row committed.
 *
 * A row skipped by a unique constraint, and every row of a write that failed with one row's error
 * (SQLSTATE class 22 or 23) or was rolled back by another transaction (class 40), runs again alone
 * to get the answer it would have had alone; any other error reaches every caller of that write.
 * A connection lost while COMMIT was in flight gives each the same OutcomeUnknownError.
 *
 * Only for inserts outside a caller's transaction: one inside it (a checkout attempt) must see that
 * transaction, and uses TransactionStore.create.
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
      alone: (item) => this.inTransaction([item], (m) => this.store.insert(m, item)),
      deadline: (item) => item.deadlineAt,
    });
  }

  private readonly margin: number;

  /**
   * Runs `fn` in one transaction, cancelled RPC_DEADLINE_MARGIN_MS after the last of the items'
   * callers' deadlines (a caller without one: statement_timeout only).
   */
  private inTransaction<T>(items: PreparedInsert[], fn: (m: TransactionManager) => Promise<T>): Promise<T> {
    let last = 0;
    for (const item of items) {
      if (item.deadlineAt === undefined) return this.ds.transaction(fn);
      last = Math.max(last, item.deadlineAt);
    }
    return this.ds.transactionUntil(last + this.margin, fn);
  }

  /** Inserts `t` (in a group under load); not at all once t.deadlineAt has passed (DeadlineExceededError). */
  async create(t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
    return this.group.submit(this.store.prepare(t, correlationId));
  }

  private async write(items: PreparedInsert[]): Promise<(TransactionRow | typeof RUN_ALONE)[]> {
    // A lone insert skips no conflict: a reference already used is its own error at once.
    if (items.length === 1) return [await this.inTransaction(items, (m) => this.store.insert(m, items[0]))];
    const rows = await this.inTransaction(items, (m) => this.store.insertMany(m, items));
    const byId = new Map(rows.map((r) => [r.public_id, r]));
    return items.map((item) => byId.get(item.row.public_id) ?? RUN_ALONE);
  }
}
