import { Controller, Get, HttpCode, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { ApiRequest } from '../http/http-types';
import {
  ErrorCodes,
  RpcPatterns,
  type LinkIdBody,
  type LinkView,
  type ListLinksBody,
  type ListLinksResult,
  type UpdateLinkBody,
} from '@payments/contracts';
import { ApiKeyGuard, rpcContext } from '../auth/api-key.guard';
import { BusinessesService } from '../businesses/businesses.service';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import { presentLink } from '../transactions/transaction.presenter';
import { createLink } from './create-link';
import { presentLinkObject } from './link.presenter';
import { cursorPage } from '../http/cursor-query';
import { CreateLinkDto, LINK_ID, LINKS_PAGE_DEFAULT, ListLinksQuery, UpdateLinkDto } from './link.requests';
import { ApiResponds } from '@payments/platform';
import * as R from '../transactions/transaction.responses';
import { ValidBody, ValidQuery } from '../http/request-validation';
import { ApiErrors } from '../openapi/route-docs';

@ApiErrors(ErrorCodes.OutcomeUnknown)
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
  @ApiResponds(200, 'Payment link created', R.LinkCreated)
  @ApiErrors()
  async create(@Req() req: ApiRequest, @ValidBody(CreateLinkDto) dto: CreateLinkDto): Promise<R.LinkCreated> {
    const link = await createLink(this.transactions, this.businesses, rpcContext(req), dto);
    return presentLink(link, this.config.CHECKOUT_URL);
  }

  @Get()
  @ApiResponds(200, 'Newest first; has_more says whether another page follows in the direction asked', R.LinkList)
  @ApiErrors()
  async list(@Req() req: ApiRequest, @ValidQuery(ListLinksQuery) query: ListLinksQuery): Promise<R.LinkList> {
    const page = await this.transactions.call<ListLinksBody, ListLinksResult>(RpcPatterns.LinksList, rpcContext(req), {
      ...cursorPage(query, LINKS_PAGE_DEFAULT),
    });
    return {
      result: 'success',
      links: page.links.map((l) => presentLinkObject(l, this.config.CHECKOUT_URL)),
      has_more: page.has_more,
    };
  }

  @Get(':payment_link_id')
  @ApiResponds(200, 'The payment link', R.LinkAnswer)
  @ApiErrors(ErrorCodes.NotFound)
  async get(@Req() req: ApiRequest, @Param('payment_link_id') id: string): Promise<R.LinkAnswer> {
    const link = await this.transactions.call<LinkIdBody, LinkView>(RpcPatterns.LinksGet, rpcContext(req), {
      payment_link_id: checkedLinkId(id),
    });
    return { result: 'success', ...presentLinkObject(link, this.config.CHECKOUT_URL) };
  }

  /** Stripe-style update of description and metadata; an inactive link can still be annotated. */
  @Post(':payment_link_id')
  @HttpCode(200)
  @ApiResponds(
    200,
    'The link with its new description and metadata (a metadata key set to "" removed; null or "" removes all)',
    R.LinkAnswer,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async update(
    @Req() req: ApiRequest,
    @Param('payment_link_id') id: string,
    @ValidBody(UpdateLinkDto) dto: UpdateLinkDto,
  ): Promise<R.LinkAnswer> {
    const link = await this.transactions.call<UpdateLinkBody, LinkView>(RpcPatterns.LinksUpdate, rpcContext(req), {
      payment_link_id: checkedLinkId(id),
      description: dto.description,
      metadata: dto.metadata,
    });
    return { result: 'success', ...presentLinkObject(link, this.config.CHECKOUT_URL) };
  }

  /** Idempotent: a link already inactive is returned as it is. */
  @Post(':payment_link_id/deactivate')
  @HttpCode(200)
  @ApiResponds(
    200,
    'The link, now inactive (idempotent); its page says it is no longer active and refuses payments',
    R.LinkAnswer,
  )
  @ApiErrors(ErrorCodes.NotFound)
  async deactivate(@Req() req: ApiRequest, @Param('payment_link_id') id: string): Promise<R.LinkAnswer> {
    const link = await this.transactions.call<LinkIdBody, LinkView>(RpcPatterns.LinksDeactivate, rpcContext(req), {
      payment_link_id: checkedLinkId(id),
    });
    return { result: 'success', ...presentLinkObject(link, this.config.CHECKOUT_URL) };
  }
}

export function checkedLinkId(id: string): string {
  if (!LINK_ID.test(id)) throw new ApiException(ErrorCodes.NotFound, `no payment link ${id}`);
  return id;
}
