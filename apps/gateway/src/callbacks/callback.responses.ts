import { DELIVERY_STATUSES } from '@payments/contracts';
import { Bool, Closed, Int, List, Nullable, Str, StringEnum, type Static } from '@payments/contracts/schemas';
import { Ok } from '../http/responses';

/** Answers of /v1/callback and the webhook admin API: the handlers' return types and the OpenAPI schemas. */
const callbackFields = {
  url: Str(),
  description: Str(),
  events: List(Str()),
  is_active: Bool(),
  failure_count: Int(),
  last_triggered: Nullable(Str()),
  date_created: Str(),
  date_updated: Str(),
};

/** The fetch shape: the spec's longer form, whose id is a string. */
export const CallbackLong = Closed({
  id: Str('The spec types the fetched callback id as a string'),
  ...callbackFields,
});
export type CallbackLong = Static<typeof CallbackLong>;

/** The list's superset item: both spec shapes at once, id as an integer. */
export const CallbackListItem = Closed({ id: Int(), ...callbackFields, dateCreated: Str() });
export type CallbackListItem = Static<typeof CallbackListItem>;

export const CallbackMessage = Ok({ message: Str() });
export type CallbackMessage = Static<typeof CallbackMessage>;

export const CallbackList = Ok({
  message: Str(),
  callbacks: List(CallbackListItem),
  total_count: Int(),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type CallbackList = Static<typeof CallbackList>;

export const CallbackAnswer = Ok({ callback: CallbackLong });
export type CallbackAnswer = Static<typeof CallbackAnswer>;

export const CallbackSecret = Ok({ secret: Str(), previous_secret_expires_at: Nullable(Str()) });
export type CallbackSecret = Static<typeof CallbackSecret>;

export const CallbackSecretRolled = Ok({ message: Str(), secret: Str(), previous_secret_expires_at: Nullable(Str()) });
export type CallbackSecretRolled = Static<typeof CallbackSecretRolled>;

const Delivery = Closed({
  delivery_id: Str(),
  event_id: Str(),
  event: Str(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: List(
    Closed({
      attempt: Int(),
      status_code: Nullable(Int()),
      duration_ms: Int(),
      error: Nullable(Str()),
      date_created: Str(),
    }),
  ),
  next_attempt_at: Nullable(Str()),
  date_created: Str(),
});
export const DeliveryList = Ok({
  deliveries: List(Delivery),
  total_count: Int(),
  has_more: Bool('Whether another page follows in the direction paged'),
});
export type DeliveryList = Static<typeof DeliveryList>;

export const DeliveryResent = Ok({ message: Str(), delivery_id: Str(), status: StringEnum(['pending'] as const) });
export type DeliveryResent = Static<typeof DeliveryResent>;

export const DeliveriesRecovered = Ok({ message: Str(), requeued: Int() });
export type DeliveriesRecovered = Static<typeof DeliveriesRecovered>;

export const TestWebhookSent = Ok({
  message: Str(),
  event_id: Str(),
  delivery_id: Str(),
  status_code: Nullable(Int()),
  duration_ms: Int(),
  error: Nullable(Str()),
});
export type TestWebhookSent = Static<typeof TestWebhookSent>;

export const AdminDeliveriesRecovered = Ok({
  dry_run: Bool(),
  deliveries: List(
    Closed({
      delivery_id: Str(),
      callback_id: Int(),
      event_id: Str(),
      event: Str(),
      status: StringEnum(['failed', 'skipped'] as const),
      date_created: Str(),
    }),
  ),
  next: Nullable(Str()),
  total: Nullable(Int()),
});
export type AdminDeliveriesRecovered = Static<typeof AdminDeliveriesRecovered>;
