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

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  override RPC_PORT = 4002;

  @IsInt(PORT_RULE)
  @Min(1, PORT_RULE)
  @Max(65535, PORT_RULE)
  override HTTP_PORT = 4102;

  /**
   * The ledger's consumer fetches in batches (it has no latency target): a fetch is answered once
   * this many bytes of events are there or LEDGER_FETCH_MAX_WAIT_MS have passed. 1 turns it off.
   */
  @IsInt()
  @Min(1)
  @Max(1_048_576)
  LEDGER_FETCH_MIN_BYTES = 16_384;

  /** Longest a ledger fetch waits for LEDGER_FETCH_MIN_BYTES: the latency batching may add. */
  @IsInt()
  @Min(10)
  @Max(5_000)
  LEDGER_FETCH_MAX_WAIT_MS = 200;

  /** When the weekly settlement runs (cron, UTC). Default: Monday 00:00. */
  @Validate(IsCron)
  SETTLEMENT_CRON = '0 0 * * 1';
}
