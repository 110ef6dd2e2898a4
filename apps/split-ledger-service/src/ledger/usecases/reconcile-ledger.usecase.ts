import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import {
  type ReconcileLedgerBody,
  type ReconcileLedgerResult,
  type ReconcileLedgerTransaction,
} from '@payments/contracts';
import type { SplitEntry } from '../domain/split-amounts';
import { SplitConfigStore } from '../../splits/split-config-store';
import { LedgerQueries } from '../ledger-queries';
import { TransactionCopyStore } from '../transaction-copy-store';
import { ApplySplitsUseCase } from './apply-splits.usecase';

const MAX_IDS = 1_000;

const keyOf = (e: { split_config_id: string | null; link_split_index: number | null }) =>
  e.split_config_id !== null ? `config:${e.split_config_id}` : `link:${e.link_split_index}`;
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
}
const keyOfPlanned = (e: SplitEntry) =>
  e.source.kind === 'config' ? `config:${e.source.configId}` : `link:${e.source.index}`;

/**
 * What the ledger recorded for the given transactions, for `ops reconcile`: its copy of each
 * transaction and its refunds, its split entries with what their reversals undo, and the entries
 * its rules give for a successful one. Read-only.
 */
@Injectable()
export class ReconcileLedgerUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly copies: TransactionCopyStore,
    private readonly entries: LedgerQueries,
    private readonly splits: ApplySplitsUseCase,
    private readonly configs: SplitConfigStore,
  ) {}

  async execute(body: ReconcileLedgerBody): Promise<ReconcileLedgerResult> {
    const ids = body.ids.filter((id) => /^\d{1,18}$/.test(id)).slice(0, MAX_IDS);
    if (ids.length === 0) return { transactions: [] };
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const txns = await this.copies.transactions(m, ids);
      const refunds = await this.copies.refunds(m, ids);
      const entries = await this.entries.forReconcile(m, ids);
      const reversedOf = new Map<string, number>();
      for (const e of entries)
        if (e.kind === 'reversal' && e.reverses_entry_id)
          reversedOf.set(e.reverses_entry_id, (reversedOf.get(e.reverses_entry_id) ?? 0) - Number(e.amount));
      const refundsOf = groupBy(refunds, (r) => r.transaction_id);
      const splitsOf = groupBy(
        entries.filter((e) => e.kind === 'split'),
        (e) => e.transaction_id,
      );
      // The terms in force of the whole page in one statement (not one per transaction).
      const succeeded = txns.filter((t) => t.status === 'success');
      const terms = await this.configs.versionsInForceMany(
        m,
        succeeded.map((t) => ({
          key: t.id,
          owner: t.business_id,
          mode: t.mode,
          currency: t.currency.trim(),
          at: t.transaction_created_at.toISOString(),
        })),
      );
      const out: ReconcileLedgerTransaction[] = [];
      for (const t of txns) {
        const subject = {
          transaction_id: t.public_id,
          business_id: t.business_id,
          mode: t.mode,
          currency: t.currency.trim(),
          date_created: t.transaction_created_at.toISOString(),
          amount: Number(t.amount),
          link_splits: t.link_splits,
        };
        const expected =
          t.status === 'success'
            ? (await this.splits.plan(m, subject, terms.get(t.id) ?? [])).entries.map((e) => ({
                key: keyOfPlanned(e),
                amount: e.amount,
              }))
            : [];
        out.push({
          id: t.id,
          status: t.status,
          amount: Number(t.amount),
          refunds: (refundsOf.get(t.id) ?? []).map((r) => ({ id: r.id, amount: Number(r.amount), status: r.status })),
          splits: (splitsOf.get(t.id) ?? []).map((e) => ({
            key: keyOf(e),
            amount: Number(e.amount),
            reversed: reversedOf.get(e.id) ?? 0,
          })),
          expected,
        });
      }
      return { transactions: out };
    });
  }
}
