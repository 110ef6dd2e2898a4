import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorCodes, RpcPatterns, type CreateLinkBody, type LinkView } from '@payments/contracts';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { BusinessesService } from '../businesses/businesses.service';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { presentLink } from '../transactions/transaction.presenter';
import { CreateLinkDto } from './links.dto';

@Controller('v1/links')
@UseGuards(ApiKeyGuard)
export class LinksController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    private readonly businesses: BusinessesService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  async create(@Req() req: Request, @Body() dto: CreateLinkDto) {
    // Businesses live in the gateway's database: the partner check happens here, before the RPC.
    const splits = dto.splits ?? [];
    const missing = await this.businesses.missing(splits.map((s) => s.business_id));
    if (missing.length > 0) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        `splits name businesses that do not exist: ${missing.join(', ')}`,
        splits.map((s, i) => ({ s, i })).filter(({ s }) => missing.includes(s.business_id)).map(({ i }) => ({ field: `splits.${i}.business_id`, message: 'is not an existing business' })),
      );
    }
    const link = await this.transactions.call<CreateLinkBody, LinkView>(RpcPatterns.LinksCreate, rpcContext(req), {
      amount: dto.amount,
      currency: dto.currency,
      description: dto.description,
      splits: splits.map((s) => ({ business_id: s.business_id, type: s.type, value: s.value, description: s.description ?? null })),
      success_url: dto.success_url,
      failure_url: dto.failure_url,
    });
    return presentLink(link, this.config.CHECKOUT_URL);
  }
}
