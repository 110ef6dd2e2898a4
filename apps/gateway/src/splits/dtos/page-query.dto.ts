import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PG_INT_MAX } from '@payments/contracts';

/** Largest page of GET /v1/splits/ledger and /v1/splits/invoices (docs/api.md). */
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;

const LIMIT = { message: `limit must be an integer from 1 to ${PAGE_LIMIT_MAX}` };
const SKIP = { message: `skip must be an integer from 0 to ${PG_INT_MAX}` };

/** `skip` / `limit` query of the ledger and invoice lists. */
export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt(SKIP)
  @Min(0, SKIP)
  @Max(PG_INT_MAX, SKIP)
  skip?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt(LIMIT)
  @Min(1, LIMIT)
  @Max(PAGE_LIMIT_MAX, LIMIT)
  limit?: number;
}
