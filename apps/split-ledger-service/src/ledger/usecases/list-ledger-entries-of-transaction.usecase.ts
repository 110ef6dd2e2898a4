import { Injectable } from '@nestjs/common';
import { DataSource } from '@payments/database';
import type { LedgerOfTransactionBody, LedgerOfTransactionResult, RpcRequest } from '@payments/contracts';
import { LedgerQueries } from '../ledger-queries';
import { toLedgerEntryView } from '../ledger-store';

/** A public transaction id as transaction-service hands it out; anything else has no entries. */
const TXN_ID = /^txn_[0-9A-Za-z]{1,64}$/;

/**
 * One transaction's ledger entries the caller is a party to, in its mode, oldest first; none for
 * another business's or mode's. The gateway asks only after fetching the transaction as the
 * caller, so an unknown transaction is already a 404 there.
 */
@Injectable()
export class ListLedgerEntriesOfTransactionUseCase {
  constructor(
    private readonly ds: DataSource,
    private readonly queries: LedgerQueries,
  ) {}

  async execute({ ctx, body }: RpcRequest<LedgerOfTransactionBody>): Promise<LedgerOfTransactionResult> {
    const id = body?.transaction_id;
    if (typeof id !== 'string' || !TXN_ID.test(id)) return { ledger_entries: [] };
    const rows = await this.queries.ofTransaction(this.ds, id, ctx.business_id, ctx.mode);
    return { ledger_entries: rows.map(toLedgerEntryView) };
  }
}
