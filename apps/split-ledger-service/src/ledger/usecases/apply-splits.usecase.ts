import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { TransactionManager } from '@payments/database';
import type { TransactionSnapshot } from '@payments/contracts';
import { ROOT_LOGGER } from '@payments/platform';
import { SplitConfigStore, type SplitVersionRow } from '../../splits/split-config-store';
import { computeSplitEntries, type SplitEntry, type SplitRule } from '../domain/split-amounts';
import { LedgerStore } from '../ledger-store';
import { ReverseRefundedSplitsUseCase } from './reverse-refunded-splits.usecase';

/** What split entries are computed from. */
export type SplitSubject = Pick<
  TransactionSnapshot,
  'transaction_id' | 'business_id' | 'mode' | 'currency' | 'date_created' | 'amount' | 'link_splits'
>;

/**
 * Writes a successful transaction's ledger entries (see plan). Runs inside the inbox transaction
 * of its `transaction.status_changed` event, so once per event; the entries' unique constraint
 * backs that up.
 */
@Injectable()
export class ApplySplitsUseCase {
  private readonly logger: Logger;

  constructor(
    private readonly configs: SplitConfigStore,
    private readonly ledger: LedgerStore,
    private readonly reversals: ReverseRefundedSplitsUseCase,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'apply-splits' });
  }

  /**
   * The split entries the rules give for a transaction: its owner's split configs as they stood
   * when it was created, then its payment link's splits. What `execute` writes and what
   * reconciliation expects.
   */
  async plan(
    m: TransactionManager,
    t: SplitSubject,
    inForce?: SplitVersionRow[],
  ): Promise<{ entries: SplitEntry[]; versionOf: Map<number, number> }> {
    const versions =
      inForce ?? (await this.configs.versionsInForce(m, t.business_id, t.mode, t.currency, t.date_created));
    const versionOf = new Map(versions.map((v) => [Number(v.split_config_id), v.version]));
    const rules: SplitRule[] = [
      ...versions.map((v): SplitRule => ({
        source: { kind: 'config', configId: Number(v.split_config_id) },
        partnerBusinessId: v.partner_business_id,
        type: v.split_type,
        value: Number(v.split_value),
        role: v.split_role,
      })),
      ...(t.link_splits ?? []).map((s, index): SplitRule => ({
        source: { kind: 'link', index },
        partnerBusinessId: s.business_id,
        type: s.type,
        value: s.value,
        role: 'fee',
      })),
    ].filter((r) => {
      // The gateway refuses a business as its own partner; an old link could still carry one.
      if (r.partnerBusinessId !== t.business_id) return true;
      this.logger.warn(
        { transaction_id: t.transaction_id, source: r.source },
        'split names the transaction owner as partner; skipped',
      );
      return false;
    });
    return { entries: rules.length === 0 ? [] : computeSplitEntries(t.amount, rules), versionOf };
  }

  /** Writes the success's split entries; true when it had entries to write (and so may have written their events). */
  async execute(m: TransactionManager, t: TransactionSnapshot, correlationId: string | null): Promise<boolean> {
    const { entries, versionOf } = await this.plan(m, t);
    if (entries.length === 0) return false;

    for (const e of entries) {
      const written = await this.ledger.insert(
        m,
        {
          kind: 'split',
          mode: t.mode,
          transaction_id: t.id,
          transaction_public_id: t.transaction_id,
          split_config_id: e.source.kind === 'config' ? e.source.configId : null,
          split_config_version: e.source.kind === 'config' ? (versionOf.get(e.source.configId) ?? null) : null,
          link_split_index: e.source.kind === 'link' ? e.source.index : null,
          refund_id: null,
          reverses_entry_id: null,
          creditor_business_id: e.creditorBusinessId,
          debtor_business_id: t.business_id,
          amount: e.amount,
          currency: t.currency,
          capped: e.capped,
        },
        correlationId,
      );
      if (!written)
        this.logger.warn(
          { transaction_id: t.transaction_id, source: e.source },
          'ledger entry already existed; not written again',
        );
    }
    // Refunds handled before this success (they travel on another topic) are reversed now.
    await this.reversals.execute(m, t.id, correlationId);
    return true;
  }
}
