import { Injectable } from '@nestjs/common';
import type { LinkIdBody, LinkView, RpcRequest } from '@payments/contracts';
import { LinkStore, toLinkView } from '../link-store';

/** One of the merchant's payment links (another business's or mode's id is not found). */
@Injectable()
export class GetLinkUseCase {
  constructor(private readonly links: LinkStore) {}

  async execute({ ctx, body }: RpcRequest<LinkIdBody>): Promise<LinkView> {
    return toLinkView(await this.links.get(ctx.business_id, ctx.mode, body.payment_link_id));
  }
}
