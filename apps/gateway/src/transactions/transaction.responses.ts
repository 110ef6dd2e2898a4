import { REFUND_STATUSES, TRANSACTION_STATUSES, SPLIT_TYPES } from '@payments/contracts';
import {
  AnnotationFields,
  MetadataSchema,
  Bool,
  Closed,
  Int,
  List,
  Nullable,
  Num,
  Str,
  StringEnum,
  Type,
  type Static,
} from '@payments/contracts/schemas';
import { Ok } from '../http/responses';

/** Answers of /v1/transactions and /v1/links: the presenters' return types and the OpenAPI schemas. */
const Status = StringEnum(TRANSACTION_STATUSES);
const AmountRefunded = Int('Sum of the successful refunds, minor units');

export const InitializedTransaction = Ok({
  transaction_id: Str(),
  transaction_reference: Str(),
  message: Str(),
  total: Num('Amount plus charges in MAJOR units'),
  checkout_url: Type.Optional(Str('Present when the customer completes the payment on the hosted page')),
  authorization_url: Type.Optional(
    Str("Live payments by redirect: send the customer's browser here to pay at the provider"),
  ),
  authorization_code: Type.Optional(Str('InnBucks: the code the customer approves in their wallet')),
  authorization_expires: Type.Optional(Str('InnBucks: until when the code is valid, as the provider wrote it')),
  instructions: Type.Optional(Str('What the provider asks the customer to do')),
  ...AnnotationFields,
});
export type InitializedTransaction = Static<typeof InitializedTransaction>;

export const VerifiedTransaction = Ok({
  transaction_id: Str(),
  transaction_reference: Str(),
  amount: Int(),
  charges: Int(),
  total: Int(),
  currency: Str(),
  status: Status,
  emailAddress: Str(),
  checkoutId: Nullable(Str()),
  successUrl: Nullable(Str()),
  failureUrl: Nullable(Str()),
  dateCreated: Str('ISO 8601'),
  amount_refunded: AmountRefunded,
  ...AnnotationFields,
});
export type VerifiedTransaction = Static<typeof VerifiedTransaction>;

export const TransactionListItem = Closed({
  transaction_id: Str(),
  amount: Str('Decimal string in major units'),
  currency: Str(),
  status: Status,
  message: Str(),
  ...AnnotationFields,
  details: Closed({
    transaction_reference: Str(),
    charges: Str(),
    total: Str(),
    email: Str(),
    payment_method_type: Nullable(Str()),
    payment_method_code: Nullable(Str()),
    payment_link_id: Nullable(Str()),
    amount_refunded: AmountRefunded,
    date_created: Str(),
    date_updated: Str(),
  }),
});
export type TransactionListItem = Static<typeof TransactionListItem>;

export const TransactionList = Ok({
  transactions: List(TransactionListItem),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type TransactionList = Static<typeof TransactionList>;

export const TransactionModel = Ok({
  transactionId: Str(),
  transactionReference: Str(),
  amount: Int(),
  charges: Int(),
  total: Int(),
  currency: Str(),
  emailAddress: Str(),
  status: Status,
  checkoutId: Nullable(Str()),
  successUrl: Nullable(Str()),
  failureUrl: Nullable(Str()),
  dateCreated: Str(),
  amount_refunded: AmountRefunded,
  ...AnnotationFields,
});
export type TransactionModel = Static<typeof TransactionModel>;

export const RefundCreated = Ok({
  message: Str(),
  refund_id: Str(),
  status: StringEnum(REFUND_STATUSES, 'pending: a refund completes asynchronously (refund.* webhooks)'),
  amount: Int('The amount asked for, or all that was left'),
  reason: Nullable(Str()),
  ...AnnotationFields,
});
export type RefundCreated = Static<typeof RefundCreated>;

const refundFields = {
  refund_id: Str(),
  status: StringEnum(REFUND_STATUSES),
  amount: Int(),
  currency: Str(),
  transaction_id: Str(),
  transaction_reference: Str(),
  message: Str(),
  reason: Nullable(Str('Free text given when the refund was asked for')),
  ...AnnotationFields,
  date_created: Str(),
  date_updated: Str(),
};
export const RefundItem = Closed(refundFields);
export type RefundItem = Static<typeof RefundItem>;
export const RefundAnswer = Ok(refundFields);
export type RefundAnswer = Static<typeof RefundAnswer>;
export const RefundList = Ok({
  refunds: List(RefundItem),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type RefundList = Static<typeof RefundList>;

export const LinkCreated = Ok({
  payment_link_id: Str(),
  hosted_payment_link: Str(),
  message: Str('States amount, charges and total'),
  description: Str(),
  metadata: MetadataSchema,
});
export type LinkCreated = Static<typeof LinkCreated>;

const linkFields = {
  payment_link_id: Str(),
  hosted_payment_link: Str('Page where customers pay'),
  amount: Int(),
  charges: Int(),
  total: Int(),
  currency: Str(),
  description: Str(),
  metadata: MetadataSchema,
  splits: List(
    Closed({
      business_id: Int(),
      type: StringEnum(SPLIT_TYPES),
      value: Int('Basis points for percentage, minor units for fixed'),
      description: Nullable(Str()),
    }),
  ),
  success_url: Nullable(Str()),
  failure_url: Nullable(Str()),
  active: Bool(),
  is_active: Bool(),
  date_created: Str(),
  date_updated: Str(),
  date_deactivated: Nullable(Str()),
};
export const LinkObject = Closed(linkFields);
export type LinkObject = Static<typeof LinkObject>;
export const LinkAnswer = Ok(linkFields);
export type LinkAnswer = Static<typeof LinkAnswer>;
export const LinkList = Ok({ links: List(LinkObject), has_more: Bool() });
export type LinkList = Static<typeof LinkList>;
