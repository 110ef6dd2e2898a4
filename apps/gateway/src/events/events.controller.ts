import { Controller, Get, Inject, Param, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  WebhookRpcPatterns,
  type EventIdBody,
  type EventView,
  type ListEventsBody,
  type ListEventsResult,
} from '@payments/contracts';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { ApiException } from '../http/api-exception';
import { RpcClientPool, WEBHOOK_DISPATCHER } from '../rpc/rpc-client-pool';
import { createdRange } from '../http/dates';
import { cursorPage } from '../http/cursor-query';
import { EVENTS_LIST_DEFAULT, isEventId, ListEventsQuery } from './event.requests';
import { ApiResponds } from '@payments/platform';
import * as R from './event.responses';
import { ValidQuery } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';

/**
 * The events API: the catalogue events raised for the caller's business and mode, the same ids
 * and objects its webhooks carry, kept for EVENT_RETENTION. Secret key only.
 */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/events')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(@Inject(WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool) {}

  @Get()
  @ApiResponds(
    200,
    'One page of events, newest first by time or, with order=recorded, by when they were recorded ' +
      '(test pings are not listed)',
    R.EventList,
  )
  @ApiErrors()
  async list(@Req() req: ApiRequest, @ValidQuery(ListEventsQuery) q: ListEventsQuery): Promise<R.EventList> {
    const r = await this.hooks.call<ListEventsBody, ListEventsResult>(WebhookRpcPatterns.EventsList, rpcContext(req), {
      order: q.order,
      type: q.type,
      created: createdRange(q),
      ...cursorPage(q, EVENTS_LIST_DEFAULT),
    });
    return { result: 'success', events: r.events, has_more: r.has_more };
  }

  @Get(':id')
  @ApiResponds(200, 'The event', R.EventAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  async get(@Req() req: ApiRequest, @Param('id') id: string): Promise<R.EventAnswer> {
    if (!isEventId(id)) throw new ApiException(ErrorCodes.NotFound, `no event ${id}`);
    const event = await this.hooks.call<EventIdBody, EventView>(WebhookRpcPatterns.EventsGet, rpcContext(req), { id });
    return { result: 'success', event };
  }
}
