import { IsIn, IsOptional, IsString } from 'class-validator';
import { EVENT_CATALOGUE, EVENT_LIST_ORDERS, type EventListOrder } from '@payments/contracts';
import { CreatedRangeCursorQuery } from '../http/cursor-query';
import { IntegerInRange } from '../http/validation';

export const EVENTS_LIST_DEFAULT = 10;
export const EVENTS_LIST_MAX = 100;

const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;

/** GET /v1/events. The query string is parsed flat, so `created[gte]` is a field of its own. */
export class ListEventsQuery extends CreatedRangeCursorQuery {
  static override cursorIds = { pattern: EVENT_ID, noun: 'an event id (evt_…)' };

  @IsOptional()
  @IntegerInRange('limit', 1, EVENTS_LIST_MAX, { fromQuery: true })
  limit?: number;

  /**
   * `recorded` orders by when the events were recorded rather than by their time, so a follower
   * paging to newer events with ending_before sees every event once, however late it was recorded.
   */
  @IsOptional()
  @IsIn(EVENT_LIST_ORDERS, { message: `order must be one of ${EVENT_LIST_ORDERS.join(', ')}` })
  order?: EventListOrder;

  @IsOptional()
  @IsString({ message: 'type must be one event type' })
  @IsIn(EVENT_CATALOGUE, { message: `type must be one of ${EVENT_CATALOGUE.join(', ')}` })
  type?: string;
}

/** Path ids that cannot be an event name nothing: 404 without asking the dispatcher. */
export const isEventId = (raw: string): boolean => EVENT_ID.test(raw);
