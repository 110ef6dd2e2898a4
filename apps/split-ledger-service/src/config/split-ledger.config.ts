import { IsInt, Matches, Max, Min } from 'class-validator';
import { PORT_RULE, RedisServiceConfig } from '@payments/config';

/** split-ledger-service settings; property name = environment variable name. */
export class SplitLedgerConfig extends RedisServiceConfig {
  override DATABASE_NAME = 'payments_ledger';

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  override RPC_PORT = 4002;

  @IsInt(PORT_RULE) @Min(1, PORT_RULE) @Max(65535, PORT_RULE)
  override HTTP_PORT = 4102;

  /** When the weekly settlement runs (cron, UTC). Default: Monday 00:00. */
  @Matches(/^(\S+\s+){4}\S+$/, { message: '$property must be a 5-field cron expression' })
  SETTLEMENT_CRON = '0 0 * * 1';
}
