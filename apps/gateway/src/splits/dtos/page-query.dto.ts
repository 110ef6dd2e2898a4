import { IsOptional } from 'class-validator';
import { PG_INT_MAX } from '@payments/contracts';
import { IntegerInRange } from '../../http/validation';

/** Largest page of GET /v1/splits/ledger and /v1/splits/invoices (docs/api.md). */
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;

/** `skip` / `limit` query of the ledger and invoice lists. */
export class PageQuery {
  @IsOptional()
  @IntegerInRange('skip', 0, PG_INT_MAX, { fromQuery: true })
  skip?: number;

  @IsOptional()
  @IntegerInRange('limit', 1, PAGE_LIMIT_MAX, { fromQuery: true })
  limit?: number;
}
