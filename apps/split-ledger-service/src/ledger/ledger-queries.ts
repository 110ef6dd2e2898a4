import { Injectable } from '@nestjs/common';
import { type EntityManager, keysetPage, queryRows, type PageRequest } from '@payments/database';
import type { Mode } from '@payments/contracts';
import { unknownCursor } from '@payments/platform';
import { LEDGER_ENTRY_COLUMNS, type LedgerEntryRow } from './ledger-store';

type Db = Pick<EntityManager, 'query'>;

const OF_BUSINESS = '(creditor_business_id = $1 OR debtor_business_id = $1) AND mode = $2';

/** The ledger entries' fields `ops reconcile` compares (ids and amounts as text: bigint). */
export interface ReconcileEntryRow {
  id: string;
  kind: string;
  transaction_id: string;
  split_config_id: string | null;
  link_split_index: number | null;
  reverses_entry_id: string | null;
  amount: string;
}

/** Every read of `ledger_entries` but the ones LedgerStore makes while writing. */
@Injectable()
export class LedgerQueries {
  /** Sums per (creditor, debtor, currency) over a business's unsettled entries in a mode. */
  unsettledSums(
    db: Db,
    businessId: number,
    mode: Mode,
  ): Promise<{ creditor_business_id: number; debtor_business_id: number; currency: string; amount: string }[]> {
    return queryRows(
      db,
      `SELECT creditor_business_id, debtor_business_id, currency, sum(amount)::text AS amount
         FROM ledger_entries
        WHERE ${OF_BUSINESS} AND status IN ('pending', 'invoiced')
        GROUP BY creditor_business_id, debtor_business_id, currency`,
      [businessId, mode],
    );
  }

  /**
   * One page of a business's entries (as creditor or debtor), newest first (by cursor and/or
   * offset), and how many it has in all.
   */
  async page(
    m: EntityManager,
    businessId: number,
    mode: Mode,
    page: PageRequest,
  ): Promise<{ rows: LedgerEntryRow[]; hasMore: boolean; count: number }> {
    const { rows, hasMore } = await keysetPage<LedgerEntryRow>(m, {
      table: 'ledger_entries',
      columns: LEDGER_ENTRY_COLUMNS,
      scope: [OF_BUSINESS],
      params: [businessId, mode],
      cursorColumn: 'public_id',
      page,
      unknownCursor: unknownCursor('ledger entry', 'ledger entries'),
    });
    const [{ n }] = await queryRows<{ n: number }>(
      m,
      `SELECT count(*)::int AS n FROM ledger_entries WHERE ${OF_BUSINESS}`,
      [businessId, mode],
    );
    return { rows, hasMore, count: n };
  }

  /**
   * One transaction's entries (by its public id) that the business is a party to, in the mode,
   * oldest first. Served by ledger_entries_of_transaction_public_id.
   */
  ofTransaction(db: Db, transactionPublicId: string, businessId: number, mode: Mode): Promise<LedgerEntryRow[]> {
    return queryRows<LedgerEntryRow>(
      db,
      `SELECT ${LEDGER_ENTRY_COLUMNS} FROM ledger_entries
        WHERE transaction_public_id = $3 AND ${OF_BUSINESS} ORDER BY id`,
      [businessId, mode, transactionPublicId],
    );
  }

  /** A page of the entries an invoice nets, oldest first (ledger_entries_invoice). */
  ofInvoice(db: Db, invoiceReference: string, skip: number, limit: number): Promise<LedgerEntryRow[]> {
    return queryRows<LedgerEntryRow>(
      db,
      `SELECT ${LEDGER_ENTRY_COLUMNS} FROM ledger_entries WHERE invoice_reference = $1 ORDER BY id OFFSET $2 LIMIT $3`,
      [invoiceReference, skip, limit],
    );
  }

  forReconcile(m: EntityManager, transactionIds: string[]): Promise<ReconcileEntryRow[]> {
    return queryRows<ReconcileEntryRow>(
      m,
      `SELECT id::text, kind, transaction_id::text, split_config_id::text, link_split_index, reverses_entry_id::text,
              amount::text
         FROM ledger_entries WHERE transaction_id = ANY($1::bigint[]) ORDER BY id`,
      [transactionIds],
    );
  }
}
