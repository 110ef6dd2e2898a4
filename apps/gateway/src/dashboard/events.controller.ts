import { Controller, Get, Inject, Param, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  EVENT_CATALOGUE,
  ErrorCodes,
  WebhookRpcPatterns,
  type DashboardApi,
  type EventDeliveriesBody,
  type EventDeliveriesResult,
  type EventIdBody,
  type EventView,
  type ListEventsBody,
  type ListEventsResult,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import { isEventId, ListEventsQuery } from '../events/event.requests';
import { ApiException } from '../http/api-exception';
import { cursorPage } from '../http/cursor-query';
import { createdRange } from '../http/dates';
import type { ApiRequest } from '../http/http-types';
import { ValidQuery } from '../http/request-validation';
import { RpcClientPool, WEBHOOK_DISPATCHER } from '../rpc/rpc-client-pool';
import { Allows, DashboardGuard } from './dashboard.guard';

/** The events page's page size when the query names none (the API's maximum, 100, still applies). */
export const EVENTS_PAGE = 25;

/**
 * The events API for the dashboard: GET /v1/events's query (the same schema: type, created
 * bounds, order, cursors, limit) and RPC, and an event with the webhook deliveries it caused.
 */
@ApiExcludeController()
@Controller('dashboard/api/events')
@UseGuards(DashboardGuard)
export class DashboardEventsController {
  constructor(@Inject(WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool) {}

  @Get()
  @Allows('events.read')
  async list(@Req() req: ApiRequest, @ValidQuery(ListEventsQuery) q: ListEventsQuery): Promise<DashboardApi.EventList> {
    const r = await this.hooks.call<ListEventsBody, ListEventsResult>(WebhookRpcPatterns.EventsList, rpcContext(req), {
      order: q.order,
      type: q.type,
      created: createdRange(q),
      ...cursorPage(q, EVENTS_PAGE),
    });
    return { result: 'success', events: r.events, has_more: r.has_more, event_types: EVENT_CATALOGUE };
  }

  @Get(':id')
  @Allows('events.read')
  async get(@Req() req: ApiRequest, @Param('id') id: string): Promise<DashboardApi.EventDetail> {
    if (!isEventId(id)) throw new ApiException(ErrorCodes.NotFound, `no event ${id}`);
    const ctx = rpcContext(req);
    // The event first: 404 for another business's or mode's id before anything else is asked.
    const event = await this.hooks.call<EventIdBody, EventView>(WebhookRpcPatterns.EventsGet, ctx, { id });
    const { deliveries } = await this.hooks.call<EventDeliveriesBody, EventDeliveriesResult>(
      WebhookRpcPatterns.EventsDeliveries,
      ctx,
      { event_id: id },
    );
    return { result: 'success', event, deliveries };
  }
}
