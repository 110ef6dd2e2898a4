import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  WebhookRpcPatterns,
  type CallbackIdBody,
  type CallbackSecretView,
  type CallbackView,
  type CreateCallbackBody,
  type ListCallbacksBody,
  type ListCallbacksResult,
  type ListDeliveriesBody,
  type ListDeliveriesResult,
  type RecoverDeliveriesBody,
  type RecoverDeliveriesResult,
  type ResendDeliveryBody,
  type TestCallbackResult,
  type UpdateCallbackBody,
} from '@payments/contracts';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { ApiException } from '../http/api-exception';
import { serialId } from '../http/path-ids';
import { cursorPage } from '../http/cursor-query';
import { RpcClientPool, WEBHOOK_DISPATCHER } from '../rpc/rpc-client-pool';
import {
  CALLBACK_LIST_DEFAULT,
  CallbackPageQuery,
  CreateCallbackDto,
  DeliveriesQuery,
  RecoverDto,
  UpdateCallbackDto,
} from './callback.requests';
import { presentCallback, presentCallbackListItem } from './callbacks.presenter';
import { ApiResponds } from '@payments/platform';
import * as R from './callback.responses';
import { ValidBody, ValidQuery, asRpcBody } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';

const callbackId = (raw: string): number => serialId(raw, 'callback');

/** Callbacks (webhook endpoints): secret key only — the guard answers 403 to a public key. */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/callback')
@UseGuards(ApiKeyGuard)
export class CallbacksController {
  constructor(@Inject(WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool) {}

  @Post()
  @HttpCode(200)
  @ApiResponds(200, 'Callback created (no id, as the spec says)', R.CallbackMessage)
  @ApiErrors()
  async create(
    @Req() req: ApiRequest,
    @ValidBody(CreateCallbackDto) dto: CreateCallbackDto,
  ): Promise<R.CallbackMessage> {
    await this.hooks.call<CreateCallbackBody, CallbackView>(WebhookRpcPatterns.CallbacksCreate, rpcContext(req), {
      ...asRpcBody(dto),
    });
    return { result: 'success', message: 'Callback created' };
  }

  @Get('list')
  @ApiResponds(200, 'Superset item shape', R.CallbackList)
  @ApiErrors()
  async list(@Req() req: ApiRequest, @ValidQuery(CallbackPageQuery) q: CallbackPageQuery): Promise<R.CallbackList> {
    const r = await this.hooks.call<ListCallbacksBody, ListCallbacksResult>(
      WebhookRpcPatterns.CallbacksList,
      rpcContext(req),
      {
        ...cursorPage(q, CALLBACK_LIST_DEFAULT),
        skip: q.skip ?? 0,
      },
    );
    return {
      result: 'success',
      message: `${r.total_count} callback(s)`,
      callbacks: r.callbacks.map(presentCallbackListItem),
      total_count: r.total_count,
      has_more: r.has_more,
    };
  }

  @Get('fetch/:callback_id')
  @ApiResponds(200, 'The callback', R.CallbackAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  fetch(@Req() req: ApiRequest, @Param('callback_id') id: string): Promise<R.CallbackAnswer> {
    return this.one(req, id);
  }

  @Get(':id/secret')
  @ApiResponds(200, 'The signing secret', R.CallbackSecret)
  @ApiErrors(ErrorCodes.NotFound)
  async secret(@Req() req: ApiRequest, @Param('id') id: string): Promise<R.CallbackSecret> {
    const s = await this.hooks.call<CallbackIdBody, CallbackSecretView>(
      WebhookRpcPatterns.CallbacksSecret,
      rpcContext(req),
      { id: callbackId(id) },
    );
    return { result: 'success', secret: s.secret, previous_secret_expires_at: s.previous_secret_expires_at };
  }

  @Post(':id/secret/roll')
  @HttpCode(200)
  @ApiResponds(200, 'A new signing secret', R.CallbackSecretRolled)
  @ApiErrors(ErrorCodes.NotFound)
  async roll(@Req() req: ApiRequest, @Param('id') id: string): Promise<R.CallbackSecretRolled> {
    const s = await this.hooks.call<CallbackIdBody, CallbackSecretView>(
      WebhookRpcPatterns.CallbacksRollSecret,
      rpcContext(req),
      { id: callbackId(id) },
    );
    return {
      result: 'success',
      message: 'Secret rolled; the previous secret keeps signing until previous_secret_expires_at',
      secret: s.secret,
      previous_secret_expires_at: s.previous_secret_expires_at,
    };
  }

  @Get(':id/deliveries')
  @ApiResponds(200, 'Delivery log, newest first', R.DeliveryList)
  @ApiErrors(ErrorCodes.NotFound)
  async deliveries(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidQuery(DeliveriesQuery) q: DeliveriesQuery,
  ): Promise<R.DeliveryList> {
    const r = await this.hooks.call<ListDeliveriesBody, ListDeliveriesResult>(
      WebhookRpcPatterns.DeliveriesList,
      rpcContext(req),
      {
        id: callbackId(id),
        ...cursorPage(q, CALLBACK_LIST_DEFAULT),
        skip: q.skip ?? 0,
        status: q.status,
      },
    );
    return { result: 'success', deliveries: r.deliveries, total_count: r.total_count, has_more: r.has_more };
  }

  @Post(':id/deliveries/:delivery_id/resend')
  @HttpCode(200)
  @ApiResponds(200, 'Queued again', R.DeliveryResent)
  @ApiErrors(ErrorCodes.NotFound)
  async resend(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<R.DeliveryResent> {
    if (!/^dlv_[0-9a-f]{32}$/.test(deliveryId))
      throw new ApiException(ErrorCodes.NotFound, `no delivery ${deliveryId}`);
    await this.hooks.call<ResendDeliveryBody, unknown>(WebhookRpcPatterns.DeliveriesResend, rpcContext(req), {
      id: callbackId(id),
      delivery_id: deliveryId,
    });
    return { result: 'success', message: 'Delivery queued again', delivery_id: deliveryId, status: 'pending' };
  }

  @Post(':id/recover')
  @HttpCode(200)
  @ApiResponds(200, 'Failed and skipped deliveries queued again', R.DeliveriesRecovered)
  @ApiErrors(ErrorCodes.NotFound)
  async recover(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(RecoverDto) dto: RecoverDto,
  ): Promise<R.DeliveriesRecovered> {
    const r = await this.hooks.call<RecoverDeliveriesBody, RecoverDeliveriesResult>(
      WebhookRpcPatterns.DeliveriesRecover,
      rpcContext(req),
      { id: callbackId(id), since: dto.since },
    );
    return {
      result: 'success',
      message: `${r.requeued} failed or skipped deliveries queued again`,
      requeued: r.requeued,
    };
  }

  /** Sends a signed `ping` now and answers how the endpoint responded (status_code null: unreachable). */
  @Post(':id/test')
  @HttpCode(200)
  @ApiResponds(
    200,
    'A signed ping was sent now; status_code is null (and error set) when the endpoint could not be reached',
    R.TestWebhookSent,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async test(@Req() req: ApiRequest, @Param('id') id: string): Promise<R.TestWebhookSent> {
    const r = await this.hooks.call<CallbackIdBody, TestCallbackResult>(
      WebhookRpcPatterns.CallbacksTest,
      rpcContext(req),
      { id: callbackId(id) },
    );
    return {
      result: 'success',
      message: r.error === null ? 'Test webhook delivered' : `Test webhook failed: ${r.error}`,
      ...r,
    };
  }

  @Get(':id')
  @ApiResponds(200, 'The callback', R.CallbackAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  get(@Req() req: ApiRequest, @Param('id') id: string): Promise<R.CallbackAnswer> {
    return this.one(req, id);
  }

  @Put(':id')
  @ApiResponds(200, 'Updated', R.CallbackMessage)
  @ApiErrors(ErrorCodes.NotFound)
  async update(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(UpdateCallbackDto) dto: UpdateCallbackDto,
  ): Promise<R.CallbackMessage> {
    await this.hooks.call<UpdateCallbackBody, CallbackView>(WebhookRpcPatterns.CallbacksUpdate, rpcContext(req), {
      id: callbackId(id),
      ...asRpcBody(dto),
    });
    return { result: 'success', message: 'Callback updated' };
  }

  @Delete(':id')
  @ApiResponds(200, 'Deleted; pending deliveries cancelled', R.CallbackMessage)
  @ApiErrors(ErrorCodes.NotFound)
  async remove(@Req() req: ApiRequest, @Param('id') id: string): Promise<R.CallbackMessage> {
    await this.hooks.call<CallbackIdBody, unknown>(WebhookRpcPatterns.CallbacksDelete, rpcContext(req), {
      id: callbackId(id),
    });
    return { result: 'success', message: 'Callback deleted' };
  }

  private async one(req: ApiRequest, id: string): Promise<R.CallbackAnswer> {
    const c = await this.hooks.call<CallbackIdBody, CallbackView>(WebhookRpcPatterns.CallbacksGet, rpcContext(req), {
      id: callbackId(id),
    });
    return { result: 'success', callback: presentCallback(c) };
  }
}
