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
import { OptionalRedirectUrl, PercentageInBasisPoints } from '../http/validation';

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

  @IsString({ message: 'description is required' })
  @Length(1, 500, { message: 'description must be 1 to 500 characters' })
  description: string;

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
