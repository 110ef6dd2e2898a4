import { Bool, List, WebhookEventSchema, type Static } from '@payments/contracts/schemas';
import { Ok } from '../http/responses';

/** Answers of /v1/events: the same objects as the webhook bodies (schemas in libs/contracts). */
export const EventList = Ok({ events: List(WebhookEventSchema), has_more: Bool() });
export type EventList = Static<typeof EventList>;

export const EventAnswer = Ok({ event: WebhookEventSchema });
export type EventAnswer = Static<typeof EventAnswer>;
