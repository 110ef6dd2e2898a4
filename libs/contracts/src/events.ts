import type { EventEnvelope } from './envelope';
import type { SplitType } from './ledger';
import { Topics } from './topics';
import type { Mode } from './common';

export const TRANSACTION_STATUSES = ['pending', 'processing', 'success', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const REFUND_STATUSES = ['pending', 'success', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Event types carried in envelopes, one per topic for now; the payload type sits beside each. */
export const EventTypes = {
  TransactionStatusChanged: Topics.TransactionStatusChanged,
  RefundStatusChanged: Topics.RefundStatusChanged,
  LedgerEntryCreated: Topics.LedgerEntryCreated,
  SettlementInvoiceChanged: Topics.SettlementInvoiceChanged,
} as const;

/** Merchant key-value data on transactions, links and refunds; its rules are in @payments/domain (metadata.ts). */
export type Metadata = Record<string, string>;
/** Metadata as a request sends it: `null` or `""` is none (on an update: remove all); a key set to `""` is removed. */
export type MetadataInput = Record<string, unknown> | null | '';

/** A split carried by a transaction paid through a payment link. */
export interface LinkSplit {
  business_id: number;
  type: SplitType;
  value: number;
  description?: string | null;
}

/**
 * What every shape of a transaction outside its service shows: the event snapshot and the RPC view
 * are this plus their own fields.
 */
export interface TransactionFields {
  transaction_id: string;
  transaction_reference: string;
  amount: number;
  charges: number;
  total: number;
  currency: string;
  status: TransactionStatus;
  message: string;
  email: string;
  payment_method_type: string | null;
  payment_method_code: string | null;
  checkout_id: string | null;
  payment_link_id: string | null;
  date_created: string;
  date_updated: string;
}

/** The transaction as consumers see it: everything needed to apply splits and build webhooks. */
export interface TransactionSnapshot extends TransactionFields {
  id: number;
  business_id: number;
  mode: Mode;
  link_splits: LinkSplit[];
  /** Absent in events written before transactions had metadata (read as `{}` and null). */
  metadata?: Metadata;
  description?: string | null;
  /** Increases by one on every status change; consumers use it to ignore stale updates. */
  version: number;
}

export interface TransactionStatusChangedData {
  transaction: TransactionSnapshot;
  previous_status: TransactionStatus | null;
  status: TransactionStatus;
}
export type TransactionStatusChangedEvent = EventEnvelope<
  typeof EventTypes.TransactionStatusChanged,
  TransactionStatusChangedData
>;

/** A refund as consumers see it. `transaction` identifies what it refunds. */
export interface RefundSnapshot {
  id: number;
  refund_id: string;
  business_id: number;
  mode: Mode;
  amount: number;
  currency: string;
  status: RefundStatus;
  message: string;
  /** The merchant's free-text reason; absent in events written before refunds had one. */
  reason?: string | null;
  /** Absent in events written before refunds had metadata (read as `{}` and null). */
  metadata?: Metadata;
  description?: string | null;
  transaction: { id: number; transaction_id: string; transaction_reference: string; amount: number };
  version: number;
  date_created: string;
  date_updated: string;
}

export interface RefundStatusChangedData {
  refund: RefundSnapshot;
  previous_status: RefundStatus | null;
  status: RefundStatus;
}
export type RefundStatusChangedEvent = EventEnvelope<typeof EventTypes.RefundStatusChanged, RefundStatusChangedData>;
