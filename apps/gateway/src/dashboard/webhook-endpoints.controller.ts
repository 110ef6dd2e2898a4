import { Controller, Delete, HttpCode, Inject, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  WebhookRpcPatterns,
  type CallbackIdBody,
  type CallbackSecretView,
  type CallbackView,
  type CreateCallbackBody,
  type DashboardApi,
  type TestCallbackResult,
  type UpdateCallbackBody,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import { CreateCallbackDto, UpdateCallbackDto } from '../callbacks/callback.requests';
import type { ApiRequest } from '../http/http-types';
import { serialId } from '../http/path-ids';
import { ValidBody, asRpcBody } from '../http/request-validation';
import { RpcClientPool, WEBHOOK_DISPATCHER } from '../rpc/rpc-client-pool';
import { Audit } from './audit';
import { Allows, AnswersSecret, DashboardGuard } from './dashboard.guard';
import { expectPageMode } from './page-mode';
import { presentEndpoint } from './webhooks.controller';

const endpointId = (raw: string): number => serialId(raw, 'webhook endpoint');

/** What an edit changed, for the audit log: the fields sent (never a secret: an endpoint's fields hold none). */
export function endpointChanges(body: UpdateCallbackDto): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) changed[k] = v;
  return changed;
}

/** The audit action of an edit: enabling or disabling alone is named as such. */
export function endpointEditAction(body: UpdateCallbackDto): string {
  const fields = Object.keys(endpointChanges(body));
  if (fields.length === 1 && fields[0] === 'is_active') return body.is_active ? 'webhook.enable' : 'webhook.disable';
  return 'webhook.update';
}

/**
 * Adding, editing (incl. disabling and enabling), deleting, test pings and secret rolls of webhook
 * endpoints: the dispatcher's RPCs /v1/callback uses, with its request rules (the same schemas).
 * A signing secret is answered twice only: once when the endpoint is added, once per roll.
 */
@ApiExcludeController()
@Controller('dashboard/api/webhooks')
@UseGuards(DashboardGuard)
export class WebhookEndpointsController {
  constructor(
    @Inject(WEBHOOK_DISPATCHER) private readonly hooks: RpcClientPool,
    private readonly audit: Audit,
  ) {}

  /** `?mode=` is the mode the page showed (a new endpoint belongs to one mode). */
  @Post()
  @HttpCode(201)
  @Allows('webhooks.write')
  @AnswersSecret()
  async create(
    @Req() req: ApiRequest,
    @Query('mode') mode: unknown,
    @ValidBody(CreateCallbackDto) body: CreateCallbackDto,
  ): Promise<DashboardApi.EndpointCreated> {
    expectPageMode(req, mode);
    const ctx = rpcContext(req);
    const created = await this.hooks.call<CreateCallbackBody, CallbackView>(WebhookRpcPatterns.CallbacksCreate, ctx, {
      ...asRpcBody(body),
    });
    await this.audit.record(req, 'webhook.create', String(created.id), { url: created.url, events: created.events });
    const { secret } = await this.hooks.call<CallbackIdBody, CallbackSecretView>(
      WebhookRpcPatterns.CallbacksSecret,
      ctx,
      { id: created.id },
    );
    return { result: 'success', endpoint: presentEndpoint(created), secret };
  }

  /** Any of url, description, events, is_active (false disables it, true enables it again). */
  @Patch(':id')
  @Allows('webhooks.write')
  async update(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(UpdateCallbackDto) body: UpdateCallbackDto,
  ): Promise<DashboardApi.EndpointAnswer> {
    const updated = await this.hooks.call<UpdateCallbackBody, CallbackView>(
      WebhookRpcPatterns.CallbacksUpdate,
      rpcContext(req),
      { id: endpointId(id), ...asRpcBody(body) },
    );
    await this.audit.record(req, endpointEditAction(body), String(updated.id), endpointChanges(body));
    return { result: 'success', endpoint: presentEndpoint(updated) };
  }

  /**
   * Deletes the endpoint, as DELETE /v1/callback/{id}: nothing more is sent to it, its pending
   * deliveries are cancelled, and it leaves every list (its past deliveries stay in the events' logs).
   */
  @Delete(':id')
  @HttpCode(200)
  @Allows('webhooks.write')
  async remove(@Req() req: ApiRequest, @Param('id') id: string): Promise<{ result: 'success'; deleted: true }> {
    await this.hooks.call<CallbackIdBody, { deleted: true }>(WebhookRpcPatterns.CallbacksDelete, rpcContext(req), {
      id: endpointId(id),
    });
    await this.audit.record(req, 'webhook.delete', id);
    return { result: 'success', deleted: true };
  }

  /** A signed `ping` sent now, as POST /v1/callback/{id}/test: how the endpoint answered. */
  @Post(':id/test')
  @HttpCode(200)
  @Allows('webhooks.write')
  async test(@Req() req: ApiRequest, @Param('id') id: string): Promise<DashboardApi.EndpointTested> {
    const r = await this.hooks.call<CallbackIdBody, TestCallbackResult>(
      WebhookRpcPatterns.CallbacksTest,
      rpcContext(req),
      { id: endpointId(id) },
    );
    await this.audit.record(req, 'webhook.test', id, { delivery_id: r.delivery_id, status_code: r.status_code });
    return { result: 'success', ...r };
  }

  /**
   * A new signing secret, in this answer only; the previous one keeps signing every delivery
   * beside it until previous_secret_expires_at (the dispatcher's WEBHOOK_SECRET_ROLL_GRACE_SECONDS).
   */
  @Post(':id/secret/roll')
  @HttpCode(200)
  @Allows('webhooks.write')
  @AnswersSecret()
  async roll(@Req() req: ApiRequest, @Param('id') id: string): Promise<DashboardApi.SecretRolled> {
    const s = await this.hooks.call<CallbackIdBody, CallbackSecretView>(
      WebhookRpcPatterns.CallbacksRollSecret,
      rpcContext(req),
      { id: endpointId(id) },
    );
    await this.audit.record(req, 'webhook.secret.roll', id, {
      previous_secret_expires_at: s.previous_secret_expires_at,
    });
    return { result: 'success', secret: s.secret, previous_secret_expires_at: s.previous_secret_expires_at };
  }
}
