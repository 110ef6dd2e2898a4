import { ErrorCodes, RpcPatterns, type CreateLinkBody, type LinkView, type RpcContext } from '@payments/contracts';
import type { BusinessesService } from '../businesses/businesses.service';
import { ApiException } from '../http/api-exception';
import { asRpcBody } from '../http/request-validation';
import type { RpcClientPool } from '../rpc/rpc-client-pool';
import type { CreateLinkDto } from './link.requests';

/**
 * Creates a payment link as POST /v1/links does, for it and for the merchant dashboard: the
 * split partners must exist (businesses live in the gateway's database, so that check happens
 * here, before the RPC), then transaction-service's links.create applies the rest of the rules.
 */
export async function createLink(
  transactions: RpcClientPool,
  businesses: BusinessesService,
  ctx: RpcContext,
  dto: CreateLinkDto,
): Promise<LinkView> {
  const splits = dto.splits ?? [];
  const missing = await businesses.missing(splits.map((s) => s.business_id));
  if (missing.length > 0) {
    throw new ApiException(
      ErrorCodes.ValidationError,
      `splits name businesses that do not exist: ${missing.join(', ')}`,
      splits
        .map((s, i) => ({ s, i }))
        .filter(({ s }) => missing.includes(s.business_id))
        .map(({ i }) => ({ field: `splits.${i}.business_id`, message: 'is not an existing business' })),
    );
  }
  const sent = asRpcBody(dto);
  return transactions.call<CreateLinkBody, LinkView>(RpcPatterns.LinksCreate, ctx, {
    amount: dto.amount,
    currency: dto.currency,
    description: dto.description,
    splits: splits.map((s) => ({
      business_id: s.business_id,
      type: s.type,
      value: s.value,
      description: s.description ?? null,
    })),
    success_url: sent.success_url,
    failure_url: sent.failure_url,
    metadata: dto.metadata,
  });
}
