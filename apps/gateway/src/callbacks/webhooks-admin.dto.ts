import { IsBoolean, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { ISO_8601_WITH_ZONE, PG_INT_MAX } from '@payments/contracts';
import { IntegerInRange } from '../http/validation';

export class AdminRecoverDto {
  @IsInt({ message: 'business_id must be a business id' })
  @Min(1, { message: 'business_id must be a business id' })
  @Max(PG_INT_MAX, { message: 'business_id must be a business id' })
  business_id: number;

  @IsIn(['test', 'live'], { message: 'mode must be test or live' })
  mode: 'test' | 'live';

  @Matches(ISO_8601_WITH_ZONE, { message: 'since must be an ISO-8601 timestamp with a zone, e.g. 2026-01-31T12:00:00Z' })
  since: string;

  @IsOptional()
  @IsBoolean({ message: 'dry_run must be true or false' })
  dry_run?: boolean;

  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'after must be the next cursor of a previous page' })
  after?: string;

  @IsOptional()
  @IntegerInRange('limit', 1, 1000)
  limit?: number;
}
