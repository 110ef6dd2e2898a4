import { Injectable } from '@nestjs/common';
import type { LinkIdBody, LinkView, ListLinksBody, ListLinksResult, RpcRequest } from '@payments/contracts';
import { LinkStore, toLinkView } from '../link-store';

/** A merchant's own payment links: list, fetch, deactivate (another business's or mode's id is not found). */
@Injectable()
export class ManageLinksUseCase {
  constructor(private readonly links: LinkStore) {}

  async list({ ctx, body }: RpcRequest<ListLinksBody>): Promise<ListLinksResult> {
    const { rows, hasMore } = await this.links.list(ctx.business_id, ctx.mode, body);
    return { links: rows.map(toLinkView), has_more: hasMore };
  }

  async get({ ctx, body }: RpcRequest<LinkIdBody>): Promise<LinkView> {
    return toLinkView(await this.links.get(ctx.business_id, ctx.mode, body.payment_link_id));
  }

  /** Transactions already started through the link go on; only new payments are refused. */
  async deactivate({ ctx, body }: RpcRequest<LinkIdBody>): Promise<LinkView> {
    return toLinkView(await this.links.deactivate(ctx.business_id, ctx.mode, body.payment_link_id));
  }
}
