import { Body, Controller, Delete, Get, Inject, Param, Put, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  CONNECTION_PROVIDERS,
  RpcPatterns,
  type ConnectionDeletedResult,
  type ConnectionProvider,
  type ConnectionProviderBody,
  type ConnectionView,
  type DashboardApi,
  type ListConnectionsResult,
  type PutConnectionBody,
} from '@payments/contracts';
import { PROVIDER_CONNECTIONS } from '@payments/domain';
import { rpcContext } from '../auth/api-key.guard';
import { RedirectOriginsDto } from '../businesses/business.requests';
import { RedirectOriginsService } from '../businesses/redirect-origins';
import { GatewayConfig } from '../config/gateway.config';
import { CONNECTION_BODIES } from '../connections/connection.requests';
import { notificationUrl, presentConnection } from '../connections/connection.presenter';
import { checkedProvider } from '../connections/connections.controller';
import type { ApiRequest } from '../http/http-types';
import { ValidBody, validateRequest } from '../http/request-validation';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { Audit } from './audit';
import { Allows, AnyMode, DashboardGuard } from './dashboard.guard';
import { expectPageMode } from './page-mode';

export type ProviderItem = DashboardApi.ProviderItem;

/** Every provider, with the session's mode's connection of each (a list without credentials). */
export function providerItems(connections: ConnectionView[], publicBaseUrl: string): ProviderItem[] {
  return CONNECTION_PROVIDERS.map((provider): ProviderItem => {
    const c = connections.find((x) => x.provider === provider);
    return {
      provider,
      fields: Object.keys(PROVIDER_CONNECTIONS[provider].fields).map((name) => ({
        name,
        secret: /key|token/.test(name),
      })),
      notification_url: notificationUrl(publicBaseUrl, provider),
      connection: c ? presentConnection(c, publicBaseUrl) : null,
    };
  });
}

/**
 * The business's settings: redirect origins (as /v1/settings/redirect_origins) and provider
 * connections (as /v1/connections, in the session's mode), through the same services. Owners
 * change them (connections.write); everyone reads them.
 */
@ApiExcludeController()
@Controller('dashboard/api/settings')
@UseGuards(DashboardGuard)
export class DashboardSettingsController {
  constructor(
    private readonly origins: RedirectOriginsService,
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly audit: Audit,
  ) {}

  @Get()
  @Allows('settings.read')
  async get(@Req() req: ApiRequest): Promise<DashboardApi.Settings> {
    const ctx = rpcContext(req);
    const [origins, { connections }] = await Promise.all([
      this.origins.get(ctx.business_id),
      this.transactions.call<Record<string, never>, ListConnectionsResult>(RpcPatterns.ConnectionsList, ctx, {}),
    ]);
    return {
      result: 'success',
      redirect_origins: origins,
      providers: providerItems(connections, this.config.publicBaseUrl()),
    };
  }

  /** The whole list, replacing the previous one: PUT /v1/settings/redirect_origins's rules. */
  @Put('redirect_origins')
  @AnyMode()
  @Allows('connections.write')
  async setRedirectOrigins(
    @Req() req: ApiRequest,
    @ValidBody(RedirectOriginsDto) dto: RedirectOriginsDto,
  ): Promise<DashboardApi.RedirectOrigins> {
    const saved = await this.origins.set(rpcContext(req).business_id, dto.redirect_origins);
    await this.audit.record(req, 'settings.redirect_origins', null, { redirect_origins: saved });
    return { result: 'success', redirect_origins: saved };
  }

  /** PUT /v1/connections/{provider}: the provider's credential fields, all required; `?mode=` the page's mode. */
  @Put('connections/:provider')
  @Allows('connections.write')
  async putConnection(
    @Req() req: ApiRequest,
    @Param('provider') provider: string,
    @Query('mode') mode: unknown,
    @Body() body: unknown,
  ): Promise<DashboardApi.ConnectionAnswer> {
    const known = checkedProvider(provider);
    expectPageMode(req, mode);
    const credentials = validateRequest(CONNECTION_BODIES[known], body);
    const c = await this.transactions.call<PutConnectionBody, ConnectionView>(
      RpcPatterns.ConnectionsPut,
      rpcContext(req),
      { provider: known, credentials },
    );
    // The account as masked by the service; never a credential.
    await this.audit.record(req, 'connection.set', known, { account: c.account });
    return { result: 'success', connection: presentConnection(c, this.config.publicBaseUrl()) };
  }

  @Delete('connections/:provider')
  @Allows('connections.write')
  async removeConnection(
    @Req() req: ApiRequest,
    @Param('provider') provider: string,
    @Query('mode') mode: unknown,
  ): Promise<{ result: 'success'; provider: ConnectionProvider }> {
    const known = checkedProvider(provider);
    expectPageMode(req, mode);
    const r = await this.transactions.call<ConnectionProviderBody, ConnectionDeletedResult>(
      RpcPatterns.ConnectionsDelete,
      rpcContext(req),
      { provider: known },
    );
    await this.audit.record(req, 'connection.remove', r.provider);
    return { result: 'success', provider: r.provider };
  }
}
