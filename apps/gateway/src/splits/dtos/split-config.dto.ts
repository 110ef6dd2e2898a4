import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { PG_INT_MAX, SPLIT_DESCRIPTION_MAX, SPLIT_ROLES, SPLIT_TYPES, type SplitRole, type SplitType } from '@payments/contracts';
import { SUPPORTED_CURRENCIES, MAX_AMOUNT } from '@payments/money';
import { PercentageInBasisPoints } from '../../http/validation';

/** A field the PUT refuses by name (rather than as merely unknown). */
@ValidatorConstraint({ name: 'notUpdatable' })
export class NotUpdatable implements ValidatorConstraintInterface {
  validate(): boolean {
    return false;
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} cannot be changed; deactivate this split config and create a new one`;
  }
}

const VALUE = { message: 'split_value must be a positive integer' };
const TYPE = { message: `split_type must be one of ${SPLIT_TYPES.join(', ')}` };
const ROLE = { message: `split_role must be one of ${SPLIT_ROLES.join(', ')}` };
const DESCRIPTION = { message: `description must be a string of at most ${SPLIT_DESCRIPTION_MAX} characters` };

/** POST /v1/splits/config body. */
export class CreateSplitConfigDto {
  @IsInt({ message: 'partner_business_id must be an integer' })
  @Min(1, { message: 'partner_business_id must be an existing business' })
  @Max(PG_INT_MAX, { message: 'partner_business_id must be an existing business' })
  partner_business_id: number;

  @IsIn(SPLIT_TYPES, TYPE)
  split_type: SplitType;

  @IsInt(VALUE)
  @Min(1, VALUE)
  @Max(MAX_AMOUNT, { message: `split_value must be at most ${MAX_AMOUNT}` })
  @Validate(PercentageInBasisPoints, ['split_type'])
  split_value: number;

  @IsIn(SPLIT_ROLES, ROLE)
  split_role: SplitRole;

  @IsIn(SUPPORTED_CURRENCIES, { message: `currency must be one of ${SUPPORTED_CURRENCIES.join(', ')}` })
  currency: string;

  @IsOptional()
  @IsString(DESCRIPTION)
  @MaxLength(SPLIT_DESCRIPTION_MAX, DESCRIPTION)
  description?: string;
}

/** PUT /v1/splits/config/{public_id} body: every field optional; partner and currency are refused. */
export class UpdateSplitConfigDto {
  @ValidateIf((o) => o.partner_business_id !== undefined)
  @Validate(NotUpdatable)
  partner_business_id?: never;

  @ValidateIf((o) => o.currency !== undefined)
  @Validate(NotUpdatable)
  currency?: never;

  @IsOptional()
  @IsIn(SPLIT_TYPES, TYPE)
  split_type?: SplitType;

  @IsOptional()
  @IsInt(VALUE)
  @Min(1, VALUE)
  @Max(MAX_AMOUNT, { message: `split_value must be at most ${MAX_AMOUNT}` })
  @Validate(PercentageInBasisPoints, ['split_type'])
  split_value?: number;

  @IsOptional()
  @IsIn(SPLIT_ROLES, ROLE)
  split_role?: SplitRole;

  @IsOptional()
  @IsString(DESCRIPTION)
  @MaxLength(SPLIT_DESCRIPTION_MAX, DESCRIPTION)
  description?: string;
}
