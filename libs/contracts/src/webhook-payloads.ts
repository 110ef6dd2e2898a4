import { AnnotationFields } from './annotation-schemas';
import { MODES } from './common';
import { REFUND_STATUSES, TRANSACTION_STATUSES } from './events';
import { Closed, Int, Nullable, Str, StringEnum, Type, type Static, type TSchema } from './schema-kit';
import { EVENT_CATALOGUE, PING_EVENT, type CatalogueEvent } from './webhook-events';

/**
 * The `data` of each webhook event type. These schemas are the TypeScript types the
 * dispatcher's payload builders return and the schemas of the OpenAPI document's `webhooks`
 * (and of the events API, which answers the same objects).
 */

const TransactionStatusSchema = StringEnum(TRANSACTION_STATUSES);
const RefundStatusSchema = StringEnum(REFUND_STATUSES);

export const TransactionEventData = Closed(
  {
    transaction_id: Str(),
    transaction_reference: Str(),
    amount: Int('Minor units'),
    charges: Int('Minor units'),
    total: Int('Minor units: amount plus charges'),
    currency: Str(),
    status: TransactionStatusSchema,
    previous_status: Nullable(TransactionStatusSchema, 'null on the event that created the transaction'),
    message: Str(),
    emailAddress: Str(),
    payment_method_type: Nullable(Str()),
    payment_method_code: Nullable(Str()),
    dateCreated: Str('ISO 8601'),
    ...AnnotationFields,
  },
  'A transaction after a status change (payment.* and transaction.* events)',
);
export type TransactionEventData = Static<typeof TransactionEventData>;

export const RefundEventData = Closed(
  {
    refund_id: Str(),
    transaction_id: Str(),
    transaction_reference: Str(),
    amount: Int('Minor units'),
    currency: Str(),
    status: RefundStatusSchema,
    previous_status: Nullable(RefundStatusSchema, 'null on the event that created the refund'),
    message: Str(),
    reason: Nullable(Str('Free text given when the refund was asked for')),
    ...AnnotationFields,
    date_created: Str('ISO 8601'),
  },
  'A refund after a status change (refund.* events)',
);
export type RefundEventData = Static<typeof RefundEventData>;

export const PayoutEventData = Closed(
  {
    invoice_reference: Str(),
    debtor_business_id: Int('The business that owes the amount'),
    creditor_business_id: Int('The business paid out: the receiver of this webhook'),
    currency: Str(),
    amount: Int('Minor units'),
    status: StringEnum(['issued', 'paid'] as const),
    entry_count: Int('Ledger entries the invoice settles'),
    period_end: Str('ISO 8601: the settlement covers entries created before it'),
    date_created: Str('ISO 8601'),
    date_paid: Nullable(Str('ISO 8601')),
  },
  'A settlement invoice: issued (payout.created) or paid (payout.completed)',
);
export type PayoutEventData = Static<typeof PayoutEventData>;

export const PingEventData = Closed(
  { callback_id: Int('The callback the test was sent to'), message: Str() },
  'Sent only by POST /v1/callback/{id}/test',
);
export type PingEventData = Static<typeof PingEventData>;

export type WebhookEventType = CatalogueEvent | typeof PING_EVENT;

/** The data schema of every event type the dispatcher sends; the compiler requires one per type. */
export const WEBHOOK_EVENT_DATA = {
  'payment.created': TransactionEventData,
  'payment.updated': TransactionEventData,
  'payment.completed': TransactionEventData,
  'transaction.pending': TransactionEventData,
  'transaction.processing': TransactionEventData,
  'transaction.success': TransactionEventData,
  'transaction.failed': TransactionEventData,
  'refund.pending': RefundEventData,
  'refund.success': RefundEventData,
  'refund.failed': RefundEventData,
  'payout.created': PayoutEventData,
  'payout.completed': PayoutEventData,
  [PING_EVENT]: PingEventData,
} as const satisfies Record<WebhookEventType, TSchema>;

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [...EVENT_CATALOGUE, PING_EVENT];

/** The body of a webhook delivery (and an events API item) of one event type. */
export const webhookEventSchema = (type: WebhookEventType) =>
  Closed({
    id: Str('evt_…, also the webhook-id header of its deliveries'),
    event: Type.Literal(type),
    created_at: Str('ISO 8601'),
    mode: StringEnum(MODES),
    data: WEBHOOK_EVENT_DATA[type],
  });

/** Any event: the body of a webhook delivery, and what the events API answers (it lists no pings). */
export const WebhookEventSchema = Type.Union(
  WEBHOOK_EVENT_TYPES.map((type) => webhookEventSchema(type)),
  { description: 'An event: exactly the body of its webhook deliveries' },
);
export type WebhookEventBody = Static<typeof WebhookEventSchema>;
