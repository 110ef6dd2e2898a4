import {
  ErrorCodes,
  LedgerRpcPatterns,
  UUID_PATTERN,
  type CreateSplitConfigBody,
  type RpcContext,
  type SplitConfigView,
  type UpdateSplitConfigBody,
} from '@payments/contracts';
import type { BusinessesService } from '../businesses/businesses.service';
import { ApiException } from '../http/api-exception';
import { asRpcBody } from '../http/request-validation';
import type { RpcClientPool } from '../rpc/rpc-client-pool';
import type { CreateSplitConfigDto, UpdateSplitConfigDto } from './split.requests';

/**
 * Creating and changing split configs as /v1/splits/config does, for it and for the merchant
 * dashboard: the same checks in the gateway, then the same split-ledger RPCs.
 */

/** A path id that is not a UUID names no config: 404 without asking the service. */
export function checkedSplitConfigId(publicId: string): string {
  if (!UUID_PATTERN.test(publicId)) throw new ApiException(ErrorCodes.NotFound, `no split config ${publicId}`);
  return publicId.toLowerCase();
}

/**
 * POST /v1/splits/config: businesses live in the gateway's database, so the partner check
 * (another business, and an existing one) happens here, before the RPC applies the other rules.
 */
export async function createSplitConfig(
  ledger: RpcClientPool,
  businesses: BusinessesService,
  ctx: RpcContext,
  dto: CreateSplitConfigDto,
): Promise<SplitConfigView> {
  if (dto.partner_business_id === ctx.business_id) {
    throw new ApiException(ErrorCodes.ValidationError, 'partner_business_id must be a business other than your own', [
      { field: 'partner_business_id', message: 'must be a business other than your own' },
    ]);
  }
  if ((await businesses.missing([dto.partner_business_id])).length > 0) {
    throw new ApiException(
      ErrorCodes.ValidationError,
      `partner_business_id ${dto.partner_business_id} is not an existing business`,
      [{ field: 'partner_business_id', message: 'is not an existing business' }],
    );
  }
  return ledger.call<CreateSplitConfigBody, SplitConfigView>(LedgerRpcPatterns.SplitConfigsCreate, ctx, {
    partner_business_id: dto.partner_business_id,
    split_type: dto.split_type,
    split_value: dto.split_value,
    split_role: dto.split_role,
    currency: dto.currency,
    description: dto.description ?? null,
  });
}

/** PUT /v1/splits/config/{public_id}: absent fields stay; another business's or mode's config is 404. */
export async function updateSplitConfig(
  ledger: RpcClientPool,
  ctx: RpcContext,
  publicId: string,
  dto: UpdateSplitConfigDto,
): Promise<SplitConfigView> {
  const sent = asRpcBody(dto);
  return ledger.call<UpdateSplitConfigBody, SplitConfigView>(LedgerRpcPatterns.SplitConfigsUpdate, ctx, {
    public_id: checkedSplitConfigId(publicId),
    split_type: sent.split_type,
    split_value: sent.split_value,
    split_role: sent.split_role,
    description: dto.description,
  });
}
