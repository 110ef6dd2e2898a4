import { Controller, Get, HttpCode, Inject, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  ErrorCodes,
  RpcPatterns,
  type DashboardApi,
  type LinkIdBody,
  type LinkView,
  type ListLinksBody,
  type ListLinksResult,
  type UpdateLinkBody,
} from '@payments/contracts';
import { rpcContext } from '../auth/api-key.guard';
import { BusinessesService } from '../businesses/businesses.service';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import { cursorPage } from '../http/cursor-query';
import type { ApiRequest } from '../http/http-types';
import { ValidBody, ValidQuery } from '../http/request-validation';
import { createLink } from '../links/create-link';
import { presentLinkObject } from '../links/link.presenter';
import { CreateLinkDto, ListLinksQuery, UpdateLinkDto } from '../links/link.requests';
import { checkedLinkId } from '../links/links.controller';
import { RpcClientPool, TRANSACTION_SERVICE } from '../rpc/rpc-client-pool';
import type { LinkObject } from '../transactions/transaction.responses';
import { Audit } from './audit';
import { Allows, DashboardGuard } from './dashboard.guard';

const PAGE = 25;

/**
 * An edit for the audit log: which fields were sent and how many metadata keys were set or
 * removed. Descriptions and metadata are customer data (docs/api.md), so neither is copied.
 */
export function linkChanges(dto: UpdateLinkDto): Record<string, unknown> {
  const m = dto.metadata;
  const changed: Record<string, unknown> = {
    fields: (['description', 'metadata'] as const).filter((f) => dto[f] !== undefined),
  };
  if (m === null || m === '') changed.metadata_removed = 'all';
  else if (m !== undefined && typeof m === 'object') {
    const values = Object.values(m);
    changed.metadata_set = values.filter((v) => v !== '').length;
    changed.metadata_removed = values.filter((v) => v === '').length;
  }
  return changed;
}

/**
 * Payment links of the session's business and mode: the same requests, rules and RPCs as
 * /v1/links (create with splits, list newest first with cursors, edit, deactivate).
 */
@ApiExcludeController()
@Controller('dashboard/api/links')
@UseGuards(DashboardGuard)
export class DashboardLinksController {
  constructor(
    @Inject(TRANSACTION_SERVICE) private readonly transactions: RpcClientPool,
    private readonly businesses: BusinessesService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly audit: Audit,
  ) {}

  @Get()
  @Allows('links.read')
  async list(
    @Req() req: ApiRequest,
    @ValidQuery(ListLinksQuery) query: ListLinksQuery,
  ): Promise<DashboardApi.LinkList> {
    const page = await this.transactions.call<ListLinksBody, ListLinksResult>(
      RpcPatterns.LinksList,
      rpcContext(req),
      cursorPage(query, PAGE),
    );
    const links = page.links.map((l) => this.present(l));
    return { result: 'success', links, has_more: page.has_more };
  }

  /** POST /v1/links's body and rules; one Idempotency-Key per link, reused on retry: a retry never makes a 2nd link. */
  @Post()
  @HttpCode(201)
  @Allows('links.write')
  async create(@Req() req: ApiRequest, @ValidBody(CreateLinkDto) dto: CreateLinkDto): Promise<DashboardApi.LinkAnswer> {
    if (!req.idempotencyClaim) {
      throw new ApiException(
        ErrorCodes.ValidationError,
        'creating a link needs an Idempotency-Key header (one per link, reused when retrying it)',
        [{ field: 'Idempotency-Key', message: 'is required' }],
      );
    }
    const link = await createLink(this.transactions, this.businesses, rpcContext(req), dto);
    await this.audit.record(req, 'link.create', link.payment_link_id, {
      amount: link.amount,
      currency: link.currency,
      splits: link.splits.length,
    });
    return { result: 'success', link: this.present(link) };
  }

  /**
   * As POST /v1/links/{id}: a new description and metadata changes (a key set to "" is removed,
   * `metadata: ""` or null removes them all); an inactive link can still be edited.
   */
  @Patch(':id')
  @Allows('links.write')
  async update(
    @Req() req: ApiRequest,
    @Param('id') id: string,
    @ValidBody(UpdateLinkDto) dto: UpdateLinkDto,
  ): Promise<DashboardApi.LinkAnswer> {
    const link = await this.transactions.call<UpdateLinkBody, LinkView>(RpcPatterns.LinksUpdate, rpcContext(req), {
      payment_link_id: checkedLinkId(id),
      description: dto.description,
      metadata: dto.metadata,
    });
    await this.audit.record(req, 'link.update', link.payment_link_id, linkChanges(dto));
    return { result: 'success', link: this.present(link) };
  }

  /** As POST /v1/links/{id}/deactivate: idempotent, another business's or mode's link is 404. */
  @Post(':id/deactivate')
  @HttpCode(200)
  @Allows('links.write')
  async deactivate(@Req() req: ApiRequest, @Param('id') id: string): Promise<DashboardApi.LinkAnswer> {
    const link = await this.transactions.call<LinkIdBody, LinkView>(RpcPatterns.LinksDeactivate, rpcContext(req), {
      payment_link_id: checkedLinkId(id),
    });
    await this.audit.record(req, 'link.deactivate', link.payment_link_id);
    return { result: 'success', link: this.present(link) };
  }

  private present(l: LinkView): LinkObject {
    return presentLinkObject(l, this.config.CHECKOUT_URL);
  }
}
