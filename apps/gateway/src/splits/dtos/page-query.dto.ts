import { IsOptional } from 'class-validator';
import { INVOICE_REFERENCE_PATTERN, PG_INT_MAX, UUID_PATTERN } from '@payments/contracts';
import { CursorQuery } from '../../http/cursor-query';
import { IntegerInRange } from '../../http/validation';

/** Largest page of GET /v1/splits/ledger and /v1/splits/invoices (docs/api.md). */
export const PAGE_LIMIT_MAX = 500;
export const PAGE_LIMIT_DEFAULT = 100;
/** Largest page of GET /v1/splits/config when a limit is given. */
export const SPLIT_CONFIG_PAGE_MAX = 100;

/** `skip` and cursor query of the ledger and invoice lists (each declares its `limit`). */
abstract class PageQuery extends CursorQuery {
  @IsOptional()
  @IntegerInRange('skip', 0, PG_INT_MAX, { fromQuery: true })
  skip?: number;
}

/** GET /v1/splits/ledger: cursors are ledger entry ids (UUIDs). */
export class LedgerPageQuery extends PageQuery {
  static override cursorIds = { pattern: UUID_PATTERN, noun: 'a ledger entry public_id (a UUID)' };

  // Declared here, not on PageQuery: the OpenAPI generator lists only classes with fields of their own.
  @IsOptional()
  @IntegerInRange('limit', 1, PAGE_LIMIT_MAX, { fromQuery: true })
  limit?: number;
}

/** GET /v1/splits/invoices: cursors are invoice references. */
export class InvoicePageQuery extends PageQuery {
  static override cursorIds = { pattern: INVOICE_REFERENCE_PATTERN, noun: 'an invoice reference (INV-…)' };

  // Declared here, not on PageQuery: the OpenAPI generator lists only classes with fields of their own.
  @IsOptional()
  @IntegerInRange('limit', 1, PAGE_LIMIT_MAX, { fromQuery: true })
  limit?: number;
}

/** GET /v1/splits/config: every config without a limit (as before cursors); cursors are config public_ids. */
export class SplitConfigPageQuery extends CursorQuery {
  static override cursorIds = { pattern: UUID_PATTERN, noun: 'a split config public_id (a UUID)' };

  @IsOptional()
  @IntegerInRange('limit', 1, SPLIT_CONFIG_PAGE_MAX, { fromQuery: true })
  limit?: number;
}
