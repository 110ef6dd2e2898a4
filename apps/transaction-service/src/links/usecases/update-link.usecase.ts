import { Injectable } from '@nestjs/common';
import { ErrorCodes, type FieldError, type LinkView, type RpcRequest, type UpdateLinkBody } from '@payments/contracts';
import { METADATA_MAX_KEYS, descriptionProblem, mergeMetadata, metadataProblems } from '@payments/domain';
import { DomainException } from '@payments/platform';
import { LinkStore, toLinkView } from '../link-store';

@Injectable()
export class UpdateLinkUseCase {
  constructor(private readonly links: LinkStore) {}

  /**
   * Description and metadata, Stripe's way: absent fields stay, metadata keys merge (a key set to
   * "" is removed, `null`/"" removes all). No event: links have none, and nothing else reads them.
   */
  async execute({ ctx, body }: RpcRequest<UpdateLinkBody>): Promise<LinkView> {
    const refuse = (problems: FieldError[]) => {
      if (problems.length > 0)
        throw new DomainException(ErrorCodes.ValidationError, `${problems[0].field} ${problems[0].message}`, problems);
    };
    const problems = metadataProblems(body.metadata);
    // A link's description is required: it can be replaced, never removed.
    const description =
      body.description === undefined ? null : descriptionProblem(body.description, 'description', { required: true });
    if (description) problems.push(description);
    refuse(problems);
    const row = await this.links.update(ctx.business_id, ctx.mode, body.payment_link_id, (current) => {
      const metadata = mergeMetadata(current.metadata ?? {}, body.metadata);
      const keys = Object.keys(metadata).length;
      refuse(
        keys > METADATA_MAX_KEYS
          ? [
              {
                field: 'metadata',
                message: `may have at most ${METADATA_MAX_KEYS} keys (the update would leave ${keys})`,
              },
            ]
          : [],
      );
      return { description: body.description ?? current.description, metadata };
    });
    return toLinkView(row);
  }
}
