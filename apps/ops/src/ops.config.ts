import { IsString, Matches } from 'class-validator';
import { CommonConfig, HOST_PORT_LIST } from '@payments/config';

/** Settings of the ops CLI; property name = environment variable name. */
export class OpsConfig extends CommonConfig {
  @Matches(HOST_PORT_LIST, { message: '$property must be a comma-separated list of host:port' })
  KAFKA_BROKERS = '127.0.0.1:59092';

  @IsString()
  KAFKA_TOPIC_PREFIX = '';

  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s) URL' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  @IsString()
  ADMIN_API_TOKEN = '';
}
