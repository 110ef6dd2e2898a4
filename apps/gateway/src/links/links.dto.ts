import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  Validate,
  ValidateNested,
} from 'class-validator';
import { PG_INT_MAX, SPLIT_TYPES, type SplitType } from '@payments/contracts';
import { SUPPORTED_CURRENCIES, MAX_AMOUNT } from '@payments/money';
import type { MetadataInput } from '@payments/domain';
import { CursorQuery } from '../http/cursor-query';
import { IntegerInRange, OptionalMetadata, OptionalRedirectUrl, PercentageInBasisPoints, RequiredDescription } from '../http/validation';

export class LinkSplitDto {
  @IsInt({ message: 'business_id must be an integer' })
  @Min(1, { message: 'business_id must be an existing business' })
  @Max(PG_INT_MAX, { message: 'business_id must be an existing business' })
  business_id: number;

  @IsIn(SPLIT_TYPES, { message: `type must be ${SPLIT_TYPES.join(' or ')}` })
  type: SplitType;

  @IsInt({ message: 'value must be a positive integer' })
  @Min(1, { message: 'value must be a positive integer' })
  @Validate(PercentageInBasisPoints, ['type'])
  value: number;

  @IsOptional()
  @IsString()
  @Length(0, 500, { message: 'description must be at most 500 characters' })
  description?: string;
}

/** POST /v1/links body. */
export class CreateLinkDto {
  @IsInt({ message: 'amount must be a positive integer in minor units' })
  @Min(1, { message: 'amount must be a positive integer in minor units' })
  @Max(MAX_AMOUNT, { message: `amount must be at most ${MAX_AMOUNT}` })
  amount: number;

  @IsIn(SUPPORTED_CURRENCIES, { message: `currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}` })
  currency: string;

  @RequiredDescription()
  description: string;

  @OptionalMetadata()
  metadata?: MetadataInput;

  @IsOptional()
  @IsArray({ message: 'splits must be an array' })
  @ArrayMaxSize(10, { message: 'splits may have at most 10 entries' })
  @ValidateNested({ each: true })
  @Type(() => LinkSplitDto)
  splits?: LinkSplitDto[];

  @OptionalRedirectUrl('success_url')
  success_url?: string;

  @OptionalRedirectUrl('failure_url')
  failure_url?: string;
}

/**
 * POST /v1/links/{id} body: Stripe-style update. Absent fields stay as they are; a metadata key
 * set to "" is removed, `metadata: null` or `""` removes them all. A link's description is required,
 * so it can be changed but not removed.
 */
export class UpdateLinkDto {
  @RequiredDescription({ omittable: true })
  description?: string;

  @OptionalMetadata()
  metadata?: MetadataInput;
}

/** A payment link id as the API hands it out; anything else cannot name a link (404 without an RPC). */
export const LINK_ID = /^plink_[0-9A-Za-z]{10,40}$/;

/** Default and largest page of GET /v1/links. */
export const LINKS_PAGE_DEFAULT = 10;
export const LINKS_PAGE_MAX = 100;

/** GET /v1/links query: newest first; `starting_after` pages to older links, `ending_before` to newer ones. */
export class ListLinksQuery extends CursorQuery {
  static override cursorIds = { pattern: LINK_ID, noun: 'a payment link id (plink_…)' };

  @IsOptional()
  @IntegerInRange('limit', 1, LINKS_PAGE_MAX, { fromQuery: true })
  limit?: number;
}
