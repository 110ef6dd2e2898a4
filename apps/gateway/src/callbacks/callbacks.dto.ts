import { CursorQuery } from '../http/cursor-query';
import { DELIVERY_STATUSES, PG_INT_MAX, type DeliveryStatus } from '@payments/contracts';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength, Validate } from 'class-validator';
import { IsTimestamp } from '../http/dates';
import { IntegerInRange } from '../http/validation';

/** GET /v1/callback/list: page size default and maximum (docs/api.md). */
export const CALLBACK_LIST_DEFAULT = 50;
export const CALLBACK_LIST_MAX = 100;

export class CreateCallbackDto {
  @IsString({ message: 'url is required' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url: string;

  @IsArray({ message: 'events must be an array of event names' })
  @ArrayMaxSize(20, { message: 'events may name at most 20 event types' })
  @IsString({ each: true, message: 'events must be an array of event names' })
  events: string[];

  @IsOptional()
  @IsString()
  @Length(0, 500, { message: 'description must be at most 500 characters' })
  description?: string;
}

export class UpdateCallbackDto {
  @IsOptional()
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url?: string;

  @IsOptional()
  @IsArray({ message: 'events must be an array of event names' })
  @ArrayMaxSize(20, { message: 'events may name at most 20 event types' })
  @IsString({ each: true, message: 'events must be an array of event names' })
  events?: string[];

  @IsOptional()
  @IsBoolean({ message: 'is_active must be true or false' })
  is_active?: boolean;

  @IsOptional()
  @IsString()
  @Length(0, 500, { message: 'description must be at most 500 characters' })
  description?: string;
}

/** GET /v1/callback/list: newest first by offset (`skip`) and/or cursor (a callback id). */
export class CallbackPageQuery extends CursorQuery {
  static override cursorIds = { pattern: /^[1-9]\d{0,8}$/, noun: 'a callback id' };

  @IsOptional()
  @IntegerInRange('limit', 1, CALLBACK_LIST_MAX, { fromQuery: true })
  limit?: number;

  @IsOptional()
  @IntegerInRange('skip', 0, PG_INT_MAX, { fromQuery: true })
  skip?: number;
}

/** GET /v1/callback/{id}/deliveries: newest first by offset and/or cursor (a delivery id). */
export class DeliveriesQuery extends CallbackPageQuery {
  static override cursorIds = { pattern: /^dlv_[0-9a-f]{32}$/, noun: 'a delivery id (dlv_…)' };

  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
}

export class RecoverDto {
  @Validate(IsTimestamp)
  since: string;
}
