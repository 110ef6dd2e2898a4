import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

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
