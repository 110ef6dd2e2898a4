import { Injectable } from '@nestjs/common';
import {
  type EntityManager,
  type PreparedStatement,
  type TransactionManager,
  columnList,
  jsonInsert,
  queryRows,
} from '@payments/database';
import {
  Topics,
  type LedgerEntryCreatedData,
  type LedgerEntryKind,
  type LedgerEntrySnapshot,
  type LedgerEntryStatus,
  type LedgerEntryView,
  type Mode,
} from '@payments/contracts';
import { appendToOutbox } from '@payments/messaging';

export const PRODUCER = 'split-ledger-service';

/** A ledger_entries row as PostgreSQL returns it (bigint columns arrive as strings). */
export interface LedgerEntryRow {
  id: string;
  public_id: string;
  kind: LedgerEntryKind;
  mode: Mode;
  transaction_id: string;
  transaction_public_id: string;
  split_config_id: string | null;
  split_config_version: number | null;
  link_split_index: number | null;
  refund_id: string | null;
  reverses_entry_id: string | null;
  creditor_business_id: number;
  debtor_business_id: number;
  amount: string;
  currency: string;
  capped: boolean;
  status: LedgerEntryStatus;
  invoice_reference: string | null;
  settlement_date: Date | null;
  created_at: Date;
}

export type NewLedgerEntry = Omit<
  LedgerEntryRow,
  | 'id'
  | 'public_id'
  | 'status'
  | 'invoice_reference'
  | 'settlement_date'
  | 'created_at'
  | 'amount'
  | 'transaction_id'
  | 'split_config_id'
  | 'refund_id'
  | 'reverses_entry_id'
> & {
  amount: number;
  transaction_id: number;
  split_config_id: number | null;
  refund_id: number | null;
  reverses_entry_id: number | null;
};

export const LEDGER_ENTRY_COLUMNS = columnList<LedgerEntryRow>({
  id: true,
  public_id: true,
  kind: true,
  mode: true,
  transaction_id: true,
  transaction_public_id: true,
  split_config_id: true,
  split_config_version: true,
  link_split_index: true,
  refund_id: true,
  reverses_entry_id: true,
  creditor_business_id: true,
  debtor_business_id: true,
  amount: true,
  currency: true,
  capped: true,
  status: true,
  invoice_reference: true,
  settlement_date: true,
  created_at: true,
});

/**
 * Inserts an entry unless one already exists for the same (transaction, split, kind, refund): the inbox already makes
 * that impossible, and the constraint makes it impossible even for a bug.
 */
const INSERT_ENTRY = jsonInsert<NewLedgerEntry>({
  into: 'ledger_entries',
  fields: {
    kind: 'text',
    mode: 'text',
    transaction_id: 'bigint',
    transaction_public_id: 'text',
    split_config_id: 'bigint',
    split_config_version: 'integer',
    link_split_index: 'integer',
    refund_id: 'bigint',
    reverses_entry_id: 'bigint',
    creditor_business_id: 'integer',
    debtor_business_id: 'integer',
    amount: 'bigint',
    currency: 'text',
    capped: 'boolean',
  },
});
const INSERT_ENTRY_ONCE: PreparedStatement = {
  name: 'ledger_entries_insert',
  text: `${INSERT_ENTRY.text}
         ON CONFLICT ON CONSTRAINT ledger_entries_once DO NOTHING RETURNING ${LEDGER_ENTRY_COLUMNS}`,
};

/** A pending entry as a settlement run nets it. */
export interface PendingEntryRow {
  id: string;
  mode: Mode;
  debtor_business_id: number;
  creditor_business_id: number;
  currency: string;
  amount: string;
}

const nullableNumber = (v: string | null) => (v === null ? null : Number(v));

export function toLedgerEntryView(r: LedgerEntryRow): LedgerEntryView {
  return {
    public_id: r.public_id,
    kind: r.kind,
    transaction_id: Number(r.transaction_id),
    transaction_public_id: r.transaction_public_id,
    split_config_id: nullableNumber(r.split_config_id),
    creditor_business_id: r.creditor_business_id,
    debtor_business_id: r.debtor_business_id,
    amount: Number(r.amount),
    currency: r.currency.trim(),
    status: r.status,
    invoice_reference: r.invoice_reference,
    settlement_date: r.settlement_date ? r.settlement_date.toISOString() : null,
    date_created: r.created_at.toISOString(),
  };
}

function toSnapshot(r: LedgerEntryRow): LedgerEntrySnapshot {
  return {
    id: Number(r.id),
    public_id: r.public_id,
    kind: r.kind,
    mode: r.mode,
    transaction_id: Number(r.transaction_id),
    transaction_public_id: r.transaction_public_id,
    split_config_id: nullableNumber(r.split_config_id),
    link_split_index: r.link_split_index,
    refund_id: nullableNumber(r.refund_id),
    creditor_business_id: r.creditor_business_id,
    debtor_business_id: r.debtor_business_id,
    amount: Number(r.amount),
    currency: r.currency.trim(),
    capped: r.capped,
    status: r.status,
    date_created: r.created_at.toISOString(),
  };
}

/**
 * Serialises everything that writes a transaction's entries (its success, its refunds) for the
 * length of the caller's DB transaction: the two arrive on different topics and may be handled
 * at the same time, and each must see what the other wrote.
 */
export async function lockTransactionLedger(m: EntityManager, transactionId: number): Promise<void> {
  await m.query("SELECT pg_advisory_xact_lock(hashtext('ledger_transaction'), hashtext($1::text))", [
    String(transactionId),
  ]);
}

/** lockTransactionLedger for several transactions in one statement, in id order (so two such calls cannot deadlock). */
export async function lockTransactionLedgers(m: EntityManager, transactionIds: number[]): Promise<void> {
  if (transactionIds.length === 0) return;
  const ids = [...new Set(transactionIds)].sort((a, b) => a - b).map(String);
  // unnest yields the array in order and each row takes its lock as it is produced.
  await m.query(
    "SELECT pg_advisory_xact_lock(hashtext('ledger_transaction'), hashtext(x)) FROM unnest($1::text[]) AS x",
    [ids],
  );
}

/** The one place ledger entries are written, each with its `ledger.entry_created` outbox event. */
@Injectable()
export class LedgerStore {
  /** Inserts an entry (INSERT_ENTRY) with its event; returns the new row, or null when it existed. */
  async insert(m: TransactionManager, e: NewLedgerEntry, correlationId: string | null): Promise<LedgerEntryRow | null> {
    const [row] = await queryRows<LedgerEntryRow>(m, INSERT_ENTRY_ONCE, INSERT_ENTRY.params(e));
    if (!row) return null;
    const data: LedgerEntryCreatedData = { entry: toSnapshot(row) };
    // Keyed by the transaction, so a transaction's entries stay in order on one partition.
    await appendToOutbox(m, {
      topic: Topics.LedgerEntryCreated,
      type: Topics.LedgerEntryCreated,
      key: row.transaction_public_id,
      producer: PRODUCER,
      mode: row.mode,
      businessId: row.debtor_business_id,
      correlationId,
      data,
    });
    return row;
  }

  async entriesOfTransaction(m: EntityManager, transactionId: number): Promise<LedgerEntryRow[]> {
    return queryRows<LedgerEntryRow>(
      m,
      `SELECT ${LEDGER_ENTRY_COLUMNS} FROM ledger_entries WHERE transaction_id = $1 ORDER BY id`,
      [transactionId],
    );
  }

  /** Every pending entry created up to periodEnd, locked for the settlement run. */
  pendingUpTo(m: EntityManager, periodEnd: Date): Promise<PendingEntryRow[]> {
    return queryRows<PendingEntryRow>(
      m,
      `SELECT id, mode, debtor_business_id, creditor_business_id, currency, amount FROM ledger_entries
        WHERE status = 'pending' AND created_at <= $1 ORDER BY id FOR UPDATE`,
      [periodEnd],
    );
  }

  /** Moves the given entries that are still pending onto an invoice; answers how many moved. */
  async invoice(
    m: EntityManager,
    entryIds: number[],
    status: 'invoiced' | 'settled',
    invoiceReference: string,
  ): Promise<number> {
    const moved = await queryRows<{ id: string }>(
      m,
      `UPDATE ledger_entries SET status = $2, invoice_reference = $3, settlement_date = now()
        WHERE id = ANY($1::bigint[]) AND status = 'pending' RETURNING id`,
      [entryIds, status, invoiceReference],
    );
    return moved.length;
  }

  /** An invoice was paid: its invoiced entries are settled. */
  async settleInvoiced(m: EntityManager, invoiceReference: string): Promise<void> {
    await m.query("UPDATE ledger_entries SET status = 'settled' WHERE invoice_reference = $1 AND status = 'invoiced'", [
      invoiceReference,
    ]);
  }
}
