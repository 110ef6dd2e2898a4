import { Controller, Get, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  EVENT_CATALOGUE,
  ErrorCodes,
  WebhookRpcPatterns,
  type CallbackView,
  type DashboardApi,
  type ListCallbacksBody,
  type ListCallbacksResult,
  type ListDeliveriesBody,
  type ListDeliveriesResult,
  type RecoverDeliveriesBody,
  type RecoverDeliveriesResult,
  type ResendDeliveryBody,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import { ApiException } from '../http/api-exception';
import type { ApiRequest } from '../http/http-types';
import { serialId } from '../http/path-ids';
import { RpcClientPool, WEBHOOK_DISPATCHER } from '../rpc/rpc-client-pool';
import { Audit } from './audit';
import { Allows, DashboardGuard } from './dashboard.guard';
import { DeliveriesQuery, RecoverDto } from './dashboard.requests';
import { ValidBody, ValidQuery } from '../http/request-validation';

const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;
const DELIVERY_PAGE = 50;

/** A webhook endpoint as the dashboard shows it: never its signing secret. */
export type EndpointItem = DashboardApi.EndpointItem;

export const presentEndpoint = (c: CallbackView): EndpointItem => ({
  id: c.id,
  url: c.url,
  description: c.description,
  events: c.events,
  is_active: c.is_active,
  failure_count: c.failure_count,
  last_triggered: c.last_triggered,
  date_created: c.date_created,
});

/** Webhook endpoints, their delivery log, resend and recover: the dispatcher's RPCs /v1/callback uses. */
@ApiExcludeController()
@Controller('dashboard/api/webhooks')
@UseGuards(DashboardGuard)
export class WebhooksController {
  constructor(
    @Inject(WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool,
    private readonly audit: Audit,
  ) {}

  @Get()
  @Allows('webhooks.read')
  async list(@Req() req: ApiRequest): Promise<DashboardApi.EndpointList> {
    const r = await this.hooks.call<ListCallbacksBody, ListCallbacksResult>(
      WebhookRpcPatterns.CallbacksList,
      rpcContext(req),
      { limit: 100, skip: 0 },
    );
    // The event types an endpoint may subscribe to, for the page's add and edit forms.
    return { result: 'success', endpoints: r.callbacks.map(presentEndpoint), event_types: EVENT_CATALOGUE };
  }

  @Get(':id/deliveries')
  @Allows('webhooks.read')
  async deliveries(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidQuery(DeliveriesQuery) q: DeliveriesQuery,
  ): Promise<DashboardApi.DeliveryList> {
    const r = await this.hooks.call<ListDeliveriesBody, ListDeliveriesResult>(
      WebhookRpcPatterns.DeliveriesList,
      rpcContext(req),
      {
        id: serialId(id, 'webhook endpoint'),
        limit: DELIVERY_PAGE,
        skip: 0,
        status: q.status,
        starting_after: q.starting_after,
      },
    );
    return { result: 'success', deliveries: r.deliveries, has_more: r.has_more };
  }

  @Post(':id/deliveries/:delivery_id/resend')
  @HttpCode(200)
  @Allows('webhooks.write')
  async resend(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<{ result: 'success'; message: string }> {
    if (!DELIVERY_ID.test(deliveryId)) throw new ApiException(ErrorCodes.NotFound, `no delivery ${deliveryId}`);
    await this.hooks.call<ResendDeliveryBody, unknown>(WebhookRpcPatterns.DeliveriesResend, rpcContext(req), {
      id: serialId(id, 'webhook endpoint'),
      delivery_id: deliveryId,
    });
    await this.audit.record(req, 'webhook.resend', deliveryId, { endpoint: Number(id) });
    return { result: 'success', message: 'Delivery queued again' };
  }

  @Post(':id/recover')
  @HttpCode(200)
  @Allows('webhooks.write')
  async recover(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(RecoverDto) { since }: RecoverDto,
  ): Promise<{ result: 'success'; requeued: number }> {
    const r = await this.hooks.call<RecoverDeliveriesBody, RecoverDeliveriesResult>(
      WebhookRpcPatterns.DeliveriesRecover,
      rpcContext(req),
      { id: serialId(id, 'webhook endpoint'), since },
    );
    await this.audit.record(req, 'webhook.recover', String(id), { since, requeued: r.requeued });
    return { result: 'success', requeued: r.requeued };
  }
}
