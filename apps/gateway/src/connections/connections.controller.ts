import { Body, Controller, Delete, Get, Inject, Param, Put, Req, UseGuards } from '@nestjs/common';
import {
  CONNECTION_PROVIDERS,
  ErrorCodes,
  RpcPatterns,
  isConnectionProvider,
  type ConnectionDeletedResult,
  type ConnectionProvider,
  type ConnectionProviderBody,
  type ConnectionView,
  type ListConnectionsResult,
  type PutConnectionBody,
} from '@payments/contracts';
import { ApiResponds } from '@payments/platform';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import type { ApiRequest } from '../http/http-types';
import { validateRequest } from '../http/request-validation';
import { ApiBodyOneOf, ApiPathEnum, ApiErrors } from '../openapi/route-docs';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { presentConnection } from './connection.presenter';
import * as R from './connection.responses';
import { CONNECTION_BODIES, DpoConnectionDto, OzowConnectionDto, PaynowConnectionDto } from './connection.requests';

/**
 * A business's own payment-provider accounts, per mode (the key's). Secret key only: the guard
 * answers 403 to a public key. Credentials go in with PUT and never come out of any answer.
 */
@ApiErrors(ErrorCodes.OutcomeUnknown)
@Controller('v1/connections')
@UseGuards(ApiKeyGuard)
export class ConnectionsController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  @Get()
  @ApiResponds(200, "The key's mode's connections, newest first (no credentials)", R.ConnectionList)
  @ApiErrors()
  async list(@Req() req: ApiRequest): Promise<R.ConnectionList> {
    const { connections } = await this.transactions.call<Record<string, never>, ListConnectionsResult>(
      RpcPatterns.ConnectionsList,
      rpcContext(req),
      {},
    );
    return {
      result: 'success',
      connections: connections.map((c) => presentConnection(c, this.config.publicBaseUrl())),
    };
  }

  @Get(':provider')
  @ApiPathEnum('provider', CONNECTION_PROVIDERS)
  @ApiResponds(
    200,
    'The connection (no credentials); 404 when the provider is not connected in this mode',
    R.ConnectionAnswer,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async get(@Req() req: ApiRequest, @Param('provider') provider: string): Promise<R.ConnectionAnswer> {
    const c = await this.transactions.call<ConnectionProviderBody, ConnectionView>(
      RpcPatterns.ConnectionsGet,
      rpcContext(req),
      { provider: checkedProvider(provider) },
    );
    return { result: 'success', ...presentConnection(c, this.config.publicBaseUrl()) };
  }

  /** Replaces the credentials (idempotent: the same body again changes nothing); fields depend on the provider. */
  @Put(':provider')
  @ApiPathEnum('provider', CONNECTION_PROVIDERS)
  @ApiBodyOneOf(PaynowConnectionDto, DpoConnectionDto, OzowConnectionDto)
  @ApiResponds(
    200,
    'The connection as stored (no credentials): ' +
      'paynow takes PaynowConnectionDto, dpo DpoConnectionDto, ozow OzowConnectionDto',
    R.ConnectionAnswer,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async put(
    @Req() req: ApiRequest,
    @Param('provider') provider: string,
    @Body() body: unknown,
  ): Promise<R.ConnectionAnswer> {
    const known = checkedProvider(provider);
    // The body's schema depends on the provider, so it is validated here, after the provider is known.
    const credentials = validateRequest(CONNECTION_BODIES[known], body);
    const c = await this.transactions.call<PutConnectionBody, ConnectionView>(
      RpcPatterns.ConnectionsPut,
      rpcContext(req),
      { provider: known, credentials },
    );
    return { result: 'success', ...presentConnection(c, this.config.publicBaseUrl()) };
  }

  @Delete(':provider')
  @ApiPathEnum('provider', CONNECTION_PROVIDERS)
  @ApiResponds(
    200,
    'Removed: the credentials are deleted; 404 when the provider is not connected in this mode',
    R.ConnectionDeleted,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async remove(@Req() req: ApiRequest, @Param('provider') provider: string): Promise<R.ConnectionDeleted> {
    const { provider: removed } = await this.transactions.call<ConnectionProviderBody, ConnectionDeletedResult>(
      RpcPatterns.ConnectionsDelete,
      rpcContext(req),
      {
        provider: checkedProvider(provider),
      },
    );
    return {
      result: 'success',
      provider: removed,
      message: `${removed} connection removed (${rpcContext(req).mode} mode)`,
    };
  }
}

/** A provider the API knows; any other name in the path names nothing (404 without an RPC). */
export function checkedProvider(provider: string): ConnectionProvider {
  if (!isConnectionProvider(provider))
    throw new ApiException(
      ErrorCodes.NotFound,
      `no provider ${provider}; connections exist for ${CONNECTION_PROVIDERS.join(', ')}`,
    );
  return provider;
}
