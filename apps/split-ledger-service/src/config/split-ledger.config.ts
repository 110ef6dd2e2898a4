import { IsInt, Max, Min, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { PORT_RULE, RedisServiceConfig } from '@payments/config';
import { isCronExpression } from './cron';

@ValidatorConstraint({ name: 'isCronExpression' })
class IsCron implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isCronExpression(value);
  }
  defaultMessage(): string {
    return '$property must be a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 0 * * 1"';
  }
}

/** split-ledger-service settings; property name = environment variable name. */
export class SplitLedgerConfig extends RedisServiceConfig {
  override DATABASE_NAME = 'payments_ledger';

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  override RPC_PORT = 4002;

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  override HTTP_PORT = 4102;

  /** When the weekly settlement runs (cron, UTC). Default: Monday 00:00. */
  @Validate(IsCron)
  SETTLEMENT_CRON = '0 0 * * 1';
}
