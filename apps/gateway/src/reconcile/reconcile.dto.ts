import { ArrayMaxSize, IsArray, IsOptional, Matches } from 'class-validator';
import { IntegerInRange } from '../http/validation';

export const RECONCILE_PAGE_MAX = 1_000;

export class ReconcilePageQuery {
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'after must be the next cursor of a previous page' })
  after?: string;

  @IsOptional()
  @IntegerInRange('limit', 1, RECONCILE_PAGE_MAX, { fromQuery: true })
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
