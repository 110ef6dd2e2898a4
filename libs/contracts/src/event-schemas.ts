import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MODES } from './common';
import {
  REFUND_STATUSES,
  TRANSACTION_STATUSES,
  type RefundStatusChangedData,
  type TransactionStatusChangedData,
} from './events';
import { SPLIT_TYPES, type SettlementInvoiceChangedData } from './ledger';
import { Topics } from './topics';

/**
 * What a consumer needs of each event's `data`, as TypeBox schemas compiled into event-checks.generated.ts
 * (`npm run generate:event-checks`) so services need not load TypeBox. Objects are open (producers may add fields
 * first), fields older events lack are optional, and the checks below ensure every producible event decodes.
 */

// Literal unions rather than the schema kit's StringEnum: they compile to plain comparisons.
const OneOf = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TSchema & { static: T[number] };
const NullableStr = Type.Union([Type.String(), Type.Null()]);
const Metadata = Type.Record(Type.String(), Type.String());

const LinkSplit = Type.Object({
  business_id: Type.Integer(),
  type: OneOf(SPLIT_TYPES),
  value: Type.Number(),
  description: Type.Optional(NullableStr),
});

const TransactionSnapshot = Type.Object({
  id: Type.Integer(),
  transaction_id: Type.String(),
  transaction_reference: Type.String(),
  business_id: Type.Integer(),
  mode: OneOf(MODES),
  amount: Type.Integer(),
  charges: Type.Integer(),
  total: Type.Integer(),
  currency: Type.String(),
  status: OneOf(TRANSACTION_STATUSES),
  message: Type.String(),
  email: Type.String(),
  payment_method_type: NullableStr,
  payment_method_code: NullableStr,
  checkout_id: NullableStr,
  payment_link_id: NullableStr,
  // Read as [] when absent.
  link_splits: Type.Optional(Type.Array(LinkSplit)),
  metadata: Type.Optional(Metadata),
  description: Type.Optional(NullableStr),
  version: Type.Integer(),
  date_created: Type.String(),
  date_updated: Type.String(),
});

export const TransactionStatusChangedDecoder = Type.Object({
  transaction: TransactionSnapshot,
  previous_status: Type.Union([OneOf(TRANSACTION_STATUSES), Type.Null()]),
  status: OneOf(TRANSACTION_STATUSES),
});

export const RefundStatusChangedDecoder = Type.Object({
  refund: Type.Object({
    id: Type.Integer(),
    refund_id: Type.String(),
    business_id: Type.Integer(),
    mode: OneOf(MODES),
    amount: Type.Integer(),
    currency: Type.String(),
    status: OneOf(REFUND_STATUSES),
    message: Type.String(),
    reason: Type.Optional(NullableStr),
    metadata: Type.Optional(Metadata),
    description: Type.Optional(NullableStr),
    transaction: Type.Object({
      id: Type.Integer(),
      transaction_id: Type.String(),
      transaction_reference: Type.String(),
      amount: Type.Integer(),
    }),
    version: Type.Integer(),
    date_created: Type.String(),
    date_updated: Type.String(),
  }),
  previous_status: Type.Union([OneOf(REFUND_STATUSES), Type.Null()]),
  status: OneOf(REFUND_STATUSES),
});

const INVOICE_STATUSES = ['issued', 'paid'] as const;
export const SettlementInvoiceChangedDecoder = Type.Object({
  invoice: Type.Object({
    invoice_reference: Type.String(),
    debtor_business_id: Type.Integer(),
    creditor_business_id: Type.Integer(),
    currency: Type.String(),
    amount: Type.Integer(),
    status: OneOf(INVOICE_STATUSES),
    entry_count: Type.Integer(),
    period_end: Type.String(),
    date_created: Type.String(),
    date_paid: NullableStr,
  }),
  previous_status: Type.Union([OneOf(INVOICE_STATUSES), Type.Null()]),
  status: OneOf(INVOICE_STATUSES),
});

/** The decoder of each consumed event type (the envelope's `type`, which is its topic). */
export const EVENT_DATA_DECODERS = {
  [Topics.TransactionStatusChanged]: TransactionStatusChangedDecoder,
  [Topics.RefundStatusChanged]: RefundStatusChangedDecoder,
  [Topics.SettlementInvoiceChanged]: SettlementInvoiceChangedDecoder,
} as const;

// Every event a producer can write decodes: a producer type that drifts from its decoder fails to compile.
type Decodes<Produced, Decoder extends TSchema> = Produced extends Static<Decoder> ? true : never;
export const PRODUCED_EVENTS_DECODE: [
  Decodes<TransactionStatusChangedData, typeof TransactionStatusChangedDecoder>,
  Decodes<RefundStatusChangedData, typeof RefundStatusChangedDecoder>,
  Decodes<SettlementInvoiceChangedData, typeof SettlementInvoiceChangedDecoder>,
] = [true, true, true];
