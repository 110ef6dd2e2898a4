import { Injectable } from '@nestjs/common';
import type { LinkIdBody, LinkView, RpcRequest } from '@payments/contracts';
import { LinkStore, toLinkView } from '../link-store';

/** Transactions already started through the link go on; only new payments are refused. */
@Injectable()
export class DeactivateLinkUseCase {
  constructor(private readonly links: LinkStore) {}

  async execute({ ctx, body }: RpcRequest<LinkIdBody>): Promise<LinkView> {
    return toLinkView(await this.links.deactivate(ctx.business_id, ctx.mode, body.payment_link_id));
  }
}
