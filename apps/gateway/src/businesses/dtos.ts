import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { REDIRECT_ORIGINS_MAX, parseRedirectOrigin } from './redirect-origins';

export class CreateBusinessDto {
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name: string;
}

export class RollKeyDto {
  @IsIn(['test', 'live'], { message: 'mode must be test or live' })
  mode: 'test' | 'live';

  @IsIn(['secret', 'public'], { message: 'type must be secret or public' })
  type: 'secret' | 'public';

  /** How long the old key keeps working (default 0: revoked at once; at most 7 days). */
  @IsOptional()
  @IsInt({ message: 'grace_seconds must be an integer' })
  @Min(0)
  @Max(604_800, { message: 'grace_seconds must be at most 604800 (7 days)' })
  grace_seconds?: number;
}

@ValidatorConstraint({ name: 'redirectOrigins' })
class AreRedirectOrigins implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) && value.every((v) => typeof v === 'string' && 'origin' in parseRedirectOrigin(v));
  }
  defaultMessage(args: ValidationArguments): string {
    const list = Array.isArray(args.value) ? (args.value as unknown[]) : [];
    const i = list.findIndex((v) => typeof v !== 'string' || !('origin' in parseRedirectOrigin(v)));
    const bad = list[i];
    const problem = typeof bad === 'string' ? (parseRedirectOrigin(bad) as { problem: string }).problem : 'must be a string';
    return `redirect_origins entry ${i} ${problem}`;
  }
}

/** PUT /v1/settings/redirect_origins and its admin twin: the whole list, replacing the previous one. */
export class RedirectOriginsDto {
  @IsArray({ message: 'redirect_origins must be an array of origins' })
  @ArrayMaxSize(REDIRECT_ORIGINS_MAX, { message: `redirect_origins may list at most ${REDIRECT_ORIGINS_MAX} origins` })
  @MaxLength(200, { each: true, message: 'redirect_origins entries must be at most 200 characters' })
  @Validate(AreRedirectOrigins)
  // A custom rule on an array property would otherwise be documented as a reference to `Array`.
  @JSONSchema((schema) => {
    const { $ref: _ref, ...rest } = schema as Record<string, unknown>;
    return { ...rest, type: 'array', description: 'Origins: https://host[:port], or http://localhost[:port]' };
  })
  redirect_origins: string[];
}
