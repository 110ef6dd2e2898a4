import { Injectable } from '@nestjs/common';
import type { ListLinksBody, ListLinksResult, RpcRequest } from '@payments/contracts';
import { LinkStore, toLinkView } from '../link-store';

/** A merchant's own payment links, one cursor page (another business's or mode's are never listed). */
@Injectable()
export class ListLinksUseCase {
  constructor(private readonly links: LinkStore) {}

  async execute({ ctx, body }: RpcRequest<ListLinksBody>): Promise<ListLinksResult> {
    const { rows, hasMore } = await this.links.list(ctx.business_id, ctx.mode, body);
    return { links: rows.map(toLinkView), has_more: hasMore };
  }
}
