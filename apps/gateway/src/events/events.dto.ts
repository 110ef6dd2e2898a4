import { IsIn, IsOptional, IsString, Matches, Validate, ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { EVENT_CATALOGUE, type CreatedRange } from '@payments/contracts';
import { isTimestamp } from '../http/dates';
import { IntegerInRange } from '../http/validation';

export const EVENTS_LIST_DEFAULT = 10;
export const EVENTS_LIST_MAX = 100;

/** Latest instant the API accepts, 9999-12-31T23:59:59Z, in Unix seconds. */
const LAST_UNIX_SECOND = 253_402_300_799;

/** An ISO-8601 timestamp, or Unix seconds as Stripe sends them. */
@ValidatorConstraint({ name: 'isTimestampOrUnixSeconds' })
export class IsTimestampOrUnixSeconds implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isTimestamp(value) || (typeof value === 'string' && /^\d{1,12}$/.test(value) && Number(value) <= LAST_UNIX_SECOND);
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be an ISO-8601 timestamp such as 2025-01-31T12:00:00Z or Unix seconds`;
  }
}

/** A validated bound as the ISO timestamp the dispatcher compares with. */
export function toIso(value: string): string {
  return /^\d+$/.test(value) ? new Date(Number(value) * 1000).toISOString() : new Date(value).toISOString();
}

const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;
const cursor = (field: string) => Matches(EVENT_ID, { message: `${field} must be an event id (evt_…)` });

/** GET /v1/events. The query string is parsed flat, so `created[gte]` is a field of its own. */
export class ListEventsQuery {
  @IsOptional()
  @IntegerInRange('limit', 1, EVENTS_LIST_MAX, { fromQuery: true })
  limit?: number;

  @IsOptional()
  @IsString({ message: 'type must be one event type' })
  @IsIn(EVENT_CATALOGUE, { message: `type must be one of ${EVENT_CATALOGUE.join(', ')}` })
  type?: string;

  @IsOptional() @IsString() @cursor('starting_after')
  starting_after?: string;

  @IsOptional() @IsString() @cursor('ending_before')
  ending_before?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[gte]'?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[gt]'?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[lte]'?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[lt]'?: string;
}

export function createdRange(q: ListEventsQuery): CreatedRange {
  const range: CreatedRange = {};
  for (const op of ['gte', 'gt', 'lte', 'lt'] as const) {
    const v = q[`created[${op}]`];
    if (v !== undefined) range[op] = toIso(v);
  }
  return range;
}

/** Path ids that cannot be an event name nothing: 404 without asking the dispatcher. */
export const isEventId = (raw: string): boolean => EVENT_ID.test(raw);
