import {
  Topics,
  type Metadata,
  type Mode,
  type TransactionSnapshot,
  type TransactionStatus,
  type TransactionStatusChangedData,
  type TransactionView,
} from '@payments/contracts';
import { type ColumnType, columnList } from '@payments/database';
import type { NewEvent } from '@payments/messaging';

/** A transactions row as PostgreSQL returns it (bigint columns arrive as strings). */
export interface TransactionRow {
  id: string;
  public_id: string;
  business_id: number;
  mode: Mode;
  reference: string;
  amount: string;
  charges: string;
  total: string;
  currency: string;
  email: string;
  payment_method_type: string | null;
  payment_method_code: string | null;
  mobile_money_number: string | null;
  requested_response: string | null;
  status: TransactionStatus;
  message: string;
  checkout_id: string;
  success_url: string | null;
  failure_url: string | null;
  payment_link_id: string | null;
  link_splits: TransactionSnapshot['link_splits'];
  metadata: Metadata;
  description: string | null;
  settle_at: Date | null;
  expires_at: Date;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** Every column of TransactionRow: what each statement reads or returns, so a row is exactly this type. */
export const ROW_COLUMNS = columnList<TransactionRow>({
  id: true,
  public_id: true,
  business_id: true,
  mode: true,
  reference: true,
  amount: true,
  charges: true,
  total: true,
  currency: true,
  email: true,
  payment_method_type: true,
  payment_method_code: true,
  mobile_money_number: true,
  requested_response: true,
  status: true,
  message: true,
  checkout_id: true,
  success_url: true,
  failure_url: true,
  payment_link_id: true,
  link_splits: true,
  metadata: true,
  description: true,
  settle_at: true,
  expires_at: true,
  version: true,
  created_at: true,
  updated_at: true,
});

export const PRODUCER = 'transaction-service';

export function toSnapshot(row: TransactionRow): TransactionSnapshot {
  return {
    id: Number(row.id),
    transaction_id: row.public_id,
    transaction_reference: row.reference,
    business_id: row.business_id,
    mode: row.mode,
    amount: Number(row.amount),
    charges: Number(row.charges),
    total: Number(row.total),
    currency: row.currency.trim(),
    status: row.status,
    message: row.message,
    email: row.email,
    payment_method_type: row.payment_method_type,
    payment_method_code: row.payment_method_code,
    checkout_id: row.checkout_id,
    payment_link_id: row.payment_link_id,
    link_splits: row.link_splits ?? [],
    metadata: row.metadata ?? {},
    description: row.description ?? null,
    version: row.version,
    date_created: row.created_at.toISOString(),
    date_updated: row.updated_at.toISOString(),
  };
}

/** The row as the gateway answers with it (transactions.verify, list, get), with the sum of its successful refunds. */
export function toView(row: TransactionRow, amountRefunded: number): TransactionView {
  return {
    transaction_id: row.public_id,
    transaction_reference: row.reference,
    amount: Number(row.amount),
    charges: Number(row.charges),
    total: Number(row.total),
    currency: row.currency.trim(),
    status: row.status,
    message: row.message,
    email: row.email,
    checkout_id: row.checkout_id,
    success_url: row.success_url,
    failure_url: row.failure_url,
    payment_method_type: row.payment_method_type,
    payment_method_code: row.payment_method_code,
    payment_link_id: row.payment_link_id,
    amount_refunded: amountRefunded,
    metadata: row.metadata ?? {},
    description: row.description ?? null,
    date_created: row.created_at.toISOString(),
    date_updated: row.updated_at.toISOString(),
  };
}

export class ConcurrentStatusChange extends Error {}

/** The event of a row's status change (`previous` null for its creation), built from the row as stored. */
export function statusEvent(
  row: TransactionRow,
  previous: TransactionStatus | null,
  correlationId: string | null,
): NewEvent<TransactionStatusChangedData> {
  return {
    topic: Topics.TransactionStatusChanged,
    type: Topics.TransactionStatusChanged,
    key: row.public_id,
    producer: PRODUCER,
    mode: row.mode,
    businessId: row.business_id,
    correlationId,
    data: { transaction: toSnapshot(row), previous_status: previous, status: row.status },
  };
}

/**
 * The columns an insert writes, with their type in its JSON document; the statement's column list and recordset are
 * built from this, so a column is added once. `expires_at` is computed by the statement, so expiry counts from commit.
 */
export const INSERT_COLUMNS = {
  public_id: 'text',
  business_id: 'integer',
  mode: 'text',
  reference: 'text',
  amount: 'bigint',
  charges: 'bigint',
  total: 'bigint',
  currency: 'text',
  email: 'text',
  payment_method_type: 'text',
  payment_method_code: 'text',
  mobile_money_number: 'text',
  requested_response: 'text',
  status: 'text',
  message: 'text',
  checkout_id: 'text',
  success_url: 'text',
  failure_url: 'text',
  payment_link_id: 'text',
  link_splits: 'jsonb',
  checkout_attempt: 'text',
  version: 'integer',
  settle_at: 'timestamptz',
  metadata: 'jsonb',
  description: 'text',
  idempotency_key: 'text',
} as const satisfies Record<string, ColumnType>;

const INSERTED_KEYS = Object.keys(INSERT_COLUMNS) as (keyof typeof INSERT_COLUMNS)[];

/** A row's columns as an insert writes them: the statement adds id, expires_at and the timestamps. */
export type NewTransactionRow = Omit<TransactionRow, 'id' | 'expires_at' | 'created_at' | 'updated_at'>;

/** A status a new transaction moves to at once (the sandbox's handset prompt): see NewTransaction.then. */
export type FirstStep = Pick<TransactionRow, 'status' | 'message' | 'settle_at'>;

/** The state a transaction is created in when it is inserted past it (NewTransaction.then): its creation event's. */
export type FirstState = FirstStep & Pick<TransactionRow, 'version'>;

/** What an insert writes besides the row's own columns. */
interface InsertOnly {
  /** Seconds from the commit until it expires. */
  expires_in: number;
  /** The hosted page's attempt that created it, unique per link (TransactionQueries.byLinkAttempt). */
  checkout_attempt: string | null;
  /** ctx.idempotency_key of the creating request: a second insert with it meets transactions_idempotency_key. */
  idempotency_key: string | null;
}

/** A new transaction as its creator gives it: the columns it chooses, named as they are. */
export type NewTransaction = Pick<
  NewTransactionRow,
  | 'business_id'
  | 'mode'
  | 'reference'
  | 'currency'
  | 'email'
  | 'payment_method_type'
  | 'payment_method_code'
  | 'mobile_money_number'
  | 'requested_response'
  | 'message'
  | 'success_url'
  | 'failure_url'
> &
  Partial<Pick<NewTransactionRow, 'payment_link_id' | 'link_splits' | 'metadata' | 'description'>> &
  Pick<InsertOnly, 'expires_in'> &
  Partial<InsertOnly> & {
    amount: number;
    charges: number;
    /** When the caller stops waiting (ctx.deadline_at): not written after it (TransactionInsertBatch). */
    deadline_at?: number;
    /**
     * A status the transaction moves to at once: the row is inserted in it, and after the creation event comes the
     * event of that change, as if changeStatus had run right after the insert.
     */
    then?: FirstStep;
  };

/** A transaction ready to insert: `row` as stored (in its `then` status, if any) and insert-only fields. */
export interface PreparedInsert {
  row: NewTransactionRow;
  insertOnly: InsertOnly;
  /** Set when `row` is already past its creation state: the creation event then shows this state. */
  firstState: FirstState | null;
  correlationId: string | null;
  /** Epoch ms after which the caller no longer waits (not written then; see TransactionInsertBatch). */
  deadlineAt: number | undefined;
}

/** The events of an inserted transaction, from its stored row: its creation, then the change to `then` if any. */
export function creationEvents(stored: TransactionRow, item: PreparedInsert): NewEvent<TransactionStatusChangedData>[] {
  const { firstState, correlationId } = item;
  if (!firstState) return [statusEvent(stored, null, correlationId)];
  return [
    statusEvent({ ...stored, ...firstState }, null, correlationId),
    statusEvent(stored, firstState.status, correlationId),
  ];
}

/**
 * One entry of the insert statement's JSON document; field names as the columns, so log redaction
 * recognises them (metadata, description, mobile number) in a logged statement's parameters.
 */
export function insertRecord({ row, insertOnly }: PreparedInsert, i: number) {
  const source = { ...row, ...insertOnly } satisfies Record<keyof typeof INSERT_COLUMNS, unknown>;
  const record = Object.fromEntries(INSERTED_KEYS.map((column) => [column, source[column]]));
  return { i, ...record, expires_in: insertOnly.expires_in };
}
