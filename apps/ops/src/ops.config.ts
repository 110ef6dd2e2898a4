import { IsString, Matches } from 'class-validator';
import { CommonConfig, WithKafkaClient } from '@payments/config';

/** Settings of the ops CLI; property name = environment variable name. */
export class OpsConfig extends WithKafkaClient(CommonConfig) {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: '$property must be a postgres:// URL of the database server' })
  DATABASE_URL = 'postgres://payments:payments@127.0.0.1:55432/postgres';

  /** webhook-dispatcher's database, for `webhooks recover`. */
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: '$property must be a lower-case PostgreSQL identifier' })
  WEBHOOKS_DATABASE_NAME = 'payments_webhooks';

  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s) URL' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  @IsString()
  ADMIN_API_TOKEN = '';
}
