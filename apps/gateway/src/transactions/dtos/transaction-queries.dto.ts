import { MAX_AMOUNT } from '@payments/money';
import { TRANSACTION_STATUSES, type TransactionStatus } from '@payments/contracts';
import { CreatedRangeCursorQuery, CursorQuery } from '../../http/cursor-query';
import { IsCalendarDate } from '../../http/dates';
import { LINK_ID } from '../../links/links.dto';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, Validate, ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { type MetadataInput } from '@payments/domain';
import { IntegerInRange, OptionalDescription, OptionalMetadata } from '../../http/validation';

/** Largest page of GET /v1/transactions/list (docs/api.md). */
export const LIST_LIMIT_MAX = 500;

@ValidatorConstraint({ name: 'notBeforeStart' })
class NotBeforeStart implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const start = (args.object as { start_date?: string }).start_date;
    return typeof value !== 'string' || typeof start !== 'string' || value >= start;
  }
  defaultMessage(): string {
    return 'end_date must not be before start_date';
  }
}

/** GET /v1/transactions/list query: the filters are ANDed; `created[…]` are parsed flat, each a field of its own. */
export class ListTransactionsQuery extends CreatedRangeCursorQuery {
  static override cursorIds = { pattern: /^txn_[0-9A-Za-z]{1,64}$/, noun: 'a transaction id (txn_…)' };

  @IsOptional()
  @Validate(IsCalendarDate)
  start_date?: string;

  @IsOptional()
  @Validate(IsCalendarDate)
  @Validate(NotBeforeStart)
  end_date?: string;

  @IsOptional()
  @IntegerInRange('limit', 1, LIST_LIMIT_MAX, { fromQuery: true })
  limit?: number;

  @IsOptional()
  @IsString({ message: 'status must be one transaction status' })
  @IsIn(TRANSACTION_STATUSES, { message: `status must be one of ${TRANSACTION_STATUSES.join(', ')}` })
  status?: TransactionStatus;

  @IsOptional()
  @IsString({ message: 'reference must be a string' })
  @Length(1, 100, { message: 'reference must be 1 to 100 characters' })
  reference?: string;

  @IsOptional()
  @IsString({ message: 'email must be a string' })
  @Length(1, 254, { message: 'email must be 1 to 254 characters' })
  email?: string;

  @IsOptional()
  @IsString({ message: 'payment_link_id must be a string' })
  @Matches(LINK_ID, { message: 'payment_link_id must be a payment link id (plink_…)' })
  payment_link_id?: string;
}

/** GET /v1/transactions/fetch query. */
export class FetchTransactionQuery {
  @IsString({ message: 'publicId is required' })
  @Length(1, 100, { message: 'publicId must be 1 to 100 characters' })
  publicId: string;
}

/** POST /v1/transactions/refund body. */
export class RefundDto {
  @IsString({ message: 'transaction_reference is required' })
  @Length(1, 100, { message: 'transaction_reference must be 1 to 100 characters' })
  transaction_reference: string;

  /** Absent: everything that is left to refund. */
  @IsOptional()
  @IsInt({ message: 'amount must be a positive integer in minor units' })
  @Min(1, { message: 'amount must be a positive integer in minor units' })
  @Max(MAX_AMOUNT, { message: `amount must be at most ${MAX_AMOUNT}` })
  amount?: number;

  /** Free text for the merchant's records, returned on every read of the refund. */
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @Length(1, 500, { message: 'reason must be 1 to 500 characters' })
  reason?: string;

  @OptionalMetadata()
  metadata?: MetadataInput;

  @OptionalDescription()
  description?: string | null;
}

/** Path parameter of GET /v1/transactions/refunds/{refund_id}. */
export const REFUND_ID = /^rfd_[0-9A-Za-z]{10,40}$/;

/** Largest page of GET /v1/transactions/refunds when a limit is given. */
export const REFUNDS_PAGE_MAX = 100;

/** GET /v1/transactions/refunds query: every refund, oldest first, or one cursor page in that order. */
export class ListRefundsQuery extends CursorQuery {
  static override cursorIds = { pattern: REFUND_ID, noun: 'a refund id (rfd_…)' };

  @IsString({ message: 'transaction_reference is required' })
  @Length(1, 100, { message: 'transaction_reference must be 1 to 100 characters' })
  transaction_reference: string;

  @IsOptional()
  @IntegerInRange('limit', 1, REFUNDS_PAGE_MAX, { fromQuery: true })
  limit?: number;
}

