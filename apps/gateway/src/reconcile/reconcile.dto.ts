import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export const RECONCILE_PAGE_MAX = 1_000;

export class ReconcilePageQuery {
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'after must be the next cursor of a previous page' })
  after?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit must be an integer from 1 to ${RECONCILE_PAGE_MAX}` })
  @Min(1, { message: `limit must be an integer from 1 to ${RECONCILE_PAGE_MAX}` })
  @Max(RECONCILE_PAGE_MAX, { message: `limit must be an integer from 1 to ${RECONCILE_PAGE_MAX}` })
  limit?: number;
}

export class ReconcileIdsDto {
  @IsArray({ message: 'ids must be an array of transaction ids' })
  @ArrayMaxSize(RECONCILE_PAGE_MAX, { message: `ids may hold at most ${RECONCILE_PAGE_MAX} ids` })
  @Matches(/^\d{1,18}$/, { each: true, message: 'ids must be an array of transaction ids' })
  ids: string[];
}

export class ReconcileTransactionIdsDto {
  @IsArray({ message: 'transaction_ids must be an array of transaction ids' })
  @ArrayMaxSize(RECONCILE_PAGE_MAX, { message: `transaction_ids may hold at most ${RECONCILE_PAGE_MAX} ids` })
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { each: true, message: 'transaction_ids must be an array of transaction ids' })
  transaction_ids: string[];
}
