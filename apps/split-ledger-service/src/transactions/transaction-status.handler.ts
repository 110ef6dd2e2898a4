import { Injectable } from '@nestjs/common';
import type { TransactionManager } from '@payments/database';
import { OutboxNotifier, type AfterCommit } from '@payments/messaging';
import type { TransactionSnapshot, TransactionStatusChangedEvent } from '@payments/contracts';
import { lockTransactionLedger, lockTransactionLedgers } from '../ledger/ledger-store';
import { TransactionCopyStore } from '../ledger/transaction-copy-store';
import { ApplySplitsUseCase } from '../ledger/usecases/apply-splits.usecase';
import { SplitConfigStore } from '../splits/split-config-store';

/**
 * Keeps the ledger's copy of a transaction current and, when it reaches success, applies its
 * splits. Runs inside the inbox transaction, so it happens once per event; the version guard also
 * ignores an older event arriving late.
 */
@Injectable()
export class TransactionStatusHandler {
  constructor(
    private readonly applySplits: ApplySplitsUseCase,
    private readonly configs: SplitConfigStore,
    private readonly copies: TransactionCopyStore,
    private readonly outbox: OutboxNotifier,
  ) {}

  /** After the consumer's transaction committed: its ledger entries' events go out without a relay's idle look. */
  private readonly wakeRelay: AfterCommit = () => this.outbox.notify();

  /** Returns the relay's wake when it may have written ledger entries (and their events). */
  async handle(event: TransactionStatusChangedEvent, m: TransactionManager): Promise<AfterCommit | undefined> {
    const { transaction: t } = event.data;
    const succeeded = t.status === 'success';
    // Before the copy changes, so a refund of this transaction handled at the same time either
    // sees all of this (entries included) or runs entirely before it.
    if (succeeded) await lockTransactionLedger(m, t.id);
    await this.saveCopies(m, [t]);
    if (succeeded && (await this.applySplits.execute(m, t, event.correlation_id))) return this.wakeRelay;
    return undefined;
  }

  /**
   * handle() on each event in turn, with one statement per run of events that write no ledger
   * entries: everything but success, and a success without split terms (only the copy, under the
   * ledger lock). Terms are asked once per batch; a success with terms is handled on its own.
   */
  async handleBatch(events: TransactionStatusChangedEvent[], m: TransactionManager): Promise<AfterCommit | undefined> {
    const snapshots = events.map((e) => e.data.transaction);
    const withTerms = await this.successesWithTerms(m, snapshots);
    let wake: AfterCommit | undefined;
    let run: TransactionSnapshot[] = [];
    let locks: number[] = [];
    const flush = async () => {
      // The ledger locks before the copies change, as handle() takes them.
      await lockTransactionLedgers(m, locks);
      await this.saveCopies(m, run);
      run = [];
      locks = [];
    };
    for (const [i, t] of snapshots.entries()) {
      if (t.status === 'success' && withTerms.has(i)) {
        await flush();
        wake = (await this.handle(events[i], m)) ?? wake;
        continue;
      }
      run.push(t);
      if (t.status === 'success') locks.push(t.id);
    }
    await flush();
    return wake;
  }

  /** Indexes of the successes that may write ledger entries. */
  private async successesWithTerms(m: TransactionManager, snapshots: TransactionSnapshot[]): Promise<Set<number>> {
    const withTerms = new Set<number>();
    const asked: { key: string; owner: number; mode: TransactionSnapshot['mode']; currency: string; at: string }[] = [];
    for (const [i, t] of snapshots.entries()) {
      if (t.status !== 'success') continue;
      if ((t.link_splits ?? []).length > 0) withTerms.add(i);
      else asked.push({ key: String(i), owner: t.business_id, mode: t.mode, currency: t.currency, at: t.date_created });
    }
    for (const key of await this.configs.withTermsInForce(m, asked)) withTerms.add(Number(key));
    return withTerms;
  }

  /**
   * Upserts the ledger's copies; a copy only moves to a higher version. Of several snapshots of one
   * transaction only the newest can change anything (the first of equals, as one at a time would).
   */
  private async saveCopies(m: TransactionManager, snapshots: TransactionSnapshot[]): Promise<void> {
    const newest = new Map<number, TransactionSnapshot>();
    for (const t of snapshots) if (!newest.has(t.id) || newest.get(t.id)!.version < t.version) newest.set(t.id, t);
    await this.copies.saveTransactions(m, [...newest.values()]);
  }
}
