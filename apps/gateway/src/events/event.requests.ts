import { EVENT_CATALOGUE, EVENT_LIST_ORDERS } from '@payments/contracts';
import type { Static } from '@payments/contracts/schemas';
import { createdRangeFields, cursorFields } from '../http/cursor-query';
import { integerInRange } from '../http/request-fields';
import { isIn, isString } from '../http/request-rules';
import { optional, requestQuery } from '../http/request-schema';

export const EVENTS_LIST_DEFAULT = 10;
export const EVENTS_LIST_MAX = 100;

const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;

/** GET /v1/events. The query string is parsed flat, so `created[gte]` is a field of its own. */
export const ListEventsQuery = requestQuery('ListEventsQuery', {
  limit: integerInRange('limit', 1, EVENTS_LIST_MAX, { fromQuery: true }),
  /**
   * `recorded` orders by when the events were recorded rather than by their time, so a follower
   * paging to newer events with ending_before sees every event once, however late it was recorded.
   */
  order: optional([isIn(EVENT_LIST_ORDERS, `order must be one of ${EVENT_LIST_ORDERS.join(', ')}`)]),
  type: optional([
    isIn(EVENT_CATALOGUE, `type must be one of ${EVENT_CATALOGUE.join(', ')}`),
    isString('type must be one event type'),
  ]),
  ...cursorFields({ pattern: EVENT_ID, noun: 'an event id (evt_…)' }),
  ...createdRangeFields(),
});
export type ListEventsQuery = Static<typeof ListEventsQuery>;

/** Path ids that cannot be an event name nothing: 404 without asking the dispatcher. */
export const isEventId = (raw: string): boolean => EVENT_ID.test(raw);
