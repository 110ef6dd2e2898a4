import { IsOptional, IsString, Validate, ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import type { CursorPageBody } from '@payments/contracts';
import { IsTimestampOrUnixSeconds } from './dates';

/** What a list's cursors name: ids of this form (anything else is a 400 before any RPC). */
export interface CursorIds {
  pattern: RegExp;
  /** How an id of this kind is described in messages, e.g. "a transaction id (txn_…)". */
  noun: string;
}

/** A list query class whose cursors are ids of one kind. */
type CursorQueryClass = { cursorIds: CursorIds };

@ValidatorConstraint({ name: 'isCursorId' })
class IsCursorId implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const { pattern } = (args.object.constructor as unknown as CursorQueryClass).cursorIds;
    return typeof value === 'string' && pattern.test(value);
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be ${(args.object.constructor as unknown as CursorQueryClass).cursorIds.noun}`;
  }
}

@ValidatorConstraint({ name: 'oneCursor' })
class OneCursor implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    const q = args.object as CursorQuery;
    return q.starting_after === undefined || q.ending_before === undefined;
  }
  defaultMessage(): string {
    return 'ending_before cannot be combined with starting_after';
  }
}

/**
 * The cursor half of every list query (Stripe's `starting_after` / `ending_before`): newest
 * first, `starting_after` pages to older objects and `ending_before` to newer ones; the answer
 * carries `has_more`. A subclass sets `cursorIds` and declares its own `limit` (each list keeps
 * the limits it always had).
 */
export abstract class CursorQuery {
  static cursorIds: CursorIds;

  @IsOptional()
  @IsString()
  @Validate(IsCursorId)
  starting_after?: string;

  @IsOptional()
  @IsString()
  @Validate(IsCursorId)
  @Validate(OneCursor)
  ending_before?: string;
}

/** A cursor list that also filters on creation time; the query string is parsed flat, so each bound is a field. */
export abstract class CreatedRangeCursorQuery extends CursorQuery {
  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[gte]'?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[gt]'?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[lte]'?: string;

  @IsOptional() @Validate(IsTimestampOrUnixSeconds)
  'created[lt]'?: string;
}

/** The page a list query asks for, as the services take it. */
export function cursorPage(q: CursorQuery & { limit?: number }, defaultLimit: number): CursorPageBody {
  return { limit: q.limit ?? defaultLimit, starting_after: q.starting_after, ending_before: q.ending_before };
}
