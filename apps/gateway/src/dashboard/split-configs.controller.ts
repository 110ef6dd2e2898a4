import { Controller, HttpCode, Inject, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  ErrorCodes,
  LedgerRpcPatterns,
  type DashboardApi,
  type SplitConfigRefBody,
  type SplitConfigView,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import { BusinessesService } from '../businesses/businesses.service';
import { ApiException } from '../http/api-exception';
import type { ApiRequest } from '../http/http-types';
import { ValidBody } from '../http/request-validation';
import { RpcClientPool, SPLIT_LEDGER_SERVICE } from '../rpc/rpc-client-pool';
import { checkedSplitConfigId, createSplitConfig, updateSplitConfig } from '../splits/split-config-writes';
import { CreateSplitConfigDto, UpdateSplitConfigDto } from '../splits/split.requests';
import { presentListedSplitConfig } from '../splits/splits.presenter';
import { Audit } from './audit';
import { Allows, DashboardGuard } from './dashboard.guard';

type ConfigAnswer = DashboardApi.SplitConfigAnswer;

/** What an edit sent, for the audit log (a split config's fields hold no secret). */
export function splitConfigChanges(body: UpdateSplitConfigDto): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined) changed[k] = v;
  return changed;
}

/**
 * Creating, changing and deactivating the split configs of the session's business and mode: the
 * requests, rules and split-ledger RPCs of /v1/splits/config (owners only: splits.write). Each
 * answer is the config as the dashboard's list shows it.
 */
@ApiExcludeController()
@Controller('dashboard/api/splits/configs')
@UseGuards(DashboardGuard)
export class DashboardSplitConfigsController {
  constructor(
    @Inject(SPLIT_LEDGER_SERVICE) private readonly ledger: RpcClientPool,
    private readonly businesses: BusinessesService,
    private readonly audit: Audit,
  ) {}

  /** POST /v1/splits/config's body and rules; one Idempotency-Key per config, reused when retrying it. */
  @Post()
  @HttpCode(201)
  @Allows('splits.write')
  async create(
    @Req() req: ApiRequest,
    @ValidBody(CreateSplitConfigDto) dto: CreateSplitConfigDto,
  ): Promise<ConfigAnswer> {
    if (!req.idempotencyClaim) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        'creating a split config needs an Idempotency-Key header (one per config, reused when retrying it)',
        [{ field: 'Idempotency-Key', message: 'is required' }],
      );
    }
    const c = await createSplitConfig(this.ledger, this.businesses, rpcContext(req), dto);
    const { partner_business_id, split_type, split_value, split_role, currency } = c;
    await this.audit.record(req, 'split_config.create', c.public_id, {
      partner_business_id,
      split_type,
      split_value,
      split_role,
      currency,
    });
    return { result: 'success', split_config: presentListedSplitConfig(c) };
  }

  /**
   * As PUT /v1/splits/config/{id}: any of split_type, split_value, split_role, description; partner
   * and currency never change.
   */
  @Patch(':id')
  @Allows('splits.write')
  async update(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(UpdateSplitConfigDto) dto: UpdateSplitConfigDto,
  ): Promise<ConfigAnswer> {
    const c = await updateSplitConfig(this.ledger, rpcContext(req), id, dto);
    await this.audit.record(req, 'split_config.update', c.public_id, splitConfigChanges(dto));
    return { result: 'success', split_config: presentListedSplitConfig(c) };
  }

  /** As DELETE /v1/splits/config/{id}: repeatable; payments made from now on get no split from it. */
  @Post(':id/deactivate')
  @HttpCode(200)
  @Allows('splits.write')
  async deactivate(@Req() req: ApiRequest, @Param('id') id: string): Promise<ConfigAnswer> {
    const c = await this.ledger.call<SplitConfigRefBody, SplitConfigView>(
      LedgerRpcPatterns.SplitConfigsDeactivate,
      rpcContext(req),
      { public_id: checkedSplitConfigId(id) },
    );
    await this.audit.record(req, 'split_config.deactivate', c.public_id);
    return { result: 'success', split_config: presentListedSplitConfig(c) };
  }
}
